// One schema per stored row (server/schemas/common.ts, row schemas), every one of them: its columns are the table's,
// so the row type, the column list every whole-row statement names and the answer's stored fields
// cannot drift from the migrations. A column added by a migration and not to its schema (or the
// other way round) fails here on both databases.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { describe, it } from 'vitest';
import { expect, test } from '../../fixtures.js';
import { columnsOf, shown, shownKeys, shownOf } from '../../../server/schemas/common.js';
import { TransactionRowSchema, TransactionSchema } from '../../../server/schemas/transactions.js';
import { fields, storedOf, text } from '../../../server/schemas/fields.js';
import { TokenRowSchema } from '../../../server/schemas/tokens.js';
import { BillingRowSchema } from '../../../server/schemas/billings.js';
import { CustomerRowSchema } from '../../../server/schemas/customers.js';
import { InvoiceRowSchema } from '../../../server/schemas/invoices.js';
import { MethodRowSchema } from '../../../server/schemas/methods.js';
import { OutboxRowSchema } from '../../../server/schemas/outbox.js';
import { PlanRowSchema } from '../../../server/schemas/plans.js';
import { ReceiptRowSchema, TemplateRowSchema } from '../../../server/schemas/receipts.js';
import { ScheduledRowSchema } from '../../../server/schemas/scheduled.js';
import { SettingsRowSchema } from '../../../server/schemas/settings.js';
import { SubscriptionRowSchema } from '../../../server/schemas/subscriptions.js';
import { EntryRowSchema, UpdateRowSchema } from '../../../server/schemas/updater.js';
import { DeliveryRowSchema, EventRowSchema, RelationRowSchema, RuleRowSchema, StrategyRowSchema } from '../../../server/schemas/webhooks.js';

/** Row schemas and their tables; `seq` (the insertion order, an identity) is read by no row. */
const ROWS: { table: string; row: TObject }[] = [
  { table: 'transactions', row: TransactionRowSchema },
  { table: 'tokens', row: TokenRowSchema },
  { table: 'events', row: EventRowSchema },
  { table: 'webhook_rules', row: RuleRowSchema },
  { table: 'webhook_strategies', row: StrategyRowSchema },
  { table: 'webhook_rule_strategies', row: RelationRowSchema },
  { table: 'webhook_deliveries', row: DeliveryRowSchema },
  { table: 'outbox', row: OutboxRowSchema },
  { table: 'receipts', row: ReceiptRowSchema },
  { table: 'receipt_templates', row: TemplateRowSchema },
  { table: 'merchant_settings', row: SettingsRowSchema },
  { table: 'plans', row: PlanRowSchema },
  { table: 'billings', row: BillingRowSchema },
  { table: 'subscriptions', row: SubscriptionRowSchema },
  { table: 'scheduled_transactions', row: ScheduledRowSchema },
  { table: 'invoices', row: InvoiceRowSchema },
  { table: 'customers', row: CustomerRowSchema },
  { table: 'payment_methods', row: MethodRowSchema },
  { table: 'account_updates', row: UpdateRowSchema },
  { table: 'account_update_entries', row: EntryRowSchema },
];

/**
 * Nullable columns typed not null because every statement reading the row filters out the rows
 * holding null there: 003's minimal subscription and schedule rows (no plan, no amount) share
 * these tables with 007's and are never read as rows (the row schemas' own comments).
 */
const READ_NOT_NULL: Record<string, string[]> = {
  subscriptions: ['number', 'plan_id', 'amount', 'frequency', 'anchor_date'],
  scheduled_transactions: ['amount'],
};

/** Whether a column's schema lets the row type hold null (a union with null, or `type` naming it). */
function acceptsNull(s: TSchema): boolean {
  const t = (s as { type?: unknown }).type;
  if (t === 'null' || (Array.isArray(t) && t.includes('null'))) return true;
  return ((s as { anyOf?: TSchema[] }).anyOf ?? []).some(acceptsNull);
}

for (const { table, row } of ROWS) {
  test(`${table}: the row schema names exactly the table's columns, nullable exactly where the table is`, async ({ gateway: gw }) => {
    const rows = await gw.db.query<{ column_name: string; is_nullable: string }>(
      `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()`, [table]);
    const inDb = rows.filter((r) => r.column_name !== 'seq');
    expect(inDb.length).toBeGreaterThan(3);
    expect([...columnsOf(row)].sort()).toEqual(inDb.map((r) => r.column_name).sort());
    // A nullable column typed as never null lets code read a null as a value; the reverse makes callers check for nothing.
    const nullableInDb = inDb.filter((r) => r.is_nullable === 'YES' && !READ_NOT_NULL[table]?.includes(r.column_name)).map((r) => r.column_name);
    expect(columnsOf(row).filter((c) => acceptsNull(row.properties[c])).sort()).toEqual(nullableInDb.sort());
  });
}

describe('row schemas', () => {
  const Row = Type.Object({ id: shown(Type.String()), secret: Type.String(), note: shown(Type.String()) });
  it('list every column, and the shown ones in order', () => {
    expect(columnsOf(Row)).toEqual(['id', 'secret', 'note']);
    expect(shownKeys(Row)).toEqual(['id', 'note']);
    expect(Object.keys(shownOf(Row))).toEqual(['id', 'note']);
  });

  it('a transaction answers with every shown column and never with the internal ones', () => {
    const answer = Object.keys(TransactionSchema.properties);
    for (const c of shownKeys(TransactionRowSchema)) expect(answer).toContain(c);
    for (const c of ['env', 'token_id', 'method_id', 'receipt_due', 'pending_since', 'reconcile_after']) expect(answer).not.toContain(c);
    expect(TransactionSchema.required).toEqual(answer);
  });

  it('a table marks the fields written as read into their columns', () => {
    const T = fields({ note: text('kept', { stored: true }), other: text('not kept') });
    expect(storedOf(T, T.read({ note: ' hi ', other: 'x' }))).toEqual({ note: 'hi' });
  });
});
