import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { dispatchLeftovers } from '../../../server/jobs/dispatch.js';
import { configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { Api, Receiver, api, startReceiver, verifySignature } from '../jobs/webhooks-fixtures.js';
import { Merchant, TestGateway, basic, describe, expect, expectError, test as base } from '../../fixtures.js';

// POST /webhooks/strategies/:id/test (the dashboard's "send test event", issue 19): a signed sample
// event reaches the strategy's URL through the outbound client, once, now; it is listed under
// GET /webhooks/deliveries as a test (issue 30, item 7), and reaches no rule.

interface Hook { m: Merchant; a: Api; receiver: Receiver; strategyId: string }
/**
 * The gateway fixture, plus `hook`, made once per file: a merchant `m` of its own, its calls `a`,
 * a receiver with the merchant's signing secret, and a webhook strategy sending to it. The
 * receiver's log and script are emptied after every test.
 */
const test = base.extend<{ hook: Hook }>({
  hook: [async ({ gateway: gw }, use) => {
    const m = await gw.newMerchant();
    const a = api(gw, m.test.private_key);
    const receiver = await startReceiver((await a.ok('GET', '/webhooks/secret')).secret);
    try {
      const strategyId = (await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: receiver.url })).id;
      await use({ m, a, receiver, strategyId });
    } finally {
      await receiver.close();
    }
  }, { scope: 'file' }],
});
test.afterEach(({ hook: { receiver } }) => {
  receiver.received.length = 0;
  receiver.script.length = 0;
});

const stored = async (gw: TestGateway, m: Merchant) => (await gw.db.query(
  `SELECT (SELECT count(*)::int FROM events WHERE merchant_id = $1) AS events,
          (SELECT count(*)::int FROM webhook_deliveries WHERE merchant_id = $1) AS deliveries,
          (SELECT count(*)::int FROM callbacks WHERE merchant_id = $1) AS callbacks,
          (SELECT count(*)::int FROM callbacks WHERE merchant_id = $1 AND status = 'pending') AS pending`, [m.id]))[0];

