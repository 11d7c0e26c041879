import type { Db, Queryable } from '../../../server/db/index.js';
import { buildApp } from '../../../server/app.js';
import { apiFor, basic, expect, test, tokenFor, visa } from '../../fixtures.js';

// A test-mode charge without an Idempotency-Key writes in one statement and opens no transaction,
// whatever it charges: a token (consumed in that statement), a stored method, a card (issue 20:
// BEGIN and COMMIT were a third of the QA gateway's statements). With a key it keeps its
// transaction, which remembers the key's resource.

/** A Db that logs each statement, and BEGIN/COMMIT around those run in a transaction. */
function loggingDb(db: Db) {
  const log: string[] = [];
  const wrap = (q: Queryable): Queryable => ({ query: (sql, params) => (log.push(sql), q.query(sql, params)), exec: (sql) => q.exec(sql) });
  const spy: Db = {
    kind: db.kind,
    query: (sql, params) => (log.push(sql), db.query(sql, params)),
    exec: (sql) => db.exec(sql),
    tx: async (fn) => {
      log.push('BEGIN');
      try {
        return await db.tx((q) => fn(wrap(q)));
      } finally {
        log.push('COMMIT');
      }
    },
    close: async () => {},
  };
  return { spy, log };
}

test('a stored method, a card and a token: no transaction, one writing statement; with an Idempotency-Key, a transaction', async ({ gateway }) => {
  const { spy, log } = loggingDb(gateway.db);
  const app = await buildApp({ db: spy, vault: gateway.vault, clock: gateway.clock });
  const charge = async (payload: object, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/charge', headers: { ...basic(gateway.merchant.test.private_key), ...headers }, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  try {
    const customer = (await app.inject({
      method: 'POST', url: '/api/v1/customers', headers: basic(gateway.merchant.test.private_key),
      payload: { token: await tokenFor(gateway, visa), first_name: 'Ada' },
    })).json();
    const card = { card_number: visa.card_number, card_exp_month: visa.card_exp_month, card_exp_year: visa.card_exp_year, csc: visa.csc };
    for (const payload of [{ customer_id: customer.id, amount: 900 }, { ...card, amount: 901 }, { token: await tokenFor(gateway, visa), amount: 902 }]) {
      log.length = 0;
      const txn = await charge(payload);
      expect(log, JSON.stringify(payload)).not.toContain('BEGIN');
      expect(log.filter((s) => /^\s*(WITH|INSERT|UPDATE|DELETE)/.test(s))).toHaveLength(1);
      // Two statements of the charge's own (the key lookup is the auth's): the merchant's settings
      // come with the first read (charge-read.ts), then the one writing statement.
      const own = log.filter((s) => !/FROM api_keys/.test(s));
      expect(own, JSON.stringify(payload)).toHaveLength(2);
      expect(own[0]).toMatch(/merchant_settings/);
      // The row was written without being read back: reading it back answers exactly what the charge did.
      const again = await app.inject({ method: 'GET', url: `/api/v1/charge/${txn.id}`, headers: basic(gateway.merchant.test.private_key) });
      expect(again.json()).toEqual(txn);
      const [row] = await gateway.db.query('SELECT amount_settled FROM transactions WHERE id = $1', [txn.id]);
      expect(row).toEqual({ amount_settled: (payload as { amount: number }).amount });
      expect(await gateway.db.query(`SELECT type FROM events WHERE data->>'id' = $1`, [txn.id])).toEqual([{ type: 'transaction.created' }]);
    }
    log.length = 0;
    await charge({ customer_id: customer.id, amount: 903 }, { 'idempotency-key': `at-once-${Date.now()}` });
    expect(log).toContain('BEGIN');
  } finally {
    await app.close();
  }
});

test('what the first read brings applies: no saved settings are the defaults, saved ones (default receipts, CVV check) count', async ({ gateway, expectError }) => {
  const m = await gateway.newMerchant();
  const api = apiFor(gateway, m.test);
  const customer = (await api.request('POST', '/customers', { token: await api.tokenize(visa), first_name: 'Ada' })).body;
  const first = await api.request('POST', '/charge', { customer_id: customer.id, amount: 2500 });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect((await api.request('POST', '/charge', { token: await api.tokenize(visa), amount: 2500 })).status).toBe(200);
  expect((await api.request('POST', '/settings', { default_receipts: true, cvv_check: true })).status).toBe(200);
  // A receipt is now due by default and neither charge has an address: 69005, by customer and by token.
  expectError(await api.request('POST', '/charge', { customer_id: ` ${customer.id} `, amount: 2500 }), 400, '69005');
  expectError(await api.request('POST', '/charge', { token: await api.tokenize(visa), amount: 2500 }), 400, '69005');
  // cvv_check: a token without a code is declined.
  const { csc: _, ...noCsc } = visa;
  expectError(await api.request('POST', '/charge', { token: await api.tokenize(noCsc), amount: 2500, email_address: 'a@example.com' }), 402, 'CPCVV2');
  // An unknown token and customer still answer as before.
  expectError(await api.request('POST', '/charge', { token: 'nope', amount: 2500, email_address: 'a@example.com' }), 400, '69201');
  expectError(await api.request('POST', '/charge', { customer_id: 'nope', amount: 2500 }), 400, '34798');
});
