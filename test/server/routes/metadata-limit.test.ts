import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestGateway, basic, startGateway, tokenFor } from '../../helpers/gateway.js';

// One metadata rule (at most 8 KiB as JSON, docs/decisions.md) on every resource that keeps
// metadata: a charge is refused exactly as a customer is, and records nothing.

let gw: TestGateway;
beforeAll(async () => { gw = await startGateway(); });
afterAll(() => gw.close());

const post = (url: string, payload: Record<string, unknown>) =>
  gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(gw.merchant.test.private_key), payload });
const rows = async (table: string) => (await gw.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

const TOO_BIG = { note: 'x'.repeat(8192) };
const JUST_FITS = { note: 'x'.repeat(8192 - JSON.stringify({ note: '' }).length) };
const REFUSAL = { errors: [{ code: 'REQ01', message: 'metadata must be at most 8192 characters as JSON' }] };

describe('metadata over 8 KiB', () => {
  test('a customer is refused with 400 REQ01', async () => {
    const res = await post('/customers', { first_name: 'Ada', metadata: TOO_BIG });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: REFUSAL });
  });

  test('a charge by token gets the same answer, as an object or JSON-encoded, and no transaction is recorded', async () => {
    const before = await rows('transactions');
    for (const metadata of [TOO_BIG, JSON.stringify(TOO_BIG)]) {
      const res = await post('/charge', { token: await tokenFor(gw), amount: 1000, metadata });
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: REFUSAL });
    }
    expect(await rows('transactions')).toBe(before);
  });

  test('a charge by customer gets the same answer', async () => {
    const customer = (await post('/customers', { token: await tokenFor(gw) })).json();
    expect(customer.id).toEqual(expect.any(String));
    const res = await post('/charge', { customer_id: customer.id, amount: 1000, metadata: TOO_BIG });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: REFUSAL });
  });

  test('a scheduled transaction and an invoice get the same answer', async () => {
    const customer = (await post('/customers', { token: await tokenFor(gw), email: 'ada@example.com' })).json();
    const tomorrow = new Date(gw.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const answers = [
      await post('/scheduled_transactions', { customer_id: customer.id, amount: 100, bill_on: tomorrow, metadata: TOO_BIG }),
      await post('/invoices', { customer_id: customer.id, items: [{ description: 'x', unit_amount: 5 }], metadata: TOO_BIG }),
    ];
    for (const res of answers) expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: REFUSAL });
  });

  test('metadata of exactly 8192 characters as JSON is charged and kept', async () => {
    const res = await post('/charge', { token: await tokenFor(gw), amount: 1000, metadata: JUST_FITS });
    expect(res.statusCode).toBe(200);
    expect(res.json().metadata).toEqual(JUST_FITS);
  });
});
