// One schema per stored row (server/schemas/common.ts, row schemas), every one of them: its columns are the table's,
// so the row type, the column list every whole-row statement names and the answer's stored fields
// cannot drift from the migrations. A column added by a migration and not to its schema (or the
// other way round) fails here on both databases.
import { Type } from '@sinclair/typebox';
import { describe, it } from 'vitest';
import { expect, test } from '../../fixtures.js';
import { columnsOf, shown, shownKeys, shownOf } from '../../../server/schemas/common.js';
import { TRANSACTION_COLUMNS, TransactionRowSchema, TransactionSchema } from '../../../server/schemas/transactions.js';
import { fields, storedOf, text } from '../../../server/schemas/fields.js';
import { TOKEN_COLUMNS } from '../../../server/schemas/tokens.js';
import { BILLING_COLUMNS } from '../../../server/schemas/billings.js';
import { CUSTOMER_COLUMNS } from '../../../server/schemas/customers.js';
import { INVOICE_COLUMNS } from '../../../server/schemas/invoices.js';
import { METHOD_COLUMNS } from '../../../server/schemas/methods.js';
import { OUTBOX_COLUMNS } from '../../../server/schemas/outbox.js';
import { PLAN_COLUMNS } from '../../../server/schemas/plans.js';
import { RECEIPT_COLUMNS, TEMPLATE_COLUMNS } from '../../../server/schemas/receipts.js';
import { SCHEDULED_COLUMNS } from '../../../server/schemas/scheduled.js';
import { SETTINGS_COLUMNS } from '../../../server/schemas/settings.js';
import { SUBSCRIPTION_COLUMNS } from '../../../server/schemas/subscriptions.js';
import { ENTRY_COLUMNS, UPDATE_COLUMNS } from '../../../server/schemas/updater.js';
import { DELIVERY_COLUMNS, EVENT_COLUMNS, RELATION_COLUMNS, RULE_COLUMNS, STRATEGY_COLUMNS } from '../../../server/schemas/webhooks.js';

/** Row schemas and their tables; `seq` (the insertion order, an identity) is read by no row. */
const ROWS = [
  { table: 'transactions', columns: TRANSACTION_COLUMNS as readonly string[] },
  { table: 'tokens', columns: TOKEN_COLUMNS as readonly string[] },
  { table: 'events', columns: EVENT_COLUMNS as readonly string[] },
  { table: 'webhook_rules', columns: RULE_COLUMNS as readonly string[] },
  { table: 'webhook_strategies', columns: STRATEGY_COLUMNS as readonly string[] },
  { table: 'webhook_rule_strategies', columns: RELATION_COLUMNS as readonly string[] },
  { table: 'webhook_deliveries', columns: DELIVERY_COLUMNS as readonly string[] },
  { table: 'outbox', columns: OUTBOX_COLUMNS as readonly string[] },
  { table: 'receipts', columns: RECEIPT_COLUMNS as readonly string[] },
  { table: 'receipt_templates', columns: TEMPLATE_COLUMNS as readonly string[] },
  { table: 'merchant_settings', columns: SETTINGS_COLUMNS as readonly string[] },
  { table: 'plans', columns: PLAN_COLUMNS as readonly string[] },
  { table: 'billings', columns: BILLING_COLUMNS as readonly string[] },
  { table: 'subscriptions', columns: SUBSCRIPTION_COLUMNS as readonly string[] },
  { table: 'scheduled_transactions', columns: SCHEDULED_COLUMNS as readonly string[] },
  { table: 'invoices', columns: INVOICE_COLUMNS as readonly string[] },
  { table: 'customers', columns: CUSTOMER_COLUMNS as readonly string[] },
  { table: 'payment_methods', columns: METHOD_COLUMNS as readonly string[] },
  { table: 'account_updates', columns: UPDATE_COLUMNS as readonly string[] },
  { table: 'account_update_entries', columns: ENTRY_COLUMNS as readonly string[] },
];

for (const { table, columns } of ROWS) {
  test(`${table}: the row schema names exactly the table's columns`, async ({ gateway: gw }) => {
    const rows = await gw.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()`, [table]);
    const inDb = rows.map((r) => r.column_name).filter((c) => c !== 'seq').sort();
    expect(inDb.length).toBeGreaterThan(3);
    expect([...columns].sort()).toEqual(inDb);
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
