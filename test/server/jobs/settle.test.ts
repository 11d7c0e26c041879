import { builtInRegistry } from '../../../server/processor/processor.js';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { Clock, ManualClock } from '../../../server/clock.js';
import { createKeySet, createMerchant } from '../../../server/domain/merchant/keys.js';
import { Scheduler } from '../../../server/jobs/scheduler.js';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { settle } from '../../../server/jobs/settle.js';
import type { EmailMessage, SmsMessage } from '../../../server/domain/events/outbox.js';
import { OutboxWorker, SendError } from '../../../server/notify/outbox.js';
import { testDelivery } from '../../../server/notify/test-delivery.js';
import type { Row } from '../../../server/db/db.js';
import { Vault } from '../../../server/vault.js';
import { Merchant, basic, testDb, visa } from '../../helpers/gateway.js';
import { Receiver, startReceiver } from './webhooks-fixtures.js';
import { api as billingApi } from '../routes/billings-fixtures.js';

// POST /test_helpers/settle on a gateway without background loops (as buildApp in these suites):
// whatever arrives, settle itself delivered before it answered. Two app instances share one
// database, as two nodes would: `node` has email and SMS transports, `bare` none.

let db: Awaited<ReturnType<typeof testDb>>;
let node: FastifyInstance;
let bare: FastifyInstance;
const clock = new ManualClock();
const vault = new Vault(randomBytes(32));
const sent = { email: [] as EmailMessage[], sms: [] as SmsMessage[] };
/** SMS numbers the fake provider refuses for good (a permanent failure: `failed` at once). */
const refused = new Set<string>();
let outbox: OutboxWorker;

beforeAll(async () => {
  db = await testDb();
  outbox = new OutboxWorker({
    db, clock, transports: {
      email: { send: async (m) => void sent.email.push(m) },
      sms: {
        send: async (m) => {
          if (refused.has(m.to)) throw new SendError('number refused', true);
          sent.sms.push(m);
        },
      },
      // Test-mode messages reach these fake transports only when allowed (notify/test-delivery.ts).
      testDelivery: testDelivery(['*']),
    },
  });
  node = await buildApp({ db, vault, clock: clock as Clock, notify: outbox, settler: { outbox } });
  bare = await buildApp({ db, vault, clock: clock as Clock });
});
afterAll(async () => {
  await node?.close();
  await bare?.close();
  await db?.drop();
});

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(): Promise<Receiver> {
  const r = await startReceiver(null);
  receivers.push(r);
  return r;
}

async function merchant(): Promise<Merchant> {
  const now = clock.now();
  const id = await createMerchant(db, 'Settle merchant', now);
  return { id, test: await createKeySet(db, { merchantId: id, env: 'test' }, now), live: await createKeySet(db, { merchantId: id, env: 'live' }, now) };
}

