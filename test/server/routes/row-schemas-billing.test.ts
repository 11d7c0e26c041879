// One schema per stored row, for billing and invoices (server/schemas/common.ts, row schemas): each
// row schema names exactly its table's columns on both databases, and each answer shows its shown
// columns and none of the internal ones. The pattern of row-schemas.test.ts.
import { describe, it } from 'vitest';
import { expect, test } from '../../fixtures.js';
import { shownKeys } from '../../../server/schemas/common.js';
import { PLAN_COLUMNS, PlanRowSchema, PlanSchema } from '../../../server/schemas/plans.js';
import { BILLING_COLUMNS, BillingRowSchema, BillingSchema } from '../../../server/schemas/billings.js';
import { INVOICE_COLUMNS, InvoiceRowSchema, InvoiceSchema } from '../../../server/schemas/invoices.js';
import { SCHEDULED_COLUMNS, ScheduledRowSchema, ScheduledSchema } from '../../../server/schemas/scheduled.js';
import { SUBSCRIPTION_COLUMNS, SubscriptionRowSchema, SubscriptionSchema } from '../../../server/schemas/subscriptions.js';

/** Row schemas and their tables, columns in the table's order; `seq` (the insertion order, an identity) is read by no row. */
const ROWS = [
  { table: 'plans', columns: PLAN_COLUMNS as readonly string[] },
  { table: 'billings', columns: BILLING_COLUMNS as readonly string[] },
  { table: 'subscriptions', columns: SUBSCRIPTION_COLUMNS as readonly string[] },
  { table: 'scheduled_transactions', columns: SCHEDULED_COLUMNS as readonly string[] },
  { table: 'invoices', columns: INVOICE_COLUMNS as readonly string[] },
];

for (const { table, columns } of ROWS) {
  test(`${table}: the row schema names exactly the table's columns, in order`, async ({ gateway: gw }) => {
    const rows = await gw.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()
        ORDER BY ordinal_position`, [table]);
    const inDb = rows.map((r) => r.column_name).filter((c) => c !== 'seq');
    expect(inDb.length).toBeGreaterThan(5);
    expect([...columns]).toEqual(inDb);
  });
}

/** Each answer, the row it shows, and the columns that must never leave the gateway. */
const ANSWERS = [
  { name: 'plan', answer: PlanSchema, row: PlanRowSchema, hidden: ['merchant_id', 'env', 'deleted_at'] },
  { name: 'billing', answer: BillingSchema, row: BillingRowSchema, hidden: ['env'] },
  { name: 'subscription', answer: SubscriptionSchema, row: SubscriptionRowSchema, hidden: ['merchant_id', 'env', 'number', 'anchor_date', 'billed_count'] },
  { name: 'scheduled transaction', answer: ScheduledSchema, row: ScheduledRowSchema, hidden: ['merchant_id', 'env', 'billed_at'] },
  { name: 'invoice', answer: InvoiceSchema, row: InvoiceRowSchema, hidden: ['merchant_id', 'env', 'outbox_id', 'delivered_at'] },
];

describe('billing and invoice answers', () => {
  for (const { name, answer, row, hidden } of ANSWERS) {
    it(`a ${name} answers with every shown column and never with the internal ones`, () => {
      const keys = Object.keys(answer.properties);
      for (const c of shownKeys(row)) expect(keys).toContain(c);
      for (const c of hidden) expect(keys).not.toContain(c);
      expect(answer.required).toEqual(keys);
    });
  }
});
