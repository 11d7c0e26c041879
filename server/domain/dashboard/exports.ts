// CSV exports for the dashboard: one merchant environment's transactions (with the filters of
// /dashboard/transactions), customers and invoices, newest first, read in batches by keyset
// (seq) and yielded as text, so no export holds the whole table. RFC 4180 (CRLF, quotes doubled,
// a field with a comma, quote, CR or LF quoted) with spreadsheet formula-injection escaping (csvText,
// the one function every text cell goes through). Card numbers are the stored masked value only.
// No Fastify here; the route is routes/dashboard-reports.ts.
import { Queryable } from '../../db/index.js';
import type { Scope } from '../merchant/keys.js';
import type { TransactionFilter } from '../payments/transactions.js';

export const EXPORT_BATCH = 500;

export type ExportKind = 'transactions' | 'customers' | 'invoices';

type Row = Record<string, unknown>;
/** A column: its header, and either text (escaped) or a number the server wrote (never escaped). */
type Column = [name: string, value: (r: Row) => unknown, kind?: 'number' | 'money'];

/**
 * Where a spreadsheet could begin a cell with a formula: the value's start (past spaces and quotes),
 * or just after a separator of any locale (`,` `;` TAB) or a line break, past the same. A reader
 * whose separator is `;` does not see our `,`-quoting, so `a;=1` inside a quoted cell starts a cell
 * `=1` there: every such place is escaped, not only the first (docs/decisions/connections-and-files.md).
 */