function as(m: Merchant, app = node, key = m.test.private_key) {
  const call = async (method: 'GET' | 'POST', path: string, payload?: object) => {
    const res = await app.inject({ method, url: `/api/v1${path}`, headers: basic(key), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: 'GET' | 'POST', path: string, payload?: object) => {
    const res = await call(method, path, payload);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  return {
    call,
    ok,
    settle: (payload: object = {}) => ok('POST', '/test_helpers/settle', payload),
    async token(data: object = visa): Promise<string> {
      const res = await app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(m.test.public_key), payload: data });
      return res.json().id;
    },
    async charge(amount: number, extra: object = {}) {
      return ok('POST', '/charge', { token: await this.token(), amount, ...extra });
    },
    /** A rule on `types` of transactions related to a new strategy. */
    async hook(strategy: object, types = ['created']) {
      const rule = await ok('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: types });
      const s = await ok('POST', '/webhooks/strategies', strategy);
      await ok('POST', `/webhooks/rules/${rule.id}/strategies`, { strategy_id: s.id });
    },
  };
}

const none = { delivered: 0, failed: 0, pending_retry: 0, pending: 0 };

describe('POST /test_helpers/settle', () => {
  test('delivers a charge\'s webhook before it answers, and counts it', async () => {
    const m = await merchant();
    const a = as(m);
    const rx = await receiver();
    await a.hook({ mode: 'webhook', url: rx.url });
    const txn = await a.charge(4200);
    expect(rx.received).toHaveLength(0); // no loop runs here: only settle delivers

    const s = await a.settle();
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0].body)).toMatchObject({ type: 'transaction.created', data: { id: txn.id } });
    expect(s).toMatchObject({
      class: 'test_settle', env: 'test', merchant_id: m.id, settled: true,
      webhooks: { ...none, delivered: 1 }, callbacks: none, events: { undispatched: 0 },
      scheduled: { due: 0, errors: 0, advancing: false }, next_retry_at: null,
    });
    expect(s.took_ms).toEqual(expect.any(Number));
    const [delivery] = (await a.ok('GET', '/webhooks/deliveries')).list;
    expect(delivery).toMatchObject({ status: 'delivered', attempt_count: 1 });

    // Nothing new: the same state, nothing sent twice.
    expect(await a.settle()).toMatchObject({ settled: true, webhooks: { ...none, delivered: 1 } });
    expect(rx.received).toHaveLength(1);
  });

  test('a failing endpoint is reported as a pending retry, not waited for', async () => {
    const a = as(await merchant());
    const rx = await receiver();
    rx.fallback = 500;
    await a.hook({ mode: 'webhook', url: rx.url });
    await a.charge(1500);
    const s = await a.settle({ timeout_ms: 60_000 });
    expect(rx.received.map((r) => r.answered)).toEqual([500]);
    // The retry is 30 s later (real time): settle answered without it.
    expect(s).toMatchObject({ settled: true, webhooks: { ...none, pending_retry: 1 } });
    expect(new Date(s.next_retry_at).getTime()).toBe(clock.now().getTime() + 30_000);
    const [delivery] = (await a.ok('GET', '/webhooks/deliveries')).list;
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500 });
  });

  test('sends email and SMS through the transports; a refused SMS is failed', async () => {
    const a = as(await merchant());
    refused.add('+15550000002');
    await a.hook({ mode: 'sms', phone_number: '+15550000001' });
    await a.hook({ mode: 'sms', phone_number: '+15550000002' });
    await a.charge(2500, { send_receipt: true, email_address: 'ada@example.com' });
    const s = await a.settle();
    expect(s).toMatchObject({
      settled: true,
      emails: { ...none, delivered: 1, queued: 0 },
      sms: { ...none, delivered: 1, failed: 1, queued: 0 },
    });
    expect(sent.email.map((e) => e.to)).toContain('ada@example.com');
    expect(sent.sms.map((x) => x.to)).toContain('+15550000001');
    const statuses = (await a.ok('GET', '/outbox')).list.map((o: { to: string; status: string }) => `${o.to} ${o.status}`).sort();
    expect(statuses).toEqual(['+15550000001 sent', '+15550000002 failed', 'ada@example.com sent']);
  });

  test('without transports, messages are reported as queued and settle does not wait for them', async () => {
    const m = await merchant();
    const a = as(m, bare);
    await a.hook({ mode: 'email', email_address: 'ops@example.com' });
    await a.charge(2600, { send_receipt: true, email_address: 'ada@example.com' });
    const s = await a.settle({ timeout_ms: 60_000 });
    expect(s).toMatchObject({ settled: true, emails: { ...none, queued: 2 }, sms: { ...none, queued: 0 }, events: { undispatched: 0 } });
    const list = (await a.ok('GET', '/outbox')).list;
    expect(list.map((o: { to: string; status: string; attempts: number }) => [o.to, o.status, o.attempts]).sort())
      .toEqual([['ada@example.com', 'pending', 0], ['ops@example.com', 'pending', 0]]);
  });

  test('another merchant\'s due work and hanging endpoint do not hold it', async () => {
    const other = as(await merchant());
    const slow = await receiver();
    slow.script = [0]; // never answers: the sender's 5 s deadline ends the attempt
    const busy = await receiver();
    await other.hook({ mode: 'webhook', url: slow.url });
    await other.hook({ mode: 'webhook', url: busy.url }, ['failed']);
    await other.charge(1000);
    let otherDone = false;
    const otherSettle = other.settle().then((s) => {
      otherDone = true;
      return s;
    });
    // The other merchant's settle is stuck on its endpoint; then a decline of theirs queues another webhook.
    while (slow.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect((await other.call('POST', '/charge', { token: await other.token(), amount: 80 })).status).toBe(402);

    const mine = as(await merchant());
    const rx = await receiver();
    await mine.hook({ mode: 'webhook', url: rx.url });
    await mine.charge(3000);
    const s = await mine.settle();
    expect(s).toMatchObject({ settled: true, webhooks: { ...none, delivered: 1 } });
    expect(otherDone).toBe(false);
    expect(busy.received).toHaveLength(0);
    const left = await other.ok('GET', '/webhooks/deliveries');
    expect(left.list.map((d: { target: string; status: string }) => `${d.target === busy.url ? 'busy' : 'slow'} ${d.status}`).sort())
      .toEqual(['busy pending', 'slow pending']);
    // Its own settle ends once the hanging attempt times out, then delivers the decline's webhook.
    expect(await otherSettle).toMatchObject({ settled: true, webhooks: { ...none, delivered: 1, pending_retry: 1 } });
    expect(busy.received).toHaveLength(1);
  });
});

