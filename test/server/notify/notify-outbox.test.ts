import type { Scope } from '../../../server/domain/merchant/keys.js';
import { EmailMessage, OutboxMessage, SmsMessage, enqueue } from '../../../server/domain/events/outbox.js';
import { Delivery, OutboxWorker, SendError, Transport, exponentialBackoff } from '../../../server/notify/outbox.js';
import { testDelivery } from '../../../server/notify/test-delivery.js';
import { DB_KIND } from '../../helpers/gateway.js';
import { TestGateway, describe, expect, test } from '../../fixtures.js';

// The outbox worker itself, with in-memory transports: claiming, backoff, give-up, leases,
// several workers at once, and the production loop. The messages are test-mode ones and the
// workers send them (TESSERA_TEST_DELIVERY_TO=*): what is captured instead is notify-capture.test.ts.
const SEND_TEST = testDelivery(['*']);

// Each test uses a merchant of its own, so counts never mix.
let scope: Scope;

async function freshScope(gw: TestGateway): Promise<Scope> {
  scope = { merchantId: (await gw.newMerchant()).id, env: 'test' };
  return scope;
}

/** Keeps every message; fails while `failing` is set. */
function recorder<M extends OutboxMessage>() {
  const seen: Array<{ message: M; delivery: Delivery }> = [];
  const t = {
    seen,
    failing: null as null | Error,
    delayMs: 0,
    async send(message: M, delivery: Delivery) {
      if (t.delayMs) await new Promise((r) => setTimeout(r, t.delayMs));
      if (t.failing) throw t.failing;
      seen.push({ message, delivery });
    },
  };
  return t;
}

const email = (to: string): EmailMessage => ({ kind: 'email', to, subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
const rows = (gw: TestGateway, s: Scope) => gw.db.query('SELECT * FROM outbox WHERE merchant_id = $1 AND env = $2 ORDER BY id', [s.merchantId, s.env]);
const put = (gw: TestGateway, s: Scope, m: OutboxMessage, source?: string) => enqueue(gw.db, s, m, gw.clock.now(), source);

describe('enqueue and deliver', () => {
  test('a message is delivered once with its id, scope and attempt; the row reads sent', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    const mail = recorder<EmailMessage>();
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: mail, testDelivery: SEND_TEST } });
    const id = await put(gw, s, email('a@example.com'), 'test:1');
    expect(Number.isInteger(id)).toBe(true);
    await worker.drain();
    expect(mail.seen).toEqual([{ message: email('a@example.com'), delivery: { id, merchantId: s.merchantId, env: 'test', attempt: 1 } }]);
    expect((await rows(gw, s))[0]).toMatchObject({ status: 'sent', attempts: 1, source: 'test:1', last_error: null });
    expect(new Date((await rows(gw, s))[0].sent_at).getTime()).toBe(gw.clock.now().getTime());
  });

  test('enqueue belongs to the caller\'s transaction: rolled back, no message', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    await expect(gw.db.tx(async (q) => {
      await enqueue(q, s, email('rollback@example.com'), gw.clock.now());
      throw new Error('producer failed');
    })).rejects.toThrow('producer failed');
    expect(await rows(gw, s)).toEqual([]);
  });

  test('without a transport for its kind a message stays pending and untouched', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    const mail = recorder<EmailMessage>();
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: mail, testDelivery: SEND_TEST } });
    expect(worker.kinds).toEqual(['email']);
    await put(gw, s, { kind: 'sms', to: '+15550100000', text: 'hi' });
    await worker.drain();
    expect((await rows(gw, s))[0]).toMatchObject({ kind: 'sms', status: 'pending', attempts: 0 });
    expect(await new OutboxWorker({ db: gw.db, clock: gw.clock, transports: {} }).runOnce()).toEqual({ claimed: 0, sent: 0, retrying: 0, failed: 0, captured: 0 });
    // Out of the way of the next tests' workers, which deliver SMS.
    await gw.db.query("UPDATE outbox SET status = 'failed' WHERE merchant_id = $1", [s.merchantId]);
  });
});