const FORMULA_AT_CELL_START = /(?<=(?:^|[,;\t\r\n])[ \t\r\n"]*)(?=[=+\-@])|^(?=[\t\r\0])/g;
/** Cells quoted: RFC 4180's (quote, comma, CR, LF), and the other separators and quote marks (OWASP). */
const NEEDS_QUOTES = /[",;'\t\r\n]/;

/**
 * Every text cell of every export goes through here (OWASP, CSV Injection): a formula start
 * (= + - @, and TAB, CR or NUL first) gets a leading `'` wherever a cell could begin, and the cell is
 * then quoted with its quotes doubled. `=1+2";=1+2` is written `"'=1+2"";'=1+2"`.
 */
export function csvText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = (value instanceof Date ? value.toISOString() : String(value)).replace(FORMULA_AT_CELL_START, "'");
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Cents as decimal units with two decimals: 1250 → 12.50, -5 → -0.05. */
export function decimal(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function cell([, value, kind]: Column, r: Row): string {
  const v = value(r);
  if (v === null || v === undefined) return '';
  if (kind === 'money') return decimal(Number(v));
  if (kind === 'number') return String(Number(v));
  return csvText(v);
}

/** A money column twice: decimal units (`amount`, 12.50) and integer cents (`amount_cents`, 1250). */
const money = (name: string, value: (r: Row) => unknown): Column[] => [[name, value, 'money'], [`${name}_cents`, value, 'number']];
const field = (name: string): Column => [name, (r) => r[name]];

const COLUMNS: Record<ExportKind, Column[]> = {
  transactions: [
    field('id'), field('created_at'), field('status'), field('successful'), field('payment_method'), field('card_type'),
    field('card_number'), ['name', (r) => r.card_owner_name || r.account_holder_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || null],
    ['email', (r) => r.receipt_email ?? r.email], field('customer_id'), field('description'),
    ...money('amount', (r) => r.amount), ...money('amount_refunded', (r) => r.amount_refunded),
    field('error_code'), field('error_message'), field('reference_number'),
  ],
  customers: [
    field('id'), field('created_at'), field('first_name'), field('last_name'), field('company'), field('email'), field('phone'),
    field('address_1'), field('address_2'), field('city'), field('state'), field('zip'), field('country'),
  ],
  invoices: [
    field('id'), field('created_at'), field('status'), field('customer_id'), field('customer_first_name'), field('customer_last_name'),
    field('customer_email'), field('customer_company'), ...money('amount', (r) => r.amount), ...money('amount_paid', (r) => r.amount_paid),
    field('due_date'), field('paid_at'), field('memo'),
  ],
};

/** Column lists of the SELECTs; `seq` is the keyset. `amount` of a charge is what was asked: authorized, or failed for a decline. */
const SELECT: Record<ExportKind, string> = {
  transactions: `SELECT seq, id, created_at, status, successful, payment_method, card_type, card_number, card_owner_name,
      account_holder_name, first_name, last_name, email, receipt_email, customer_id, description,
      GREATEST(amount_authorized, amount_failed) AS amount, amount_refunded, error_code, error_message, reference_number
    FROM transactions`,
  customers: `SELECT seq, id, created_at, first_name, last_name, company, email, phone, address_1, address_2, city, state, zip, country
    FROM customers`,
  invoices: `SELECT seq, id, created_at, status, customer_id, customer_first_name, customer_last_name, customer_email, customer_company,
      amount, amount_paid, to_char(due_date, 'YYYY-MM-DD') AS due_date, paid_at, memo
    FROM invoices`,
};

export interface ExportFilter {
  transactions?: TransactionFilter;
  /** Customers whose name, company or id contains it (as GET /customers?search_term). */
  searchTerm?: string;
  /** Invoices of this status; without it every invoice but the deleted ones (as GET /invoices). */
  invoiceStatus?: string;
}

/** The WHERE of an export and its parameters ($1 merchant, $2 env, then the filters'). */
function where(kind: ExportKind, scope: Scope, f: ExportFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [scope.merchantId, scope.env];
  const cond = ['merchant_id = $1', 'env = $2'];
  const add = (sql: string, value: unknown) => cond.push(sql.replaceAll('?', `$${params.push(value)}`));
  if (kind === 'transactions') {
    const t = f.transactions ?? {};
    if (t.status !== undefined) add('status = ?', t.status);
    if (t.amountMin !== undefined) add('GREATEST(amount_authorized, amount_failed) >= ?', t.amountMin);
    if (t.amountMax !== undefined) add('GREATEST(amount_authorized, amount_failed) <= ?', t.amountMax);
    if (t.createdFrom !== undefined) add('created_at >= ?', t.createdFrom);
    if (t.createdBefore !== undefined) add('created_at < ?', t.createdBefore);
  } else if (kind === 'customers') {
    cond.push('deleted_at IS NULL');
    if (f.searchTerm !== undefined) {
      add(`(first_name ILIKE ? OR last_name ILIKE ? OR company ILIKE ? OR id ILIKE ?
            OR coalesce(first_name, '') || ' ' || coalesce(last_name, '') ILIKE ?)`, `%${f.searchTerm.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
  } else if (f.invoiceStatus !== undefined) {
    add('status = ?', f.invoiceStatus);
  } else {
    cond.push("status <> 'deleted'");
  }
  return { sql: cond.join(' AND '), params };
}

/**
 * The CSV, a piece at a time: the header row, then one piece per batch of rows. Each batch is one
 * statement (`seq < last seen`, newest first) on the shared pool, so no connection or transaction
 * is held while the client reads.
 */
export async function* exportCsv(q: Queryable, scope: Scope, kind: ExportKind, filter: ExportFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
  const columns = COLUMNS[kind];
  yield `${columns.map(([name]) => name).join(',')}\r\n`;
  const { sql, params } = where(kind, scope, filter);
  let after: number | null = null;
  for (;;) {
    // Two texts rather than `($n IS NULL OR seq < $n)`: a range condition the index can seek to.
    const rows: Row[] = after === null
      ? await q.query(`${SELECT[kind]} WHERE ${sql} ORDER BY seq DESC LIMIT $${params.length + 1}`, [...params, batch])
      : await q.query(`${SELECT[kind]} WHERE ${sql} AND seq < $${params.length + 1} ORDER BY seq DESC LIMIT $${params.length + 2}`,
        [...params, after, batch]);
    if (rows.length === 0) return;
    yield rows.map((r) => `${columns.map((c) => cell(c, r)).join(',')}\r\n`).join('');
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1].seq);
  }
}
