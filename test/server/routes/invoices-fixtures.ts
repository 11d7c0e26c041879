// Shared by the invoice suites (invoices.test.ts, invoice-states.test.ts): the request body of a
// typical invoice, and calls bound to a gateway (create, the invoice's outbox rows and events),
// as the file-scoped fixture `s`.
import { TestGateway, expect, test as base } from '../../fixtures.js';
import { calls } from './receipts-fixtures.js';

export const ID = /^[0-9a-f]{16}$/;
export const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export const body = (extra: Record<string, unknown> = {}) => ({
  customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com',
  customer_address_1: '12 St James Square', customer_city: 'London', customer_state: 'ny', customer_zip: '10001',
  customer_company: 'Analytical Engines', customer_phone: '+44 20 7946 0000', customer_fax: '+44 20 7946 0001',
  items: [{ description: 'Consulting', quantity: 3, unit_amount: 12_500 }, { description: 'Travel', unit_amount: 4_999 }],
  due_date: '2026-02-15', memo: 'Thank you for your business.', metadata: { order: 'A-17' },
  ...extra,
});

/** API calls with the gateway merchant's test key, plus the invoice helpers. */
export function invoiceCalls(gw: TestGateway) {
  const api = calls(gw);
  return {
    api,
    /** A created invoice (must answer 200); `extra` goes into the typical body. */
    async create(extra: Record<string, unknown> = {}, key = gw.merchant.test.private_key): Promise<any> {
      const res = await api.post('/invoices', body(extra), key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
    outboxFor: (id: string) =>
      gw.db.query("SELECT * FROM outbox WHERE source = $1 ORDER BY id", [`invoice:${id}`]),
    eventsFor: async (id: string) =>
      (await gw.db.query("SELECT type, data, env, merchant_id FROM events WHERE resource = 'invoice' AND data->>'id' = $1 ORDER BY seq", [id])),
  };
}

export type InvoiceCalls = ReturnType<typeof invoiceCalls>;

/** The gateway and its invoice calls: what the fixture `s` of the invoice suites holds. */
export type InvoiceSuite = InvoiceCalls & { gw: TestGateway };

/** The gateway fixture, plus `s`: this file's gateway (`s.gw`) and its invoice calls. */
export const test = base.extend<{ s: InvoiceSuite }>({
  s: [async ({ gateway }, use) => use({ gw: gateway, ...invoiceCalls(gateway) }), { scope: 'file' }],
});