describe('retries', () => {
  test('exponential backoff: 30 s, 1 min, 2 min … capped at an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((n) => exponentialBackoff(n) / 1000)).toEqual(
      [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600],
    );
  });

  test('a message that keeps failing is retried on schedule, then kept as failed after maxAttempts', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    const mail = recorder<EmailMessage>();
    mail.failing = new Error('421 try later');
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: mail, testDelivery: SEND_TEST }, maxAttempts: 4 });
    await put(gw, s, email('flaky@example.com'));
    const schedule: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const before = gw.clock.now().getTime();
      const r = await worker.drain();
      expect(r.claimed).toBe(1);
      const [row] = await rows(gw, s);
      expect(row.attempts).toBe(attempt);
      expect(row.last_error).toBe('421 try later');
      schedule.push(new Date(row.next_attempt_at).getTime() - before);
      // Not due a moment before the backoff ends.
      gw.clock.advance(exponentialBackoff(attempt) - 1);
      expect((await worker.drain()).claimed).toBe(0);
      gw.clock.advance(1);
      if (attempt === 4) expect(row.status).toBe('failed');
      else expect(row.status).toBe('pending');
    }
    expect(schedule.slice(0, 3)).toEqual([30_000, 60_000, 120_000]);
    expect((await worker.drain()).claimed).toBe(0);
    expect(await rows(gw, s)).toHaveLength(1);
  });

  test('a permanent SendError fails at once', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    const sms = recorder<SmsMessage>();
    sms.failing = new SendError('number not reachable', true);
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { sms, testDelivery: SEND_TEST } });
    await put(gw, s, { kind: 'sms', to: '+15550100000', text: 'x' });
    expect(await worker.drain()).toMatchObject({ failed: 1 });
    expect((await rows(gw, s))[0]).toMatchObject({ status: 'failed', attempts: 1, last_error: 'number not reachable' });
  });

  test('a worker that dies mid-send leaves the message to another after the lease', async ({ gateway: gw }) => {
    const s = await freshScope(gw);
    let release: () => void = () => {};
    const hang: Transport<EmailMessage> = { send: () => new Promise<void>((r) => { release = r; }) };
    const dead = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: hang, testDelivery: SEND_TEST }, leaseMs: 60_000 });
    await put(gw, s, email('lease@example.com'));
    void dead.runOnce();
    // Until the dead worker has claimed it (its send never returns): polled, not a fixed sleep.
    for (let i = 0; i < 200 && (await rows(gw, s))[0].attempts === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await rows(gw, s))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    const mail = recorder<EmailMessage>();
    const other = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: mail, testDelivery: SEND_TEST } });
    expect((await other.drain()).claimed).toBe(0);
    gw.clock.advance(60_000);
    expect(await other.drain()).toMatchObject({ sent: 1 });
    expect(mail.seen[0].delivery.attempt).toBe(2);
    release();
  });
});

test(`four workers draining at once on ${DB_KIND} deliver each of 60 messages exactly once`, async ({ gateway: gw }) => {
  const s = await freshScope(gw);
  for (let i = 0; i < 60; i++) await put(gw, s, email(`m${i}@example.com`));
  const mail = recorder<EmailMessage>();
  mail.delayMs = 2;
  const workers = Array.from({ length: 4 }, () => new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email: mail, testDelivery: SEND_TEST }, batchSize: 5 }));
  const results = await Promise.all(workers.map((w) => w.drain()));
  expect(results.reduce((n, r) => n + r.sent, 0)).toBe(60);
  const to = mail.seen.map((x) => x.message.to);
  expect(new Set(to).size).toBe(60);
  expect(to).toHaveLength(60);
  expect((await rows(gw, s)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
});

test('the production loop: start, kick after enqueue, stop waits for the round and closes transports', async ({ gateway: gw }) => {
  const s = await freshScope(gw);
  const mail = recorder<EmailMessage>();
  let closed = false;
  const worker = new OutboxWorker({
    db: gw.db, clock: gw.clock, transports: { email: { send: mail.send, close: () => { closed = true; } }, testDelivery: SEND_TEST },
  });
  worker.kick(); // not started: a no-op
  worker.start(60_000);
  await new Promise((r) => setTimeout(r, 100));
  await put(gw, s, email('loop@example.com'));
  worker.kick();
  for (let i = 0; i < 50 && mail.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(mail.seen.map((x) => x.message.to)).toEqual(['loop@example.com']);
  await worker.stop();
  expect(closed).toBe(true);
  await put(gw, s, email('after-stop@example.com'));
  worker.kick();
  await new Promise((r) => setTimeout(r, 100));
  expect(mail.seen).toHaveLength(1);
});
