import type { Db, Queryable } from '../../../server/db/index.js';
import { buildApp } from '../../../server/app.js';
import { basic, expect, test, tokenFor, visa } from '../../fixtures.js';

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
