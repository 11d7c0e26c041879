import { describe, expect, test } from 'vitest';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { OutboundError } from '../../../server/net/outbound.js';
import { emitEvent } from '../../../server/domain/events/events.js';
import { WEBHOOK_MAX_ATTEMPTS, dispatchEvents } from '../../../server/domain/events/dispatch.js';
import { dispatchLeftovers } from '../../../server/jobs/dispatch.js';
import { visa } from '../../helpers/gateway.js';
import { Api, deliveryHarness, testApi, verifySignature, api as apiFor } from './webhooks-fixtures.js';
import { expectError } from '../../fixtures.js';

// From an event to the merchant: fan-out as it is recorded (rules × strategies), signed HTTP
// delivery to a real node:http receiver with retries, email and SMS through the outbox, the
// deliveries view. What rules and strategies changed after an event do: webhooks-fanout.test.ts.

const h = deliveryHarness();
const { deps, at, receiver, setup, charge } = h;

/** Delivery rounds at each due time until nothing is pending (or `max` rounds). */
async function deliverUntilSettled(callbackIds: number[], max = 100) {
  for (let i = 0; i < max; i++) {
    const [next] = await h.gw.db.query<{ t: Date | null }>(
      "SELECT min(next_attempt_at) AS t FROM callbacks WHERE status = 'pending' AND id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint)",
      [callbackIds]);
    if (!next.t) return;
    await deliverCallbacks(deps(), new Date(next.t), { timeoutMs: 300 });
  }
}

const callbackOf = async (deliveryId: number): Promise<number> =>
  (await h.gw.db.query('SELECT callback_id FROM webhook_deliveries WHERE id = $1', [deliveryId]))[0].callback_id;

const deliveriesOf = async (a: Api, query = '') => (await a.ok('GET', `/webhooks/deliveries?limit=100${query}`)).list;

