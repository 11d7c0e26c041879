// One schema per stored row, for billing and invoices (server/schemas/common.ts, row schemas): each
// row schema names exactly its table's columns on both databases, and each answer shows its shown
// columns and none of the internal ones. The pattern of row-schemas.test.ts.
// (That each row schema names exactly its table's columns is row-schemas.test.ts, for every table.)
import { describe, it } from 'vitest';
import { expect } from '../../fixtures.js';
import { shownKeys } from '../../../server/schemas/common.js';
import { PlanRowSchema, PlanSchema } from '../../../server/schemas/plans.js';
import { BillingRowSchema, BillingSchema } from '../../../server/schemas/billings.js';
import { InvoiceRowSchema, InvoiceSchema } from '../../../server/schemas/invoices.js';
import { ScheduledRowSchema, ScheduledSchema } from '../../../server/schemas/scheduled.js';
import { SubscriptionRowSchema, SubscriptionSchema } from '../../../server/schemas/subscriptions.js';

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
