// Row schemas of the events area, receipts, templates and settings (server/schemas/common.ts, row
// schemas): each names exactly its table's columns, on PGlite and PostgreSQL (the pattern of
// row-schemas.test.ts), and its answer shows the shown columns and never the internal ones.
// (That each row schema names exactly its table's columns is row-schemas.test.ts, for every table.)
import { describe, it } from 'vitest';
import { expect } from '../../fixtures.js';
import { shownKeys } from '../../../server/schemas/common.js';
import { storedOf } from '../../../server/schemas/fields.js';
import {
  DeliveryRowSchema, DeliverySchema, EventRowSchema, EventSchema,
  RelationRowSchema, RelationSchema, RuleRowSchema, RuleSchema, StrategyRowSchema, StrategySchema,
} from '../../../server/schemas/webhooks.js';
import { ReceiptRowSchema, ReceiptSchema, TemplateFields, TemplateRowSchema, TemplateSchema } from '../../../server/schemas/receipts.js';
import { SettingsFields, SettingsRowSchema, SettingsSchema, defaultSettings } from '../../../server/schemas/settings.js';
import { OutboxRowSchema, OutboxSchema } from '../../../server/schemas/outbox.js';

describe('answers', () => {
  const cases = [
    { name: 'event', row: EventRowSchema, answer: EventSchema, hidden: ['merchant_id', 'env'] },
    { name: 'rule', row: RuleRowSchema, answer: RuleSchema, hidden: ['merchant_id', 'env'] },
    { name: 'strategy', row: StrategyRowSchema, answer: StrategySchema, hidden: ['merchant_id', 'env'] },
    { name: 'relation', row: RelationRowSchema, answer: RelationSchema, hidden: ['merchant_id', 'env'] },
    { name: 'delivery', row: DeliveryRowSchema, answer: DeliverySchema, hidden: ['merchant_id', 'env', 'callback_id'] },
    { name: 'outbox message', row: OutboxRowSchema, answer: OutboxSchema, hidden: ['merchant_id', 'env', 'payload'] },
    { name: 'receipt', row: ReceiptRowSchema, answer: ReceiptSchema, hidden: ['env', 'outbox_id'] },
    { name: 'template', row: TemplateRowSchema, answer: TemplateSchema, hidden: ['env'] },
    { name: 'settings', row: SettingsRowSchema, answer: SettingsSchema, hidden: ['merchant_id'] },
  ];
  for (const { name, row, answer, hidden } of cases) {
    it(`a ${name} answers with every shown column and never with the internal ones`, () => {
      const fields = Object.keys(answer.properties);
      for (const c of shownKeys(row)) expect(fields).toContain(c);
      for (const c of hidden) expect(fields).not.toContain(c);
      expect(answer.required).toEqual(fields);
    });
  }

  it('a template request and the settings switches are written as read into their columns', () => {
    expect(storedOf(TemplateFields, TemplateFields.read({ receipt_text: 'Hi {{first_name}}', name: ' Default ', other: 'x' })))
      .toEqual({ receipt_text: 'Hi {{first_name}}', name: 'Default', subject: undefined });
    expect(storedOf(SettingsFields, SettingsFields.read({ cvv_check: '1', default_receipt_template_id: '3', allowed_origins: [] })))
      .toEqual({ cvv_check: true, zip_check: undefined, default_receipts: undefined });
  });

  it('a merchant that saved no settings has each column\'s default, a fresh copy each time', () => {
    expect(defaultSettings()).toEqual({ cvv_check: false, zip_check: false, default_receipts: false, default_receipt_template_id: null, allowed_origins: [] });
    expect(defaultSettings().allowed_origins).not.toBe(defaultSettings().allowed_origins);
  });
});
