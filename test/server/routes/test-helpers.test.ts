import { planReset } from '../../../server/domain/merchant/reset.js';
import { Merchant, TestGateway, bank, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

// POST /api/v1/test_helpers/reset: a merchant's test environment back to a fresh start, for suites
// that share one gateway. Keys stay; live data and other merchants are never touched.


const call = (gw: TestGateway, method: 'GET' | 'POST', url: string, key: string, payload?: object, headers: Record<string, string> = {}) =>
  gw.app.inject({ method, url: `/api/v1${url}`, headers: { ...basic(key), ...headers }, payload });

const reset = (gw: TestGateway, key: string) => call(gw, 'POST', '/test_helpers/reset', key);

/** Rows of every merchant-scoped table for one merchant and env, by table (the plan's tables). */
async function census(gw: TestGateway, merchantId: string, env: 'test' | 'live'): Promise<Record<string, number>> {
  const plan = await planReset(gw.db);
  const out: Record<string, number> = {};
  for (const { table, envColumn } of plan.wipe) {
    if (!envColumn && env === 'live') continue;
    const [{ n }] = await gw.db.query(
      `SELECT count(*)::int AS n FROM "${table}" WHERE merchant_id = $1${envColumn ? ' AND env = $2' : ''}`,
      envColumn ? [merchantId, env] : [merchantId],
    );
    out[table] = n;
  }
  return out;
}

const nonZero = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([, n]) => n > 0));

/** Leaves records in as many tables as the API can reach for one merchant environment. */
async function populate(gw: TestGateway, m: Merchant, env: 'test' | 'live'): Promise<void> {
  const sk = m[env].private_key;
  const pk = m[env].public_key;
  const ok = async (p: Promise<{ statusCode: number; body: string }>, status = 200) => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return JSON.parse(res.body);
  };
  await tokenFor(gw, visa, pk); // an unused token
  if (env === 'test') {
    const paid = await ok(call(gw, 'POST', '/charge', sk, { token: await tokenFor(gw, visa, pk), amount: 1999, send_receipt: true, email_address: 'ada@example.com' }));
    await ok(call(gw, 'POST', `/charge/${paid.id}/cancel`, sk, { amount: 500 }));
    await ok(call(gw, 'POST', '/charge', sk, { token: await tokenFor(gw, visa, pk), amount: 80 }), 402); // recorded decline
    await ok(call(gw, 'POST', '/charge', sk, { token: await tokenFor(gw, bank, pk), amount: 12 })); // RETURNED
    await ok(call(gw, 'POST', '/charge', sk, { token: await tokenFor(gw, visa, pk), amount: 700 }, { 'idempotency-key': `k-${m.id}` }));
    await ok(call(gw, 'POST', `/charge/${paid.id}/receipt`, sk, { email_address: 'grace@example.com' }));
  }
  const customer = await ok(call(gw, 'POST', '/customers', sk, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }));
  const customerId = customer.id ?? customer.customer?.id;
  await ok(call(gw, 'POST', `/customers/${customerId}/methods`, sk, { token: await tokenFor(gw, visa, pk) }));
  await ok(call(gw, 'POST', '/receipts/templates', sk, { subject: 'Paid', receipt_text: 'Thanks [CardOwnerName]' }));
  await ok(call(gw, 'POST', '/settings', sk, { cvv_check: true, zip_check: true }));
}

