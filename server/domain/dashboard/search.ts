// The dashboard's search box: one merchant environment's transactions, customers, invoices and
// subscriptions found by id (prefix), email, name, the last 4 digits of a card or account (the
// stored masked number or last_4 column: nothing is decrypted) or an amount. Every statement is
// parameterised and bounded; LIKE wildcards in the text are escaped. No Fastify here; the route
// is routes/dashboard-reports.ts.
import { Queryable } from '../../db/index.js';
import type { Scope } from '../merchant/keys.js';

export type ResultType = 'transaction' | 'customer' | 'invoice' | 'subscription';

export interface SearchResult {
  type: ResultType;
  id: string;
  title: string;
  subtitle: string;
  /** Cents; null for a customer. */
  amount: number | null;
}

export interface SearchQuery {
  q: string;
  limit: number;
}

/** Amounts `q` may mean, in cents: `12.50` is 1250; a whole `1250` is 1250 cents or 1250 dollars. */
export function amountsOf(q: string): number[] {
  const t = q.replace(/^\$/, '').replace(/,/g, '');
  if (/^\d{1,9}$/.test(t)) return [Number(t), Number(t) * 100];
  const m = /^(\d{0,9})\.(\d{1,2})$/.exec(t);
  if (m) return [Number(m[1] || '0') * 100 + Number(m[2].padEnd(2, '0'))];
  return [];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What `q` is looked for as. Every q is an id prefix. A q made of digits (and `.`, `,`, `$`) is
 * also the last 4 digits (when exactly 4) and amounts; any other q is text inside names and
 * emails. Each statement tests only what applies: every row of the scope may be read (no index
 * serves "contains"), so less work per row is what keeps a search fast.
 */
interface Terms {
  prefix: string;
  inside: string | null;
  last4: string | null;
  /** JSON list of cents, or null. */
  amounts: string | null;
}

function termsOf(text: string): Terms {
  const numeric = /^[\d.,$]+$/.test(text);
  const amounts = numeric ? amountsOf(text) : [];
  return {
    prefix: `${escapeLike(text)}%`,
    inside: numeric ? null : `%${escapeLike(text)}%`,
    last4: /^\d{4}$/.test(text) ? text : null,
    amounts: amounts.length ? JSON.stringify(amounts) : null,
  };
}

/** `(a OR b …)` of the fragments whose value is not null; each `?` of a fragment is its value's parameter. */
function anyOf(params: unknown[], fragments: [unknown, string][]): string {
  const used = fragments.filter(([v]) => v !== null);
  return `(${used.map(([v, sql]) => sql.replaceAll('?', `$${params.push(v)}`)).join(' OR ')})`;
}

const AMOUNT_IN = 'IN (SELECT (jsonb_array_elements_text(?::jsonb))::bigint)';

/** Statement text and parameters per type; $1 merchant, $2 env, the limit last. */
const STATEMENTS: Record<ResultType, (t: Terms, params: unknown[]) => string> = {
  // Transaction and invoice ids are lower-case hex.
  transaction: (t, p) => `
    SELECT id, status, card_type, card_number, payment_method, created_at, refunded, amount_refunded,
           GREATEST(amount_authorized, amount_failed) AS amount,
           COALESCE(NULLIF(card_owner_name, ''), NULLIF(account_holder_name, ''),
                    NULLIF(trim(concat_ws(' ', first_name, last_name)), ''), receipt_email, email) AS who
      FROM transactions
     WHERE merchant_id = $1 AND env = $2 AND ${anyOf(p, [
    [t.prefix.toLowerCase(), 'id LIKE ?'],
    [t.inside, `email ILIKE ? OR receipt_email ILIKE ? OR card_owner_name ILIKE ? OR account_holder_name ILIKE ?
                OR concat_ws(' ', first_name, last_name) ILIKE ?`],
    [t.last4, 'right(card_number, 4) = ?'],
    [t.amounts, `GREATEST(amount_authorized, amount_failed) ${AMOUNT_IN}`],
  ])}
     ORDER BY seq DESC LIMIT $${p.length + 1}`,
  customer: (t, p) => `
    SELECT c.id, c.first_name, c.last_name, c.company, c.email
      FROM customers c
     WHERE c.merchant_id = $1 AND c.env = $2 AND c.deleted_at IS NULL AND ${anyOf(p, [
    [t.prefix, 'c.id ILIKE ?'],
    [t.inside, "c.email ILIKE ? OR concat_ws(' ', c.first_name, c.last_name) ILIKE ? OR c.company ILIKE ?"],
    [t.last4, `EXISTS (SELECT 1 FROM payment_methods m
                        WHERE m.merchant_id = c.merchant_id AND m.env = c.env AND m.customer_id = c.id
                          AND m.deleted_at IS NULL AND m.last_4 = ?)`],
  ])}
     ORDER BY c.seq DESC LIMIT $${p.length + 1}`,
  invoice: (t, p) => `
    SELECT id, status, amount, customer_email, concat_ws(' ', customer_first_name, customer_last_name) AS who
      FROM invoices
     WHERE merchant_id = $1 AND env = $2 AND status <> 'deleted' AND ${anyOf(p, [
    [t.prefix.toLowerCase(), 'id LIKE ?'],
    [t.inside, "customer_email ILIKE ? OR concat_ws(' ', customer_first_name, customer_last_name) ILIKE ? OR customer_company ILIKE ?"],
    [t.amounts, `amount ${AMOUNT_IN}`],
  ])}
     ORDER BY seq DESC LIMIT $${p.length + 1}`,
  subscription: (t, p) => `
    SELECT s.id, s.status, s.amount, s.frequency, s.customer_id, c.email, concat_ws(' ', c.first_name, c.last_name) AS who
      FROM subscriptions s
      LEFT JOIN customers c ON c.merchant_id = s.merchant_id AND c.env = s.env AND c.id = s.customer_id
     WHERE s.merchant_id = $1 AND s.env = $2 AND ${anyOf(p, [
    [t.prefix, 's.id LIKE ? OR s.customer_id ILIKE ?'],
    [t.inside, "c.email ILIKE ? OR concat_ws(' ', c.first_name, c.last_name) ILIKE ?"],
    [t.amounts, `s.amount ${AMOUNT_IN}`],
  ])}
     ORDER BY s.number DESC NULLS LAST LIMIT $${p.length + 1}`,
};

const ORDER: ResultType[] = ['transaction', 'customer', 'invoice', 'subscription'];
/** Cents as the dashboard shows money: "$1,234.50" (USD, the gateway's one currency). */
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const money = (cents: number) => USD.format(cents / 100);

/**
 * A charge's state in words, as the dashboard's list and transaction page say it: "settled",
 * "settled · partly refunded $5.00", or "refunded" once refunded whole.
 */
export function chargeState(t: { status?: unknown; refunded?: unknown; amount_refunded?: unknown }): string {
  if (t.refunded) return 'refunded';
  const status = String(t.status).toLowerCase().replace(/_/g, ' ');
  const part = Number(t.amount_refunded ?? 0);
  return part > 0 ? `${status} · partly refunded ${money(part)}` : status;
}
const joined = (...parts: unknown[]) => parts.filter((p) => typeof p === 'string' && p.trim() !== '').join(' · ');

/**
 * Up to `limit` results in all. Each type is asked for `limit` rows (newest first); the answer
 * takes them in turns (a transaction, a customer, an invoice, a subscription, again) so one busy
 * type cannot crowd out the others, and lists them grouped by type in that order.
 */
export async function search(q: Queryable, scope: Scope, { q: text, limit }: SearchQuery): Promise<SearchResult[]> {
  const terms = termsOf(text);
  const run = (type: ResultType) => {
    const params: unknown[] = [scope.merchantId, scope.env];
    const sql = STATEMENTS[type](terms, params);
    return q.query<Record<string, any>>(sql, [...params, limit]);
  };
  const [txns, customers, invoices, subs] = await Promise.all(ORDER.map(run));
  const found: Record<ResultType, SearchResult[]> = {
    transaction: txns.map((t) => ({
      type: 'transaction' as const, id: t.id, amount: Number(t.amount),
      title: `${money(Number(t.amount))} ${chargeState(t)}${t.who ? ` · ${t.who}` : ''}`,
      subtitle: joined(t.card_type ?? (t.payment_method === 'bank_account' ? 'bank account' : null),
        t.card_number ? `•••• ${String(t.card_number).slice(-4)}` : null, new Date(t.created_at).toISOString().slice(0, 10), t.id),
    })),
    customer: customers.map((c) => ({
      type: 'customer' as const, id: c.id, amount: null,
      title: joined(c.first_name, c.last_name) || c.company || c.email || c.id,
      subtitle: joined(c.email, c.company, c.id),
    })),
    invoice: invoices.map((i) => ({
      type: 'invoice' as const, id: i.id, amount: Number(i.amount),
      title: `Invoice ${i.id} · ${money(Number(i.amount))}`,
      subtitle: joined(i.who, i.customer_email, i.status),
    })),
    subscription: subs.map((s) => ({
      type: 'subscription' as const, id: s.id, amount: s.amount === null ? null : Number(s.amount),
      title: `Subscription ${s.id}${s.amount === null ? '' : ` · ${money(Number(s.amount))}`}`,
      subtitle: joined(s.who, s.email, s.frequency, s.status),
    })),
  };
  const taken: Record<ResultType, number> = { transaction: 0, customer: 0, invoice: 0, subscription: 0 };
  for (let n = 0, progress = true; n < limit && progress;) {
    progress = false;
    for (const type of ORDER) {
      if (n < limit && taken[type] < found[type].length) {
        taken[type]++;
        n++;
        progress = true;
      }
    }
  }
  return ORDER.flatMap((type) => found[type].slice(0, taken[type]));
}
