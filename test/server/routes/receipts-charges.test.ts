import { simulator } from '../../../server/processor/processor.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { Db, Queryable } from '../../../server/db/index.js';
import { readChargeInput } from '../../../server/domain/payments/charge-input.js';
import { ChargeFields } from '../../../server/schemas/transactions.js';
import { createCharge } from '../../../server/domain/payments/charges.js';
import { SWEEP_GRACE_MS, sendDueReceipt } from '../../../server/domain/documents/receipts.js';
import { sweepDueReceipts } from '../../../server/jobs/sweeps.js';
import { OutboxWorker } from '../../../server/notify/outbox.js';
import { calls } from './receipts-fixtures.js';
import { DB_KIND } from '../../helpers/gateway.js';
import { Merchant, TestGateway, basic, describe, expect, expectError, test as base, tokenFor, visa } from '../../fixtures.js';

// Receipts a charge asks for (send_receipt, customer and merchant defaults): made by the same code
// as POST /charge/:id/receipt, after the charge has committed, exactly once.

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
type Calls = ReturnType<typeof calls>;
const test = base.extend<{ calls: Calls }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });

const receiptsOf = (gw: TestGateway, txnId: string) =>
  gw.db.query('SELECT * FROM receipts WHERE transaction_id = $1 ORDER BY id', [txnId]);
const outboxOf = (gw: TestGateway, receiptId: number) =>
  gw.db.query('SELECT * FROM outbox WHERE source = $1', [`receipt:${receiptId}`]);

