import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../server/app.js';
import { Clock, ManualClock } from '../../server/clock.js';
import { createKeySet, createMerchant } from '../../server/domain/keys.js';
import { EmailMessage, OutboxWorker, SendError, SmsMessage } from '../../server/notify/outbox.js';
import { Vault } from '../../server/vault.js';
import { Merchant, basic, testDb, visa } from '../helpers/gateway.js';
import { Receiver, startReceiver } from './webhooks-fixtures.js';

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