describe('fan-out and signed delivery', () => {
  test('a matching charge is POSTed once, signed with the merchant secret, as {id, type, created_at, data}', async () => {
    const s = await setup(
      { event_resource: 'transaction', event_types: ['created'], constraints: [{ field: 'amount_settled', operator: 'gte', value: 10000 }] },
      { mode: 'webhook', url: 'http://placeholder.invalid/' },
    );
    const rx = await receiver(s.secret);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });

    const small = await charge(s.m, 900);
    const big = await charge(s.m, 15000, { metadata: { plan: 'gold' } });
    expect(small.status).toBe('SETTLED');
    // Queued with the charge: no dispatch step in between.
    const [delivery] = await deliveriesOf(s.a);
    expect(await deliveriesOf(s.a)).toHaveLength(1); // the 900 charge does not satisfy amount_settled >= 10000

    await deliverCallbacks(deps(), at(0));
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got.verified).toBe(true);
    expect(got.answered).toBe(200);
    expect(got.headers['content-type']).toBe('application/json');
    const { t } = verifySignature(s.secret, got.headers['tessera-signature'] as string, got.body);
    expect(t).toBe(Math.floor(h.gw.clock.now().getTime() / 1000));
    const payload = JSON.parse(got.body);
    expect(Object.keys(payload)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(payload).toMatchObject({
      id: delivery.event_id, type: 'transaction.created', created_at: h.gw.clock.now().toISOString(),
      data: { class: 'transaction', id: big.id, amount_settled: 15000, metadata: { plan: 'gold' }, card_number: big.card_number },
    });
    expect(got.body).not.toContain(visa.card_number);
    expect(got.body).not.toMatch(/"(csc|cvv)"/);

    const view = await s.a.ok('GET', `/webhooks/deliveries/${delivery.id}`);
    expect(view).toMatchObject({
      class: 'webhook_delivery', event_type: 'transaction.created', rule_id: s.rule.id, strategy_id: s.strategy.id, mode: 'webhook',
      target: rx.url, status: 'delivered', attempt_count: 1, next_attempt_at: null, last_status_code: 200, last_error: null,
      outbox_id: null, attempts: [{ attempt: 1, at: h.gw.clock.now().toISOString(), status_code: 200, error: null }],
    });
    expect(view.delivered_at).not.toBeNull();
    // Nothing further is sent, however late the next round.
    await deliverCallbacks(deps(), at(7 * 86400_000));
    expect(rx.received).toHaveLength(1);
  });

  test('a receiver that fails three times then succeeds: four attempts with the same event id, acknowledged once', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(s.secret);
    rx.script = [500, 503, 0, 200]; // 0: no answer at all (the attempt times out)
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    await charge(s.m, 2500);
    const [d] = await deliveriesOf(s.a);
    expect(d.status).toBe('pending');

    // Not due yet after a failure: a round in between sends nothing.
    await deliverCallbacks(deps(), at(0), { timeoutMs: 300 });
    expect(rx.received).toHaveLength(1);
    await deliverCallbacks(deps(), at(29_000), { timeoutMs: 300 });
    expect(rx.received).toHaveLength(1);
    await deliverUntilSettled([await callbackOf(d.id)]);

    expect(rx.received.map((r) => r.answered)).toEqual([500, 503, 0, 200]);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    const ids = rx.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids)).toEqual(new Set([d.event_id]));
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1); // the same bytes every time
    expect(rx.received.filter((r) => r.answered >= 200 && r.answered < 300)).toHaveLength(1);
    expect(rx.received.map((r) => r.headers['tessera-attempt'])).toEqual(['1', '2', '3', '4']);

    const view = await s.a.ok('GET', `/webhooks/deliveries/${d.id}`);
    expect(view).toMatchObject({ status: 'delivered', attempt_count: 4, last_status_code: 200, last_error: null });
    expect(view.attempts.map((x: any) => [x.attempt, x.status_code])).toEqual([[1, 500], [2, 503], [3, null], [4, 200]]);
    expect(view.attempts[0].error).toBe('HTTP 500');
    // No HTTP answer: one message whatever the cause (refused, blocked, timed out), and no duration to time it by.
    expect(view.attempts[2]).toMatchObject({ error: OutboundError.PUBLIC_MESSAGE, duration_ms: null });
    expect(view.attempts[0].duration_ms).toEqual(expect.any(Number));
    // Exponential backoff between attempts: 30 s, 1 min, 2 min.
    const times = view.attempts.map((x: any) => new Date(x.at).getTime());
    expect(times.slice(1).map((t: number, i: number) => t - times[i])).toEqual([30_000, 60_000, 120_000]);
    // The event's deliveries were decided as it was recorded, once.
    const event = await s.a.ok('GET', `/events/${d.event_id}`);
    expect(event.dispatched_at).toBe(event.created_at);
    expect(await deliveriesOf(s.a)).toHaveLength(1);
  });

  test('a receiver that always fails is retried for about a day, then the delivery is failed and kept; retry queues it again', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(s.secret);
    rx.fallback = 500;
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    await charge(s.m, 3100);
    const [d] = await deliveriesOf(s.a);
    await deliverUntilSettled([await callbackOf(d.id)]);

    const view = await s.a.ok('GET', `/webhooks/deliveries/${d.id}`);
    expect(view).toMatchObject({ status: 'failed', attempt_count: WEBHOOK_MAX_ATTEMPTS, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null });
    expect(view.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const span = new Date(view.attempts.at(-1).at).getTime() - new Date(view.attempts[0].at).getTime();
    expect(span).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(span).toBeLessThan(25 * 3600_000);
    expect(rx.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect((await deliveriesOf(s.a, '&status=failed')).map((x: any) => x.id)).toEqual([d.id]);

    // Queued again by hand: the receiver is fixed, the next round delivers, attempt numbers go on.
    await expectError(await s.a.post('/webhooks/deliveries/999999999/retry'), 404, 'WEBHOOK02');
    rx.fallback = 204;
    const requeued = await s.a.ok('POST', `/webhooks/deliveries/${d.id}/retry`);
    expect(requeued).toMatchObject({ status: 'pending', attempt_count: WEBHOOK_MAX_ATTEMPTS });
    await deliverCallbacks(deps(), at(1000));
    const after = await s.a.ok('GET', `/webhooks/deliveries/${d.id}`);
    expect(after).toMatchObject({ status: 'delivered', last_status_code: 204 });
    expect(after.attempts.at(-1)).toMatchObject({ attempt: WEBHOOK_MAX_ATTEMPTS + 1, status_code: 204 });
    await expectError(await s.a.post(`/webhooks/deliveries/${d.id}/retry`), 409, 'WEBHOOK03');
  });

});

