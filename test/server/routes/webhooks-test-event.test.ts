import { configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { Api, Receiver, api, startReceiver, verifySignature } from '../jobs/webhooks-fixtures.js';
import { Merchant, TestGateway, describe, expect, expectError, test as base } from '../../fixtures.js';

// POST /webhooks/strategies/:id/test (the dashboard's "send test event", issue 19): a signed sample
// event reaches the strategy's URL through the outbound client, once, now; nothing is stored.

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
          (SELECT count(*)::int FROM callbacks WHERE merchant_id = $1) AS callbacks`, [m.id]))[0];

describe('POST /webhooks/strategies/:id/test', () => {
  test('a signed test event reaches the receiver; the answer says it was delivered; nothing is stored', async ({ gateway: gw, hook: { m, a, receiver, strategyId } }) => {
    const before = await stored(gw, m);
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
    expect(await stored(gw, m)).toEqual(before);
  });

  test('an error status from the receiver is a failed test with its code, sent once (no retry queued)', async ({ gateway: gw, hook: { m, a, receiver, strategyId } }) => {
    receiver.script.push(503);
    const res = await a.post(`/webhooks/strategies/${strategyId}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', status_code: 503, error: 'HTTP 503' });
    expect(receiver.received.map((r) => r.answered)).toEqual([503]);
    expect((await stored(gw, m)).callbacks).toBe(0);
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
    await expectError(await api(gw, m.test.public_key).post(`/webhooks/strategies/${strategyId}/test`), 403, 'AUTH02');
    expect(receiver.received).toHaveLength(0);
  });
});