describe('POST /api/v1/test_helpers/reset', () => {
  test('wipes every test record of the merchant, keeps its keys, restores default settings', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const other = await gw.newMerchant();
    await populate(gw, m, 'test');
    await populate(gw, m, 'live');
    await populate(gw, other, 'test');
    const before = nonZero(await census(gw, m.id, 'test'));
    // The API reached every kind of record a QA flow makes.
    for (const t of ['tokens', 'transactions', 'refunds', 'idempotency_keys', 'customers', 'payment_methods', 'receipts', 'outbox', 'receipt_templates']) {
      expect(before[t] ?? 0, t).toBeGreaterThan(0);
    }
    const liveBefore = await census(gw, m.id, 'live');
    const otherBefore = await census(gw, other.id, 'test');

    const res = await reset(gw, m.test.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ class: 'test_reset', env: 'test', merchant_id: m.id, settings: 'default' });
    expect(nonZero(body.deleted)).toEqual(before);

    expect(nonZero(await census(gw, m.id, 'test'))).toEqual({});
    expect(await census(gw, m.id, 'live')).toEqual(liveBefore);
    expect(await census(gw, other.id, 'test')).toEqual(otherBefore);

    // Seen through the API: empty lists, the same keys work, settings are the defaults.
    const sk = m.test.private_key;
    expect((await call(gw, 'GET', '/transactions', sk)).json().meta.total_results).toBe(0);
    expect((await call(gw, 'GET', '/customers', sk)).json().meta?.total_results ?? 0).toBe(0);
    expect((await call(gw, 'GET', '/outbox', sk)).json().meta.total_results).toBe(0);
    expect((await call(gw, 'GET', '/settings', sk)).json()).toMatchObject({ cvv_check: false, zip_check: false });
    expect((await call(gw, 'GET', '/settings', m.live.private_key)).json()).toMatchObject({ cvv_check: true, zip_check: true });
    const again = await call(gw, 'POST', '/charge', sk, { token: await tokenFor(gw, visa, m.test.public_key), amount: 100_00 });
    expect(again.statusCode, again.body).toBe(200);
  });

  test('an Idempotency-Key used before the reset can be used again after it', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const pay = async () =>
      call(gw, 'POST', '/charge', m.test.private_key, { token: await tokenFor(gw, visa, m.test.public_key), amount: 500 }, { 'idempotency-key': 'order-1' });
    expect((await pay()).statusCode).toBe(200);
    expect((await pay()).json().errors[0].code).toBe('IDEM02'); // another token: another body
    await reset(gw, m.test.private_key);
    const after = await pay();
    expect(after.statusCode, after.body).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
  });

  test('the test clock goes back to real time', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const sk = m.test.private_key;
    const advanced = await call(gw, 'POST', '/test_helpers/clock/advance', sk, { to: '2031-01-01T00:00:00Z' });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect((await call(gw, 'GET', '/test_helpers/clock', sk)).json().offset_ms).toBeGreaterThan(0);
    const res = await reset(gw, sk);
    expect(res.json().deleted.test_clocks).toBe(1);
    expect((await call(gw, 'GET', '/test_helpers/clock', sk)).json().offset_ms).toBe(0);
  });

  test('a second reset, on an empty environment, deletes nothing and succeeds', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    await reset(gw, m.test.private_key);
    const res = await reset(gw, m.test.private_key);
    expect(res.statusCode).toBe(200);
    expect(nonZero(res.json().deleted)).toEqual({});
  });

  test('a live private key is refused with TEST02 (403) and nothing is deleted', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    await populate(gw, m, 'live');
    const before = await census(gw, m.id, 'live');
    const res = await reset(gw, m.live.private_key);
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0].code).toBe('TEST02');
    expect(res.json().errors[0].message).toMatch(/test private key/);
    expect(await census(gw, m.id, 'live')).toEqual(before);
  });

  test('a public key is AUTH02 (403); no key or an unknown key is AUTH01 (401)', async ({ gateway: gw }) => {
    expect((await reset(gw, gw.merchant.test.public_key)).json().errors[0].code).toBe('AUTH02');
    expect((await reset(gw, gw.merchant.live.public_key)).statusCode).toBe(403);
    const none = await gw.app.inject({ method: 'POST', url: '/api/v1/test_helpers/reset' });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors[0].code).toBe('AUTH01');
    expect((await reset(gw, `test_sk_${'0'.repeat(55)}`)).statusCode).toBe(401);
  });

  test('the reset answers only the allow-listed fields', async ({ gateway: gw }) => {
    const res = await reset(gw, gw.merchant.test.private_key);
    expect(Object.keys(res.json()).sort()).toEqual(['class', 'deleted', 'env', 'merchant_id', 'settings']);
  });
});