describe('POST /webhooks/strategies/:id/test', () => {
  test('a signed test event reaches the receiver; the answer says it was delivered', async ({ gateway: gw, hook: { a, receiver, strategyId } }) => {
    const res = await a.post(`/webhooks/strategies/${strategyId}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      class: 'webhook_test', strategy_id: strategyId, url: receiver.url, event_id: expect.stringMatching(/^evt_test_[0-9a-f]{24}$/),
      status: 'delivered', status_code: 200, error: null, duration_ms: expect.any(Number),
    });
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    expect(got.verified).toBe(true);
    expect(verifySignature(receiver.secret!, got.headers['tessera-signature'] as string, got.body).ok).toBe(true);
    expect(got.headers['tessera-test']).toBe('true');
    expect(JSON.parse(got.body)).toEqual({
      id: res.json().event_id, type: 'test', created_at: gw.clock.now().toISOString(),
      data: { test: true, strategy_id: strategyId, message: expect.stringContaining('test event') },
    });
  });

  test('the test send is listed under deliveries, marked as a test, and reaches no rule nor goes out again', async ({ gateway: gw, hook: { m, a, receiver, strategyId } }) => {
    // A rule for every transaction event, connected to the strategy: a test event must not match it.
    const rule = await a.ok('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: [], constraints: [] });
    await a.ok('POST', `/webhooks/rules/${rule.id}/strategies`, { strategy_id: strategyId });
    try {
      const sent = (await a.ok('POST', `/webhooks/strategies/${strategyId}/test`)) as Record<string, any>;
      const { list } = await a.ok('GET', `/webhooks/deliveries?strategy_id=${strategyId}`);
      expect(list[0]).toMatchObject({
        event_id: sent.event_id, event_type: 'test', rule_id: 'test', strategy_id: strategyId, mode: 'webhook', target: receiver.url,
        status: 'delivered', attempt_count: 1, last_status_code: 200, last_error: null, delivered_at: expect.any(String),
        attempts: [{ attempt: 1, status_code: 200, error: null, duration_ms: expect.any(Number) }],
      });
      expect((await a.ok('GET', `/webhooks/deliveries/${list[0].id}`)).event_type).toBe('test');
      // Nothing left to dispatch or send: the receiver got the one request.
      await dispatchLeftovers(gw.db, gw.clock.now());
      await deliverCallbacks({ db: gw.db, vault: gw.vault, clock: gw.clock });
      expect(receiver.received).toHaveLength(1);
      expect((await a.ok('GET', `/webhooks/deliveries?rule_id=${rule.id}`)).list).toEqual([]);
      // The home page's latest events leave it out.
      const summary = await gw.app.inject({ url: '/api/v1/dashboard/summary', headers: basic(m.test.private_key) });
      expect(summary.json().recent_events.map((e: any) => e.type)).not.toContain('test');
      // Nor does GET /events: a test send is a delivery, not an event of the merchant's resources.
      const events = await a.ok('GET', '/events?limit=100');
      expect(events.list.map((e: any) => e.id)).not.toContain(sent.event_id);
      expect((await a.ok('GET', '/events?type=test')).list).toEqual([]);
    } finally {
      await a.ok('DELETE', `/webhooks/rules/${rule.id}`);
    }
  });

  test('an error status from the receiver is a failed test with its code, sent once (no retry queued)', async ({ gateway: gw, hook: { m, a, receiver, strategyId } }) => {
    receiver.script.push(503);
    const res = await a.post(`/webhooks/strategies/${strategyId}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', status_code: 503, error: 'HTTP 503' });
    expect(receiver.received.map((r) => r.answered)).toEqual([503]);
    // Listed as failed, and not retried by itself: a failed test goes out again only when resent.
    const { list } = await a.ok('GET', `/webhooks/deliveries?strategy_id=${strategyId}&status=failed`);
    expect(list[0]).toMatchObject({ event_id: res.json().event_id, event_type: 'test', status: 'failed', last_status_code: 503, last_error: 'HTTP 503', attempt_count: 1 });
    await deliverCallbacks({ db: gw.db, vault: gw.vault, clock: gw.clock });
    expect(receiver.received).toHaveLength(1);
    const pendingBefore = (await stored(gw, m)).pending;
    await a.ok('POST', `/webhooks/deliveries/${list[0].id}/retry`);
    expect((await stored(gw, m)).pending).toBe(pendingBefore + 1);
    await deliverCallbacks({ db: gw.db, vault: gw.vault, clock: gw.clock });
    expect(receiver.received.map((r) => r.answered)).toEqual([503, 200]);
    expect(JSON.parse(receiver.received[1].body).id).toBe(res.json().event_id);
  });

  test('the outbound address rules apply: with test-mode loopback switched off nothing is sent', async ({ hook: { a, receiver, strategyId } }) => {
    const previous = configureOutbound({ testLoopback: false });
    try {
      const res = await a.post(`/webhooks/strategies/${strategyId}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'failed', status_code: null, duration_ms: null, error: expect.stringMatching(/^no HTTP answer/) });
      expect(receiver.received).toHaveLength(0);
    } finally {
      restoreOutbound(previous);
    }
  });

  test('an email strategy is WEBHOOK05; an unknown id, another merchant\'s or the other environment\'s strategy is 200007', async ({ gateway: gw, hook: { m, a, receiver, strategyId } }) => {
    const email = (await a.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' })).id;
    await expectError(await a.post(`/webhooks/strategies/${email}/test`), 409, 'WEBHOOK05');
    await expectError(await a.post('/webhooks/strategies/nope/test'), 404, '200007');
    await expectError(await api(gw, gw.other.test.private_key).post(`/webhooks/strategies/${strategyId}/test`), 404, '200007');
    await expectError(await api(gw, m.live.private_key).post(`/webhooks/strategies/${strategyId}/test`), 404, '200007');
    const before = await stored(gw, m);
    await expectError(await api(gw, m.test.public_key).post(`/webhooks/strategies/${strategyId}/test`), 403, 'AUTH02');
    expect(receiver.received).toHaveLength(0);
    expect(await stored(gw, m)).toEqual(before); // nothing sent, nothing listed
  });
});