describe('what settle waits for', () => {
  test('work another node holds is pending until that node records it', async () => {
    const m = await merchant();
    const a = as(m);
    const rx = await receiver();
    await a.hook({ mode: 'webhook', url: rx.url });
    await a.charge(4400);
    // Another node claimed the delivery (attempt counted, a lease) and is sending it.
    const [row] = await db.query<{ id: number; attempts: number }>(
      `UPDATE callbacks SET attempts = attempts + 1, next_attempt_at = $2 WHERE merchant_id = $1 RETURNING id, attempts`,
      [m.id, new Date(clock.now().getTime() + 60_000)]);
    expect(await a.settle({ timeout_ms: 0 })).toMatchObject({ settled: false, webhooks: { ...none, pending: 1 } });

    let answered = false;
    const waiting = a.settle({ timeout_ms: 30_000 }).then((s) => {
      answered = true;
      return s;
    });
    expect((await a.call('GET', '/webhooks/deliveries')).body.list[0]).toMatchObject({ status: 'pending' });
    expect(answered).toBe(false);
    // That node records its attempt and the outcome together (as jobs/callbacks.ts does): delivered.
    await db.tx(async (q) => {
      await q.query(
        `INSERT INTO callback_attempts (callback_id, merchant_id, env, attempt, at, status_code, error, duration_ms)
         VALUES ($1, $2, 'test', $3, $4, 200, NULL, 3)`, [row.id, m.id, row.attempts, clock.now()]);
      await q.query(`UPDATE callbacks SET status = 'sent', sent_at = $2, last_status = 200 WHERE id = $1`, [row.id, clock.now()]);
    });
    expect(await waiting).toMatchObject({ settled: true, webhooks: { ...none, delivered: 1 } });
    expect(rx.received).toHaveLength(0); // settle never sent it a second time
  });

  test('a delivery is never seen between its attempt and its outcome: a settle on another node never takes it for a retry', async () => {
    const m = await merchant();
    const a = as(m);
    const rx = await receiver();
    await a.hook({ mode: 'webhook', url: rx.url });
    await a.charge(4500);
    // This node delivers; after every statement it makes, another node's settle looks (timeout 0).
    const seen: object[] = [];
    const scope = { merchantId: m.id, env: 'test' as const };
    const observed = {
      ...db,
      async query<T extends Row>(sql: string, params?: unknown[]): Promise<T[]> {
        const rows = await db.query<T>(sql, params);
        seen.push((await settle({ db, clock, vault } as never, scope, { timeoutMs: 0 })).webhooks);
        return rows;
      },
    };
    expect(await deliverCallbacks({ db: observed, clock, vault }, clock.now(), { scope })).toMatchObject({ sent: 1 });
    expect(rx.received).toHaveLength(1);
    expect(seen.length).toBeGreaterThan(1);
    // Claimed (being sent), then delivered: no moment where it looked like a retry not yet due.
    for (const w of seen) expect([{ ...none, pending: 1 }, { ...none, delivered: 1 }]).toContainEqual(w);
    expect(seen.at(-1)).toEqual({ ...none, delivered: 1 });
  });

  test('runs due billings (test clock ahead) and delivers their callbacks; an advance under way is waited for', async () => {
    const m = await merchant();
    const a = as(m);
    const b = billingApi({ app: node, db, vault, clock } as never, m);
    const rx = await receiver();
    const plan = await b.plan({ frequency: 'daily', callback_url: rx.url });
    const sub = await b.subscribe(plan.id, (await b.customer()).id);
    // The test clock 3 days ahead, set directly: nothing has run yet.
    await db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, $2, $3)', [m.id, 3 * 86_400_000, clock.now()]);
    expect(await a.settle({ timeout_ms: 0 })).toMatchObject({ settled: false });

    const s = await a.settle();
    const billings = await b.billings(sub.id);
    expect(billings.length).toBeGreaterThanOrEqual(1);
    expect(s).toMatchObject({ settled: true, scheduled: { due: 0, errors: 0, advancing: false }, callbacks: { ...none, delivered: billings.length } });
    expect(rx.received).toHaveLength(billings.length);

    await db.query(`UPDATE test_clocks SET advance_state = 'background' WHERE merchant_id = $1`, [m.id]);
    expect(await a.settle({ timeout_ms: 0 })).toMatchObject({ settled: false, scheduled: { advancing: true } });
    await db.query(`UPDATE test_clocks SET advance_state = 'ready' WHERE merchant_id = $1`, [m.id]);
    expect(await a.settle()).toMatchObject({ settled: true, scheduled: { advancing: false } });
  });
});