describe('matching', () => {
  test('event_types filter, constraints over the object, all constraints must hold, one delivery per strategy', async () => {
    const m = await h.gw.newMerchant();
    const a = testApi(h.gw, m);
    const sFail = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: h.sink.url });
    const sBig = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: h.sink.url });
    const failed = await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['failed'] });
    const big = await a.ok('POST', '/webhooks/rules', {
      event_resource: 'transaction',
      constraints: [{ field: 'amount_settled', operator: 'gte', value: 10000 }, { field: 'metadata.plan', operator: 'eq', value: 'gold' }],
    });
    const anyTxn = await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction', constraints: [{ field: 'successful', operator: 'eq', value: 'false' }] });
    await a.ok('POST', `/webhooks/rules/${failed.id}/strategies`, { strategy_id: sFail.id });
    await a.ok('POST', `/webhooks/rules/${big.id}/strategies`, { strategy_id: sBig.id });
    // Two rules relate sFail; an event matching both makes one delivery.
    await a.ok('POST', `/webhooks/rules/${anyTxn.id}/strategies`, { strategy_id: sFail.id });
    // A rule with no strategy: matches, delivers nothing.
    await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction' });

    await charge(m, 80); // declined (73–100): transaction.failed, successful false
    await charge(m, 15000, { metadata: { plan: 'gold' } }); // big and gold
    await charge(m, 15000, { metadata: { plan: 'silver' } }); // big, not gold
    await charge(m, 500, { metadata: { plan: 'gold' } }); // gold, not big
    const list = await deliveriesOf(a);
    const seen = list.map((d: any) => `${d.event_type}→${d.strategy_id}`).sort();
    expect(seen).toEqual([`transaction.created→${sBig.id}`, `transaction.failed→${sFail.id}`].sort());
    expect(list.find((d: any) => d.strategy_id === sFail.id).rule_id).toBe(failed.id); // the first matching rule is named
  });

  test('rules act on events recorded after they exist; each event is fanned out once, as it is recorded', async () => {
    const m = await h.gw.newMerchant();
    const a = testApi(h.gw, m);
    const undispatched = async () =>
      (await h.gw.db.query('SELECT id FROM events WHERE merchant_id = $1 AND dispatched_at IS NULL', [m.id])).length;
    await charge(m, 1000);
    // No rule for the resource: recorded alone, dispatched at its own time.
    const [first] = (await a.ok('GET', '/events')).list;
    expect(first.dispatched_at).toBe(first.created_at);
    expect(await undispatched()).toBe(0);
    // A rule for another resource changes nothing for a transaction event.
    await a.ok('POST', '/webhooks/rules', { event_resource: 'customer' });
    await charge(m, 1050);
    const s = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: h.sink.url });
    const r = await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction' });
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    // Recorded before the rule: never the rule's.
    expect(await deliveriesOf(a)).toHaveLength(0);
    const after = await charge(m, 1100);
    // Recorded after it: its delivery exists as soon as the charge has answered.
    const list = await deliveriesOf(a);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ rule_id: r.id, strategy_id: s.id, target: h.sink.url, status: 'pending' });
    expect((await a.ok('GET', `/events/${list[0].event_id}`)).data.id).toBe(after.id);
    const events = (await a.ok('GET', '/events')).list;
    expect(events).toHaveLength(3);
    expect(events.every((e: any) => e.dispatched_at === e.created_at)).toBe(true);
    expect(await undispatched()).toBe(0);
  });

  test('events an older version left undispatched: concurrent drains fan each out once (SKIP LOCKED)', async () => {
    const m = await h.gw.newMerchant();
    const a = testApi(h.gw, m);
    const s = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: h.sink.url });
    const r = await a.ok('POST', '/webhooks/rules', { event_resource: 'customer' });
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    // As a gateway before issue 27 recorded them: dispatched_at NULL, for its dispatcher's next round.
    await h.gw.db.query(
      `INSERT INTO events (id, merchant_id, env, resource, type, data, created_at, dispatched_at)
       SELECT 'evt_' || lpad(to_hex(i), 24, '0'), $1, 'test', 'customer', 'customer.created',
              jsonb_build_object('class', 'customer', 'id', 'c' || i), $2, NULL
         FROM generate_series(1, 30) i`, [m.id, h.gw.clock.now()]);
    const runs = await Promise.all([
      h.gw.db.tx((q) => dispatchEvents(q, at(0), 5)),
      ...Array.from({ length: 4 }, () => dispatchLeftovers(h.gw.db, at(0), 5)),
    ]);
    expect(runs.reduce((n, x) => n + x.events, 0)).toBe(30);
    const rows = await h.gw.db.query('SELECT event_id FROM webhook_deliveries WHERE merchant_id = $1', [m.id]);
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((x) => x.event_id)).size).toBe(30);
    expect((await h.gw.db.query('SELECT id FROM events WHERE merchant_id = $1 AND dispatched_at IS NULL', [m.id]))).toEqual([]);
    expect(await dispatchLeftovers(h.gw.db, at(0))).toMatchObject({ events: 0 });
  });
});

