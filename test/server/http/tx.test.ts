import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestGateway, basic, startGateway, tokenFor } from '../../helpers/gateway.js';

// req.tx (server/http/tx.ts): the route's transaction, and the record it created remembered with
// the Idempotency-Key in that same transaction (what crash recovery answers from, migration 016).
// The creations whose replay idempotency-recovery.test.ts exercises are not repeated here.

let gw: TestGateway;
beforeAll(async () => { gw = await startGateway(); });
afterAll(() => gw.close());

let n = 0;
const newKey = () => `tx-${++n}`;
const post = (url: string, payload: Record<string, unknown> = {}, key = newKey()) => gw.app.inject({
  method: 'POST', url: `/api/v1${url}`, payload, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key },
});
const keyRow = async (key: string) =>
  (await gw.db.query('SELECT resource_id, status_code FROM idempotency_keys WHERE key = $1', [key]))[0];
const ok = async (url: string, payload: Record<string, unknown> = {}) => {
  const res = await post(url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const customer = async (email: string | null = 'ada@example.com') =>
  ok('/customers', { token: await tokenFor(gw), first_name: 'Ada', ...(email ? { email } : {}) });
const count = async (table: string) =>
  (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE merchant_id = $1`, [gw.merchant.id]))[0].n;

type Case = [string, () => Promise<{ url: string; payload?: Record<string, unknown> }>, (answer: any) => string];
const cases: Case[] = [
  ['a refund: its transaction', async () => {
    const t = await ok('/charge', { token: await tokenFor(gw), amount: 700 });
    return { url: `/charge/${t.id}/cancel` };
  }, (a) => a.id],
  ['a receipt: the receipt', async () => {
    const t = await ok('/charge', { token: await tokenFor(gw), amount: 800 });
    return { url: `/charge/${t.id}/receipt`, payload: { email_address: 'r@example.com' } };
  }, (a) => String(a.id)],
  ['a scheduled transaction: the schedule', async () => {
    const c = await customer();
    return { url: '/scheduled_transactions', payload: { customer_id: c.id, amount: 1500, bill_on: '2026-02-01' } };
  }, (a) => a.id],
  ['a subscription: its number', async () => {
    const p = await ok('/plans', { name: 'Tx', frequency: 'monthly', amount: 900 });
    const c = await customer();
    return { url: `/plans/${p.id}/subscription/${c.id}` };
  }, (a) => String(a.id)],
  ['an invoice delivered: the invoice', async () => {
    const inv = await ok('/invoices', { customer_first_name: 'Ada', customer_last_name: 'L', customer_email: 'ada@example.com', amount: 1200 });
    return { url: `/invoices/${inv.id}/deliver` };
  }, (a) => a.id],
  ['an invoice marked paid: the payment it made', async () => {
    const inv = await ok('/invoices', { customer_first_name: 'Ada', customer_last_name: 'L', amount: 1200 });
    await ok(`/invoices/${inv.id}/mark_as_paid`, { amount: 200 });
    return { url: `/invoices/${inv.id}/mark_as_paid`, payload: { amount: 300 } };
  }, (a) => a.payments[1].id],
  ['an account-updater batch: the batch', async () => {
    const c = await customer();
    return { url: '/tokens/update', payload: { payment_methods: [{ payment_id: c.default_method_id, card_exp_month: 9, card_exp_year: 2031 }] } };
  }, (a) => a.id],
];

describe('req.tx with a resource', () => {
  test.each(cases)('%s is remembered with the key', async (_name, setUp, idOf) => {
    const { url, payload } = await setUp();
    const key = newKey();
    const res = await post(url, payload, key);
    expect(res.statusCode, res.body).toBe(200);
    const id = idOf(res.json());
    expect(id).toMatch(/^\w+$/);
    expect(await keyRow(key)).toMatchObject({ status_code: 200, resource_id: id });
  });

  test('a command that fails after writing rolls all of it back and remembers nothing', async () => {
    // A token is stored as a new customer first; without any email address the receipt asked for is 69005.
    const token = await tokenFor(gw);
    const customers = await count('customers');
    const key = newKey();
    const res = await post('/scheduled_transactions', { token, amount: 1500, bill_on: '2026-02-01', send_receipt: true }, key);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].code).toBe('69005');
    expect(await count('customers')).toBe(customers);
    expect(await keyRow(key)).toMatchObject({ status_code: 400, resource_id: null });
    // The token was not consumed: the rollback left it usable.
    expect((await post('/charge', { token, amount: 2100 })).statusCode).toBe(200);
  });
});
