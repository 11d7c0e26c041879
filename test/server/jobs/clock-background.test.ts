import { Scheduler } from '../../../server/jobs/scheduler.js';
import { SYNC_RUNS, stopAdvances } from '../../../server/jobs/test-clock.js';
import { tesseraClient } from '../../../server/testing/client.js';
import { DAY, api, isolated, jobDeps } from '../routes/billings-fixtures.js';
import { startGateway } from '../../helpers/gateway.js';
import { Merchant, TestGateway, basic, describe, expect, expectError, test } from '../../fixtures.js';

// Issue 14: one merchant's long test-clock advance must not hold the gateway. It runs at most
// SYNC_RUNS runs inside its request, then answers 202 and goes on in the background, a run at a
// time with the event loop served in between; the results are the same as advancing in steps.
// The gateway clock (real time here) is a ManualClock at 2026-01-15T12:00:00Z.

/** A merchant with `n` customers on a daily plan: an advance of `days` days makes n × days runs. */
async function dailyMerchant(gw: TestGateway, n = 1) {
  const { m, a } = await isolated(gw);
  const plan = await a.plan({ frequency: 'daily', amount: 700 });
  const subs = [];
  for (let i = 0; i < n; i++) subs.push(await a.subscribe(plan.id, (await a.customer()).id));
  return { m, a, subs };
}

const billingRows = async (gw: TestGateway, m: Merchant) =>
  (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM billings WHERE merchant_id = $1', [m.id]))[0].n;

/** Everything of a merchant's billings that must come out the same however the clock got there. */
async function billingsOf(a: ReturnType<typeof api>, subscriptionId: number) {
  const all: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await a.ok('GET', `/billings?subscription_id=${subscriptionId}&limit=100&offset=${offset}`);
    all.push(...page.list);
    if (page.list.length < 100) break;
  }
  return all
    .map((b) => ({ sequence: b.sequence, created_at: b.created_at, scheduled_for: b.scheduled_for, amount: b.amount, status: b.status }))
    .sort((x, y) => x.sequence - y.sequence);
}