describe('email and SMS strategies', () => {
  test('they queue a message in the notify outbox, without the card number', async () => {
    const m = await h.gw.newMerchant();
    const a = testApi(h.gw, m);
    const r = await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
    const mail = await a.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' });
    const sms = await a.ok('POST', '/webhooks/strategies', { mode: 'sms', phone_number: '+15550105000' });
    for (const s of [mail, sms]) await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    const txn = await charge(m, 4200);
    const [event] = (await a.ok('GET', '/events?type=transaction.created')).list;
    const outbox = (await a.ok('GET', `/outbox?source=event:${event.id}`)).list;
    const email = outbox.find((o: any) => o.kind === 'email');
    const text = outbox.find((o: any) => o.kind === 'sms');
    expect(email).toMatchObject({ to: 'ops@example.com', status: 'pending', subject: `[Tessera] transaction.created ${txn.id}` });
    expect(email.text).toContain(`Event transaction.created (${event.id})`);
    expect(email.text).toContain(`"amount_settled": 4200`);
    expect(text).toMatchObject({ to: '+15550105000', text: `Tessera (test): transaction.created ${txn.id}. Event ${event.id}.` });
    expect(JSON.stringify(outbox)).not.toContain(visa.card_number);

    const deliveries = await deliveriesOf(a);
    expect(deliveries.map((d: any) => [d.mode, d.target, d.status, d.outbox_id]).sort()).toEqual(
      [['email', 'ops@example.com', 'pending', email.id], ['sms', '+15550105000', 'pending', text.id]].sort(),
    );
    expect(deliveries.every((d: any) => d.attempts.length === 0)).toBe(true);
  });
});

