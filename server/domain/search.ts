// The dashboard's search box: one merchant environment's transactions, customers, invoices and
// subscriptions found by id (prefix), email, name, the last 4 digits of a card or account (the
// stored masked number or last_4 column: nothing is decrypted) or an amount. Every statement is
// parameterised and bounded; LIKE wildcards in the text are escaped. No Fastify here; the route
// is routes/dashboard-reports.ts.
import { Queryable } from '../db/index.js';
import { E, GatewayError } from '../errors.js';
import type { Scope } from './keys.js';

export const MAX_SEARCH_LIMIT = 20;
export const MAX_SEARCH_TEXT = 100;

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

/** `q` (1..100 characters once trimmed) and `limit` (1..20, default 10); anything else is DASH02. */
export function parseSearch(query: unknown): SearchQuery {
  const raw = (query ?? {}) as Record<string, unknown>;
  const q = typeof raw.q === 'string' ? raw.q.trim() : '';
  const l = raw.limit === undefined || raw.limit === '' ? '10' : typeof raw.limit === 'string' || typeof raw.limit === 'number' ? String(raw.limit).trim() : '';
  const limit = /^\d{1,2}$/.test(l) ? Number(l) : NaN;
  if (q.length < 1 || q.length > MAX_SEARCH_TEXT || !(limit >= 1 && limit <= MAX_SEARCH_LIMIT) || q.includes('\0')) {
    throw new GatewayError(E.SEARCH_INVALID);
  }
  return { q, limit };
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

// Parameters: $1 merchant, $2 env, $3 `q%` (id prefix), $4 `%q%` (text inside), then what the
// statement needs of: the last 4 digits (or null), the amounts as a JSON list (maybe empty), the limit.
const TRANSACTIONS = `
  SELECT id, status, card_type, card_number, payment_method, created_at,
         GREATEST(amount_authorized, amount_failed) AS amount,
         COALESCE(NULLIF(card_owner_name, ''), NULLIF(account_holder_name, ''),
                  NULLIF(trim(concat_ws(' ', first_name, last_name)), ''), receipt_email, email) AS who
    FROM transactions
   WHERE merchant_id = $1 AND env = $2
     AND (id ILIKE $3 OR email ILIKE $4 OR receipt_email ILIKE $4 OR card_owner_name ILIKE $4
          OR account_holder_name ILIKE $4 OR concat_ws(' ', first_name, last_name) ILIKE $4
          OR ($5::text IS NOT NULL AND right(card_number, 4) = $5)
          OR GREATEST(amount_authorized, amount_failed) IN (SELECT (jsonb_array_elements_text($6::jsonb))::bigint))
   ORDER BY seq DESC LIMIT $7`;

const CUSTOMERS = `
  SELECT c.id, c.first_name, c.last_name, c.company, c.email
    FROM customers c
   WHERE c.merchant_id = $1 AND c.env = $2 AND c.deleted_at IS NULL
     AND (c.id ILIKE $3 OR c.email ILIKE $4 OR concat_ws(' ', c.first_name, c.last_name) ILIKE $4 OR c.company ILIKE $4
          OR ($5::text IS NOT NULL AND EXISTS (
                SELECT 1 FROM payment_methods m
                 WHERE m.merchant_id = c.merchant_id AND m.env = c.env AND m.customer_id = c.id
                   AND m.deleted_at IS NULL AND m.last_4 = $5)))
   ORDER BY c.seq DESC LIMIT $6`;

const INVOICES = `
  SELECT id, status, amount, customer_email, concat_ws(' ', customer_first_name, customer_last_name) AS who
    FROM invoices
   WHERE merchant_id = $1 AND env = $2 AND status <> 'deleted'
     AND (id ILIKE $3 OR customer_email ILIKE $4 OR concat_ws(' ', customer_first_name, customer_last_name) ILIKE $4
          OR customer_company ILIKE $4 OR amount IN (SELECT (jsonb_array_elements_text($5::jsonb))::bigint))
   ORDER BY seq DESC LIMIT $6`;

const SUBSCRIPTIONS = `
  SELECT s.id, s.status, s.amount, s.frequency, s.customer_id, c.email,
         concat_ws(' ', c.first_name, c.last_name) AS who
    FROM subscriptions s
    LEFT JOIN customers c ON c.merchant_id = s.merchant_id AND c.env = s.env AND c.id = s.customer_id
   WHERE s.merchant_id = $1 AND s.env = $2
     AND (s.id LIKE $3 OR s.customer_id ILIKE $3 OR c.email ILIKE $4 OR concat_ws(' ', c.first_name, c.last_name) ILIKE $4
          OR s.amount IN (SELECT (jsonb_array_elements_text($5::jsonb))::bigint))
   ORDER BY s.number DESC NULLS LAST LIMIT $6`;

const ORDER: ResultType[] = ['transaction', 'customer', 'invoice', 'subscription'];
const money = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const joined = (...parts: unknown[]) => parts.filter((p) => typeof p === 'string' && p.trim() !== '').join(' · ');

/**
 * Up to `limit` results in all. Each type is asked for `limit` rows (newest first); the answer
 * takes them in turns (a transaction, a customer, an invoice, a subscription, again) so one busy
 * type cannot crowd out the others, and lists them grouped by type in that order.
 */
export async function search(q: Queryable, scope: Scope, { q: text, limit }: SearchQuery): Promise<SearchResult[]> {
  const last4 = /^\d{4}$/.test(text) ? text : null;
  const amounts = JSON.stringify(amountsOf(text));
  const base = [scope.merchantId, scope.env, `${escapeLike(text)}%`, `%${escapeLike(text)}%`];
  const [txns, customers, invoices, subs] = await Promise.all([
    q.query(TRANSACTIONS, [...base, last4, amounts, limit]),
    q.query(CUSTOMERS, [...base, last4, limit]),
    q.query(INVOICES, [...base, amounts, limit]),
    q.query(SUBSCRIPTIONS, [...base, amounts, limit]),
  ]);
  const found: Record<ResultType, SearchResult[]> = {
    transaction: txns.map((t) => ({
      type: 'transaction' as const, id: t.id, amount: Number(t.amount),
      title: `${money(Number(t.amount))} ${String(t.status).toLowerCase()}${t.who ? ` · ${t.who}` : ''}`,
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