describe('send_receipt on a charge', () => {
  test('the receipt is recorded and queued; the transaction names it', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge({ send_receipt: true, email_address: 'ada@example.com', description: 'Tea' });
    expect(t.receipt).toEqual({ due: true, email_address: 'ada@example.com', receipt_template_id: null, receipt_id: expect.any(Number) });
    const [r] = await receiptsOf(gw, t.id);
    expect(r).toMatchObject({ id: t.receipt.receipt_id, receipt_type: 'email', email_address: 'ada@example.com', merchant_id: gw.merchant.id, env: 'test' });
    const [msg] = await outboxOf(gw, r.id);
    expect(msg).toMatchObject({ kind: 'email', status: 'pending', attempts: 0, merchant_id: gw.merchant.id, env: 'test' });
    expect(msg.payload).toMatchObject({ to: 'ada@example.com', subject: 'Your receipt from Test merchant', from_name: 'Test merchant' });
    expect((await api.get(`/charge/${t.id}`)).body.receipt).toEqual(t.receipt);
    expect((await api.get(`/receipts/${r.id}`)).body).toMatchObject({ transaction_id: t.id, email_address: 'ada@example.com' });
  });

  test('no receipt without send_receipt, with send_receipt false, or for a declined charge', async ({ gateway: gw, calls: api }) => {
    const plain = await api.charge({ email_address: 'ada@example.com' });
    const off = await api.charge({ send_receipt: 'false', email_address: 'ada@example.com' });
    for (const t of [plain, off]) {
      expect(t.receipt).toMatchObject({ due: false, receipt_id: null });
      expect(await receiptsOf(gw, t.id)).toEqual([]);
    }
    const token = await tokenFor(gw);
    const declined = await gw.app.inject({
      method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key),
      payload: { token, amount: 90, send_receipt: true, email_address: 'ada@example.com' },
    });
    expect(declined.statusCode).toBe(402);
    expect(await receiptsOf(gw, declined.json().errors[0].transaction_id)).toEqual([]);
  });

  test('receipt_template_id on the charge is used; an unknown one is 10300 before anything is charged', async ({ gateway: gw, calls: api }) => {
    const tpl = (await api.post('/receipts/templates', { subject: 'Paid [Amount]', receipt_text: 'Thanks [CardOwnerName]' })).body;
    const t = await api.charge({ send_receipt: true, email_address: 'a@example.com', receipt_template_id: tpl.id });
    expect(t.receipt).toMatchObject({ receipt_template_id: String(tpl.id) });
    expect((await receiptsOf(gw, t.id))[0]).toMatchObject({ subject: 'Paid $12.34', receipt_text: 'Thanks Ada Lovelace', receipt_template_id: String(tpl.id) });

    const token = await tokenFor(gw);
    const before = (await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n;
    const res = await gw.app.inject({
      method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key),
      payload: { token, amount: 500, send_receipt: true, email_address: 'a@example.com', receipt_template_id: '424242' },
    });
    expectError(res, 404, '10300');
    expect((await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n).toBe(before);
    // The token was not consumed: the corrected request goes through.
    const ok = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key), payload: { token, amount: 500 } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('defaults: customer, then merchant', () => {
  async function setup(gw: TestGateway, api: Calls) {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const tpl = async (text: string) => (await api.post('/receipts/templates', { receipt_text: text }, k)).body.id as number;
    return { m, k, tpl };
  }
  const customer = async (gw: TestGateway, api: Calls, m: Merchant, body: Record<string, unknown>) => {
    const token = await tokenFor(gw, visa, m.test.public_key);
    const res = await api.post('/customers', { token, first_name: 'Grace', last_name: 'Hopper', ...body }, m.test.private_key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  test('merchant default_receipts sends a receipt when the charge does not say; send_receipt false still wins', async ({ gateway: gw, calls: api }) => {
    const { m, k, tpl } = await setup(gw, api);
    const merchantTpl = await tpl('merchant template');
    await api.post('/settings', { default_receipts: true, default_receipt_template_id: merchantTpl }, k);
    const t = await api.charge({ email_address: 'm@example.com' }, visa, m.test);
    expect(t.receipt).toMatchObject({ due: true, receipt_template_id: String(merchantTpl), receipt_id: expect.any(Number) });
    expect((await receiptsOf(gw, t.id))[0]).toMatchObject({ receipt_text: 'merchant template' });
    const off = await api.charge({ email_address: 'm@example.com', send_receipt: false }, visa, m.test);
    expect(off.receipt).toMatchObject({ due: false, receipt_id: null });
    // Due by default and no address: the charge's own rule, 69005.
    const token = await tokenFor(gw, visa, m.test.public_key);
    expectError(await api.post('/charge', { token, amount: 100 }, k), 400, '69005');
    // The live environment keeps its own (off) default.
    expect((await api.get('/settings', m.live.private_key)).body).toMatchObject({ default_receipts: false });
  });

  test('a customer\'s default_receipts and template come before the merchant\'s template', async ({ calls: api, gateway: gw }) => {
    const { m, k, tpl } = await setup(gw, api);
    const merchantTpl = await tpl('merchant template');
    const customerTpl = await tpl('customer template for [CustomerFullName]');
    await api.post('/settings', { default_receipt_template_id: merchantTpl }, k);
    const c = await customer(gw, api, m, { email: 'grace@example.com', default_receipts: true, default_receipt_template_id: String(customerTpl) });
    const t = (await api.post('/charge', { customer_id: c.id, amount: 700 }, k)).body;
    expect(t.receipt).toMatchObject({ due: true, email_address: 'grace@example.com', receipt_template_id: String(customerTpl) });
    expect((await receiptsOf(gw, t.id))[0]).toMatchObject({ email_address: 'grace@example.com', receipt_text: 'customer template for Grace Hopper' });

    // A customer without a template of its own gets the merchant's; a deleted one falls through too.
    const plain = await customer(gw, api, m, { email: 'plain@example.com', default_receipts: true });
    const t2 = (await api.post('/charge', { customer_id: plain.id, amount: 700 }, k)).body;
    expect((await receiptsOf(gw, t2.id))[0]).toMatchObject({ receipt_text: 'merchant template', receipt_template_id: String(merchantTpl) });
    await api.del(`/receipts/templates/${customerTpl}`, k);
    const t3 = (await api.post('/charge', { customer_id: c.id, amount: 700 }, k)).body;
    expect((await receiptsOf(gw, t3.id))[0]).toMatchObject({ receipt_text: 'merchant template' });
    // The charge's own template beats every default.
    const chargeTpl = await tpl('charge template');
    const t4 = (await api.post('/charge', { customer_id: c.id, amount: 700, receipt_template_id: chargeTpl }, k)).body;
    expect((await receiptsOf(gw, t4.id))[0]).toMatchObject({ receipt_text: 'charge template' });
  });
});

/** A Db that records the statements of each transaction, to see where the receipt is written. */
function recordingDb(db: Db, failOn?: RegExp) {
  const txs: string[][] = [];
  const wrap = (q: Queryable, log: string[]): Queryable => ({
    query: (sql, params) => {
      log.push(sql);
      if (failOn?.test(sql)) return Promise.reject(new Error('injected failure'));
      return q.query(sql, params);
    },
    exec: (sql) => q.exec(sql),
  });
  const spy: Db = {
    kind: db.kind,
    // A statement outside a transaction is its own unit of work (a test-mode charge by token
    // records itself in one statement, without BEGIN/COMMIT).
    query: (sql, params) => {
      const log: string[] = [];
      txs.push(log);
      return wrap(db, log).query(sql, params);
    },
    exec: (sql) => db.exec(sql),
    tx: (fn) => db.tx((q) => {
      const log: string[] = [];
      txs.push(log);
      return fn(wrap(q, log));
    }),
    close: async () => {},
  };
  return { spy, txs };
}

describe('after the commit, never inside the money transaction', () => {
  let app: FastifyInstance | null = null;
  test.afterAll(async () => { await app?.close(); });

  test('the transaction that records the charge writes no receipt; a later one does', async ({ gateway: gw }) => {
    const { spy, txs } = recordingDb(gw.db);
    app = await buildApp({ db: spy, vault: gw.vault, clock: gw.clock });
    const token = await tokenFor(gw);
    const res = await app.inject({
      method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key),
      payload: { token, amount: 1000, send_receipt: true, email_address: 'spy@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const money = txs.findIndex((t) => t.some((s) => /INSERT INTO transactions/.test(s)));
    const receipt = txs.findIndex((t) => t.some((s) => /INSERT INTO receipts/.test(s)));
    expect(money).toBeGreaterThanOrEqual(0);
    expect(receipt).toBeGreaterThan(money);
    expect(txs[money].some((s) => /receipts|outbox/.test(s))).toBe(false);
    expect(txs[receipt].some((s) => /INSERT INTO outbox/.test(s))).toBe(true);
    await app.close();
    app = null;
  });

  test('when making the receipt fails the charge still succeeds, and the sweep makes the receipt later', async ({ gateway: gw, calls: api }) => {
    const { spy } = recordingDb(gw.db, /INSERT INTO receipts/);
    app = await buildApp({ db: spy, vault: gw.vault, clock: gw.clock });
    const token = await tokenFor(gw);
    const res = await app.inject({
      method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key),
      payload: { token, amount: 1000, send_receipt: true, email_address: 'sweep@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ status: 'SETTLED', receipt: { due: true, receipt_id: null } });
    expect(await receiptsOf(gw, t.id)).toEqual([]);

    // Within the grace period the sweep leaves it to the request; after it, the sweep makes it, once.
    expect(await sweepDueReceipts(gw.db, gw.clock.now())).toBe(0);
    gw.clock.advance(SWEEP_GRACE_MS);
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: {}, tasks: [(now) => sweepDueReceipts(gw.db, now)] });
    await worker.drain();
    const made = await receiptsOf(gw, t.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ email_address: 'sweep@example.com' });
    expect((await api.get(`/charge/${t.id}`)).body.receipt.receipt_id).toBe(made[0].id);
    expect(await sweepDueReceipts(gw.db, gw.clock.now())).toBe(0);
    expect(await receiptsOf(gw, t.id)).toHaveLength(1);
    await app.close();
    app = null;
  });
});

describe('exactly once', () => {
  test('the request path and the sweep racing for one due receipt make one receipt', async ({ gateway: gw }) => {
    // A charge recorded without its receipt (as after a crash between commit and receipt).
    const token = await tokenFor(gw);
    const scopeOf = { merchantId: gw.merchant.id, env: 'test' as const };
    const input = readChargeInput(scopeOf, ChargeFields.read({ token, amount: 300, send_receipt: true, email_address: 'race@example.com' }), gw.clock.now());
    const { txn } = await gw.db.tx((q) => createCharge(q, { vault: gw.vault, connector: simulator }, scopeOf, input, gw.clock.now()));
    const scope = { merchantId: gw.merchant.id, env: 'test' as const };
    const results = await Promise.all(Array.from({ length: 5 }, () => gw.db.tx((q) => sendDueReceipt(q, scope, txn.id, gw.clock.now()))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await receiptsOf(gw, txn.id)).toHaveLength(1);
    expect((await gw.db.query('SELECT count(*)::int AS n FROM outbox WHERE payload->>\'to\' = $1', ['race@example.com']))[0].n).toBe(1);
  });

  test(`charges and receipts on ${DB_KIND}: twenty concurrent charges, twenty receipts`, async ({ gateway: gw, calls: api }) => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => tokenFor(gw)));
    const res = await Promise.all(tokens.map((token, i) => api.post('/charge', {
      token, amount: 200 + i, send_receipt: true, email_address: `many${i}@example.com`,
    })));
    expect(res.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = res.map((r) => r.body.receipt.receipt_id);
    expect(new Set(ids).size).toBe(20);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
  });
});