describe('events and deliveries views', () => {
  test('GET /events lists the scope\'s events newest first, with filters; GET /events/:id', async () => {
    const m = await h.gw.newMerchant();
    const a = testApi(h.gw, m);
    const t1 = await charge(m, 1000);
    await charge(m, 80);
    const page = await a.ok('GET', '/events');
    expect(page.meta).toEqual({ limit: 10, offset: 0, total_results: 2 });
    expect(page.list.map((e: any) => e.type)).toEqual(['transaction.failed', 'transaction.created']);
    expect(page.list[1]).toMatchObject({ class: 'event', resource: 'transaction', data: { id: t1.id } });
    expect(page.list[1].dispatched_at).toBe(page.list[1].created_at); // no rule listens: recorded dispatched
    expect((await a.ok('GET', '/events?type=transaction.created')).list).toHaveLength(1);
    expect((await a.ok('GET', '/events?resource=customer')).list).toHaveLength(0);
    expect(await a.ok('GET', `/events/${page.list[1].id}`)).toEqual(page.list[1]);
    expect(JSON.stringify(page)).not.toContain(visa.card_number);
    await expectError(await a.get('/events/evt_000000000000000000000000'), 404, 'EVENT01');
    await expectError(await a.get('/events/nope'), 404, 'EVENT01');
    await expectError(await a.get('/webhooks/deliveries/nope'), 404, 'WEBHOOK02');
    await expectError(await a.get('/webhooks/deliveries?status=lost'), 400, 'REQ01');
  });
});

describe('isolation', () => {
  test('events of one merchant or environment never reach another\'s rules, views or secret', async () => {
    const m1 = await h.gw.newMerchant();
    const m2 = await h.gw.newMerchant();
    const rx = await receiver(null);
    const mk = async (key: string) => {
      const a = apiFor(h.gw, key);
      const s = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: rx.url });
      const r = await a.ok('POST', '/webhooks/rules', { event_resource: 'customer' });
      await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
      return a;
    };
    const a1 = await mk(m1.test.private_key);
    const a2 = await mk(m2.test.private_key);
    // A live-mode rule of m1 on a local http URL is refused (https only); give live an https URL.
    const live = apiFor(h.gw, m1.live.private_key);
    const ls = await live.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: 'https://example.com/live' });
    const lr = await live.ok('POST', '/webhooks/rules', { event_resource: 'customer' });
    await live.ok('POST', `/webhooks/rules/${lr.id}/strategies`, { strategy_id: ls.id });

    const id = await h.gw.db.tx((q) => emitEvent(q, { merchantId: m1.id, env: 'test' }, 'customer.created', { class: 'customer', id: 'cus1' }, h.gw.clock.now()));
    const d1 = await deliveriesOf(a1);
    expect(d1.map((d: any) => d.event_id)).toEqual([id]);
    expect(await deliveriesOf(a2)).toEqual([]);
    expect(await deliveriesOf(live)).toEqual([]);
    expect((await a2.ok('GET', '/events')).list).toEqual([]);
    expect((await live.ok('GET', '/events')).list).toEqual([]);
    await expectError(await a2.get(`/events/${id}`), 404, 'EVENT01');
    await expectError(await a2.get(`/webhooks/deliveries/${d1[0].id}`), 404, 'WEBHOOK02');
    await expectError(await live.post(`/webhooks/deliveries/${d1[0].id}/retry`), 404, 'WEBHOOK02');

    // Signed with m1's test secret, which m2 cannot produce.
    await deliverUntilSettled([await callbackOf(d1[0].id)]);
    const mine = rx.received.filter((r) => JSON.parse(r.body).id === id);
    expect(mine).toHaveLength(1);
    const s1 = (await a1.ok('GET', '/webhooks/secret')).secret;
    const s2 = (await a2.ok('GET', '/webhooks/secret')).secret;
    const sl = (await live.ok('GET', '/webhooks/secret')).secret;
    expect(verifySignature(s1, mine[0].headers['tessera-signature'] as string, mine[0].body).ok).toBe(true);
    expect(verifySignature(s2, mine[0].headers['tessera-signature'] as string, mine[0].body).ok).toBe(false);
    expect(verifySignature(sl, mine[0].headers['tessera-signature'] as string, mine[0].body).ok).toBe(false);
  });
});
