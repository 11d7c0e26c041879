import { TestGateway, basic, describe, expect, test, tokenFor } from '../../fixtures.js';

// req.tx (server/http/tx.ts): the route's transaction, and the record it created remembered with
// the Idempotency-Key in that same transaction (what crash recovery answers from, migration 016).
// The creations whose replay idempotency-recovery.test.ts exercises are not repeated here.


let n = 0;
const newKey = () => `tx-${++n}`;
const post = (gw: TestGateway, url: string, payload: Record<string, unknown> = {}, key = newKey()) => gw.app.inject({
  method: 'POST', url: `/api/v1${url}`, payload, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key },
});
const keyRow = async (gw: TestGateway, key: string) =>
  (await gw.db.query('SELECT resource_id, status_code FROM idempotency_keys WHERE key = $1', [key]))[0];
const ok = async (gw: TestGateway, url: string, payload: Record<string, unknown> = {}) => {
  const res = await post(gw, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const customer = async (gw: TestGateway, email: string | null = 'ada@example.com') =>
  ok(gw, '/customers', { token: await tokenFor(gw), first_name: 'Ada', ...(email ? { email } : {}) });
const count = async (gw: TestGateway, table: string) =>
  (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE merchant_id = $1`, [gw.merchant.id]))[0].n;

type Case = [string, (gw: TestGateway) => Promise<{ url: string; payload?: Record<string, unknown> }>, (answer: any) => string];
const cases: Case[] = [
  ['a refund: its transaction', async (gw: TestGateway) => {
    const t = await ok(gw, '/charge', { token: await tokenFor(gw), amount: 700 });
    return { url: `/charge/${t.id}/cancel` };
  }, (a) => a.id],
  ['a receipt: the receipt', async (gw: TestGateway) => {
    const t = await ok(gw, '/charge', { token: await tokenFor(gw), amount: 800 });
    return { url: `/charge/${t.id}/receipt`, payload: { email_address: 'r@example.com' } };
  }, (a) => String(a.id)],
  ['a scheduled transaction: the schedule', async (gw: TestGateway) => {
    const c = await customer(gw);
    return { url: '/scheduled_transactions', payload: { customer_id: c.id, amount: 1500, bill_on: '2026-02-01' } };
  }, (a) => a.id],
  ['a subscription: its number', async (gw: TestGateway) => {
    const p = await ok(gw, '/plans', { name: 'Tx', frequency: 'monthly', amount: 900 });
    const c = await customer(gw);
    return { url: `/plans/${p.id}/subscription/${c.id}` };
  }, (a) => String(a.id)],
  ['an invoice delivered: the invoice', async (gw: TestGateway) => {
    const inv = await ok(gw, '/invoices', { customer_first_name: 'Ada', customer_last_name: 'L', customer_email: 'ada@example.com', amount: 1200 });
    return { url: `/invoices/${inv.id}/deliver` };
  }, (a) => a.id],
  ['an invoice marked paid: the payment it made', async (gw: TestGateway) => {
    const inv = await ok(gw, '/invoices', { customer_first_name: 'Ada', customer_last_name: 'L', amount: 1200 });
    await ok(gw, `/invoices/${inv.id}/mark_as_paid`, { amount: 200 });
    return { url: `/invoices/${inv.id}/mark_as_paid`, payload: { amount: 300 } };
  }, (a) => a.payments[1].id],
  ['an account-updater batch: the batch', async (gw: TestGateway) => {
    const c = await customer(gw);
    return { url: '/tokens/update', payload: { payment_methods: [{ payment_id: c.default_method_id, card_exp_month: 9, card_exp_year: 2031 }] } };
  }, (a) => a.id],
];

describe('req.tx with a resource', () => {
  test.for(cases)('%s is remembered with the key', async ([_name, setUp, idOf], { gateway: gw }) => {
    const { url, payload } = await setUp(gw);
    const key = newKey();
    const res = await post(gw, url, payload, key);
    expect(res.statusCode, res.body).toBe(200);
    const id = idOf(res.json());
    expect(id).toMatch(/^\w+$/);
    expect(await keyRow(gw, key)).toMatchObject({ status_code: 200, resource_id: id });
  });

  test('a command that fails after writing rolls all of it back and remembers nothing', async ({ gateway: gw }) => {
    // A token is stored as a new customer first; without any email address the receipt asked for is 69005.
    const token = await tokenFor(gw);
    const customers = await count(gw, 'customers');
    const key = newKey();
    const res = await post(gw, '/scheduled_transactions', { token, amount: 1500, bill_on: '2026-02-01', send_receipt: true }, key);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].code).toBe('69005');
    expect(await count(gw, 'customers')).toBe(customers);
    expect(await keyRow(gw, key)).toMatchObject({ status_code: 400, resource_id: null });
    // The token was not consumed: the rollback left it usable.
    expect((await post(gw, '/charge', { token, amount: 2100 })).statusCode).toBe(200);
  });
});