test('completes the account-updater reviews that fell due', async () => {
  const m = await merchant();
  const b = billingApi({ app: node, db, vault, clock } as never, m);
  const customer = await b.customer();
  const sub = await b.ok('POST', '/tokens/update', { payment_methods: { 0: { payment_id: customer.default_method_id, card_exp_month: 9, card_exp_year: 2031 } } });
  expect(sub.status).toBe('received');
  const status = async () => (await db.query<{ status: string }>('SELECT status FROM account_updates WHERE id = $1', [sub.id]))[0].status;
  expect(await as(m).settle()).toMatchObject({ settled: true, scheduled: { due: 0 } }); // its review is a minute away
  expect(await status()).toBe('received');
  await db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, $2, $3)', [m.id, 60_000, clock.now()]);
  expect(await as(m).settle({ timeout_ms: 0 })).toMatchObject({ settled: false, scheduled: { due: 1 } });
  expect(await as(m).settle()).toMatchObject({ settled: true, scheduled: { due: 0 } });
  expect(await status()).toBe('completed');
});

describe('who may settle, and for how long', () => {
  test('a live key is TEST02, a public key AUTH02; timeout_ms is 0 to 60000', async () => {
    const m = await merchant();
    const live = await as(m, node, m.live.private_key).call('POST', '/test_helpers/settle', {});
    expect({ status: live.status, code: live.body.errors[0].code }).toEqual({ status: 403, code: 'TEST02' });
    const pub = await as(m, node, m.test.public_key).call('POST', '/test_helpers/settle', {});
    expect({ status: pub.status, code: pub.body.errors[0].code }).toEqual({ status: 403, code: 'AUTH02' });
    for (const bad of [60_001, -1, 1.5, 'soon', { ms: 1 }, [5]]) {
      const res = await as(m).call('POST', '/test_helpers/settle', { timeout_ms: bad });
      expect({ status: res.status, code: res.body.errors?.[0]?.code }, JSON.stringify(bad)).toEqual({ status: 400, code: 'REQ01' });
      expect(res.body.errors[0].message).toMatch(/timeout_ms/);
    }
    const q = await node.inject({ method: 'POST', url: '/api/v1/test_helpers/settle?timeout_ms=60000', headers: basic(m.test.private_key) });
    expect(q.json()).toMatchObject({ class: 'test_settle', settled: true });
    const twice = await node.inject({ method: 'POST', url: '/api/v1/test_helpers/settle?timeout_ms=1&timeout_ms=2', headers: basic(m.test.private_key) });
    expect({ status: twice.statusCode, code: twice.json().errors?.[0]?.code }).toEqual({ status: 400, code: 'REQ01' });
    const json = { ...basic(m.test.private_key), 'content-type': 'application/json' };
    // An empty list means "no parameters" (wire compatibility); other non-objects are refused.
    const empty = await node.inject({ method: 'POST', url: '/api/v1/test_helpers/settle', headers: json, payload: '[]' });
    expect(empty.json()).toMatchObject({ class: 'test_settle', settled: true });
    for (const body of ['"soon"', '5', '[1]']) {
      const res = await node.inject({ method: 'POST', url: '/api/v1/test_helpers/settle', headers: json, payload: body });
      expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }, body).toEqual({ status: 400, code: 'REQ01' });
    }
  });
});

