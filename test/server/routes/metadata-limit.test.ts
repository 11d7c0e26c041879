import { TestGateway, describe, expect, test, visa } from '../../fixtures.js';

// One metadata rule (at most 8 KiB as JSON, docs/decisions/http-input.md) on every resource that keeps
// metadata: a charge is refused exactly as a customer is, and records nothing.

const rows = async (gw: TestGateway, table: string) => (await gw.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

const TOO_BIG = { note: 'x'.repeat(8192) };
const JUST_FITS = { note: 'x'.repeat(8192 - JSON.stringify({ note: '' }).length) };
const REFUSAL = { errors: [{ code: 'REQ01', message: 'metadata must be at most 8192 characters as JSON' }] };

describe('metadata over 8 KiB', () => {
  test('a customer is refused with 400 REQ01', async ({ api }) => {
    const res = await api.request('POST', '/customers', { first_name: 'Ada', metadata: TOO_BIG });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: REFUSAL });
  });

  test('a charge by token gets the same answer, as an object or JSON-encoded, and no transaction is recorded', async ({ gateway, api }) => {
    const before = await rows(gateway, 'transactions');
    for (const metadata of [TOO_BIG, JSON.stringify(TOO_BIG)]) {
      const res = await api.request('POST', '/charge', { token: await api.tokenize(visa), amount: 1000, metadata });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: REFUSAL });
    }
    expect(await rows(gateway, 'transactions')).toBe(before);
  });

  test('a charge by customer gets the same answer', async ({ api }) => {
    const customer = (await api.request('POST', '/customers', { token: await api.tokenize(visa) })).body;
    expect(customer.id).toEqual(expect.any(String));
    const res = await api.request('POST', '/charge', { customer_id: customer.id, amount: 1000, metadata: TOO_BIG });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: REFUSAL });
  });

  test('a scheduled transaction and an invoice get the same answer', async ({ gateway, api }) => {
    const customer = (await api.request('POST', '/customers', { token: await api.tokenize(visa), email: 'ada@example.com' })).body;
    const tomorrow = new Date(gateway.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const answers = [
      await api.request('POST', '/scheduled_transactions', { customer_id: customer.id, amount: 100, bill_on: tomorrow, metadata: TOO_BIG }),
      await api.request('POST', '/invoices', { customer_id: customer.id, items: [{ description: 'x', unit_amount: 5 }], metadata: TOO_BIG }),
    ];
    for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: REFUSAL });
  });

  test('metadata of exactly 8192 characters as JSON is charged and kept', async ({ api }) => {
    const res = await api.request('POST', '/charge', { token: await api.tokenize(visa), amount: 1000, metadata: JUST_FITS });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual(JUST_FITS);
  });
});