describe('a long advance', () => {
  test('answers 202 after SYNC_RUNS runs; other merchants are served while it runs; it finishes in the background', async ({ gateway: gw }) => {
    const { m, a, subs } = await dailyMerchant(gw);
    const res = await a.post('/test_helpers/clock/advance', { days: 160 });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const started = res.body;
    expect(started).toMatchObject({
      class: 'test_clock', advancing: true, previous: '2026-01-15T12:00:00.000Z', to: '2026-06-24T12:00:00.000Z',
      ran: { billings: SYNC_RUNS, failed_billings: 0, errors: 0 },
    });
    // "now" is the point the advance has reached: the 100th daily run, 2026-04-25.
    expect(started.now).toBe('2026-04-25T00:00:00.000Z');
    expect(started.offset_ms).toBe(new Date(started.now).getTime() - new Date(started.real_now).getTime());

    // Another merchant's live request is answered while the advance is still under way.
    const live = await gw.app.inject({ url: '/api/v1/transactions', headers: basic(gw.merchant.live.private_key) });
    expect(live.statusCode).toBe(200);
    expect(await billingRows(gw, m)).toBeLessThan(160);

    // One advance at a time per merchant: a second one is refused with a code, and changes nothing.
    expectError(await a.post('/test_helpers/clock/advance', { days: 1 }), 409, 'CLOCK03');
    const polled = await a.ok('GET', '/test_helpers/clock');
    expect(polled).toMatchObject({ advancing: true, advance: { previous: '2026-01-15T12:00:00.000Z', to: '2026-06-24T12:00:00.000Z', finished_at: null } });
    expect(polled.advance.ran.billings).toBeGreaterThanOrEqual(SYNC_RUNS);
    expect(polled.advance.reached >= started.now && polled.advance.reached < polled.advance.to).toBe(true);

    // ?wait=true answers when it is done: the whole summary, the clock at the target.
    const done = await a.ok('GET', '/test_helpers/clock?wait=true');
    expect(done).toMatchObject({
      advancing: false, now: '2026-06-24T12:00:00.000Z', offset_ms: 160 * DAY,
      advance: { to: '2026-06-24T12:00:00.000Z', reached: '2026-06-24T12:00:00.000Z', finished_at: '2026-01-15T12:00:00.000Z' },
    });
    expect(done.advance.ran).toEqual({ billings: 160, failed_billings: 0, scheduled_transactions: 0, failed_scheduled_transactions: 0, errors: 0 });
    const billings = await billingsOf(a, subs[0].id);
    expect(billings.map((b) => b.sequence)).toEqual(Array.from({ length: 160 }, (_, i) => i + 1));
    expect(billings[0].created_at).toBe('2026-01-16 00:00:00');
    expect(billings[159].created_at).toBe('2026-06-24 00:00:00');
    // A new advance is accepted again.
    expect((await a.advance({ days: 1 })).ran.billings).toBe(1);
  });

  test('?wait=true answers 200 when done, with the same billings as advancing in short steps', async ({ gateway: gw }) => {
    const long = await dailyMerchant(gw);
    const stepped = await dailyMerchant(gw);
    const out = await long.a.ok('POST', '/test_helpers/clock/advance?wait=true', { days: 130 });
    expect(out).toMatchObject({ advancing: false, previous: '2026-01-15T12:00:00.000Z', now: '2026-05-25T12:00:00.000Z', offset_ms: 130 * DAY });
    expect(out.ran).toEqual({ billings: 130, failed_billings: 0, scheduled_transactions: 0, failed_scheduled_transactions: 0, errors: 0 });
    let ran = 0;
    for (let i = 0; i < 2; i++) ran += (await stepped.a.advance({ days: 65 })).ran.billings; // 65 runs each: inside the request
    expect(ran).toBe(130);
    expect(await billingsOf(long.a, long.subs[0].id)).toEqual(await billingsOf(stepped.a, stepped.subs[0].id));
    // `wait` in a form body works too; anything but true/false is refused.
    const form = await gw.app.inject({
      method: 'POST', url: '/api/v1/test_helpers/clock/advance', payload: 'days=1&wait=true',
      headers: { ...basic(long.m.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode, form.body).toBe(200);
    expectError(await long.a.post('/test_helpers/clock/advance?wait=soon', { days: 1 }), 400, 'REQ01');
  });

  test('advances of one merchant sent at once take turns while short, and add up', async ({ gateway: gw }) => {
    const { m, a } = await dailyMerchant(gw);
    const all = await Promise.all(Array.from({ length: 5 }, () => a.post('/test_helpers/clock/advance', { hours: 24 })));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(all.reduce((n, r) => n + r.body.ran.billings, 0)).toBe(5);
    expect((await a.ok('GET', '/test_helpers/clock')).offset_ms).toBe(5 * DAY);
    expect(await billingRows(gw, m)).toBe(5);
  });

  test('an advance its node stopped holding is taken over by the next scheduler round and finished once', async ({ gateway: gw }) => {
    const { m, a, subs } = await dailyMerchant(gw);
    expect((await a.post('/test_helpers/clock/advance', { days: 150 })).status).toBe(202);
    // This process stops its advances (as on shutdown): the advance stays under way, its lease given up.
    await stopAdvances(gw.db);
    const [row] = await gw.db.query('SELECT advance_state, advance_lease FROM test_clocks WHERE merchant_id = $1', [m.id]);
    expect(row.advance_state).toBe('background');
    expect(new Date(row.advance_lease).getTime()).toBe(0);
    const stopped = await billingRows(gw, m);
    expect(stopped).toBeLessThan(150);
    // Any node's scheduler round takes it over from where it was.
    const round = await new Scheduler(jobDeps(gw)).tick();
    expect(round.resumed).toBe(1);
    const done = await a.ok('GET', '/test_helpers/clock?wait=true');
    expect(done).toMatchObject({ advancing: false, offset_ms: 150 * DAY });
    expect(done.advance.ran.billings).toBe(150);
    expect((await billingsOf(a, subs[0].id)).map((b) => b.sequence)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  test('closing the gateway stops an advance after its current step and answers a waiting request 202', async () => {
    // A gateway of its own that the test closes itself, mid-advance (newGateway would close it again).
    const own = await startGateway();
    let closed = false;
    try {
      const a = api(own);
      const s = await a.subscribe((await a.plan({ frequency: 'daily' })).id, (await a.customer()).id);
      const waiting = a.post('/test_helpers/clock/advance?wait=true', { days: 200 });
      const state = async () => (await own.db.query('SELECT advance_state FROM test_clocks WHERE merchant_id = $1', [own.merchant.id]))[0]?.advance_state;
      while ((await state()) === undefined) await new Promise((r) => setImmediate(r));
      await own.app.close();
      closed = true;
      const res = await waiting;
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ advancing: true, to: '2026-08-03T12:00:00.000Z' });
      const [row] = await own.db.query('SELECT advance_state, advance_lease FROM test_clocks WHERE merchant_id = $1', [own.merchant.id]);
      expect(row.advance_state).toBe('background');
      expect(new Date(row.advance_lease).getTime()).toBe(0); // handed over: the next start or another node goes on
      expect((await own.db.query('SELECT count(*)::int AS n FROM billings WHERE subscription_id = $1', [s.id]))[0].n).toBeLessThan(200);
    } finally {
      if (closed) await (own.db as typeof own.db & { drop(): Promise<void> }).drop();
      else await own.close();
    }
  });

  test('the QA toolkit\'s advanceClock answers when the advance is done', async ({ gateway: gw }) => {
    const { m, subs } = await dailyMerchant(gw);
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gw.app.server.address() as { port: number };
    const client = tesseraClient({ url: `http://127.0.0.1:${port}`, publicKey: m.test.public_key, privateKey: m.test.private_key });
    const out = await client.advanceClock({ days: 110 });
    expect(out).toMatchObject({ advancing: false, now: '2026-05-05T12:00:00.000Z' });
    expect(out.ran.billings).toBe(110);
    expect(await billingsOf(api(gw, m), subs[0].id)).toHaveLength(110);
    await expect(client.advanceClock({ days: -1 })).rejects.toThrow(/REQ01/);
  });
});