describe('new events wake the delivery loops', () => {
  test('after each private-key request that can write, in either environment; not after reads or public-key requests', async () => {
    let count = 0;
    const app = await buildApp({ db, vault, clock: clock as Clock, events: { kick: () => count++ } });
    // onResponse hooks run as the answer is finished: one turn of the event loop later at the latest.
    const kicks = async () => {
      await new Promise((r) => setImmediate(r));
      return count;
    };
    try {
      const m = await merchant();
      const a = as(m, app);
      const token = await a.token();
      expect(await kicks()).toBe(0); // POST /tokens with the public key writes no event
      await a.ok('POST', '/charge', { token, amount: 1200 });
      expect(await kicks()).toBe(1);
      await a.ok('GET', '/transactions');
      expect(await kicks()).toBe(1);
      expect((await a.call('POST', '/charge', { token, amount: 1200 })).status).toBe(400); // used token: nothing written, a kick all the same
      expect(await kicks()).toBe(2);
      // Live traffic too (issue 27: it waited for the rounds); the wake does nothing where no rule listens.
      await as(m, app, m.live.private_key).ok('POST', '/customers', { first_name: 'Ada' });
      expect(await kicks()).toBe(3);
      await as(m, app, m.live.private_key).ok('GET', '/customers');
      expect(await kicks()).toBe(3);
    } finally {
      await app.close();
    }
  });

  test('after a scheduler round that ran recurring work', async () => {
    const m = await merchant();
    const b = billingApi({ app: node, db, vault, clock } as never, m);
    await b.subscribe((await b.plan({ frequency: 'daily' })).id, (await b.customer()).id);
    await db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, $2, $3)', [m.id, 2 * 86_400_000, clock.now()]);
    let ran = 0;
    const scheduler = new Scheduler({ db, vault, clock, processors: builtInRegistry() }, { onRan: () => ran++ });
    expect((await scheduler.tick()).ran.billings).toBeGreaterThanOrEqual(1);
    expect(ran).toBe(1);
    expect((await scheduler.tick()).ran.billings).toBe(0);
    expect(ran).toBe(1);
  });
});
