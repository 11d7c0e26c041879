import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { Merchant, TestGateway, startGateway } from '../../helpers/gateway.js';
import { Receiver, api, startReceiver, verifySignature } from '../jobs/webhooks-fixtures.js';
import { expectError } from '../../fixtures.js';

// POST /webhooks/strategies/:id/test (the dashboard's "send test event", issue 19): a signed sample
// event reaches the strategy's URL through the outbound client, once, now; nothing is stored.

let gw: TestGateway;
let m: Merchant;
let receiver: Receiver;
let a: ReturnType<typeof api>;
let strategyId: string;

beforeAll(async () => {
  gw = await startGateway();
  m = await gw.newMerchant();
  a = api(gw, m.test.private_key);
  receiver = await startReceiver((await a.ok('GET', '/webhooks/secret')).secret);
  strategyId = (await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: receiver.url })).id;
});
afterAll(async () => {
  await receiver.close();
  await gw.close();
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.script.length = 0;
});

const stored = async () => (await gw.db.query(
  `SELECT (SELECT count(*)::int FROM events WHERE merchant_id = $1) AS events,
          (SELECT count(*)::int FROM webhook_deliveries WHERE merchant_id = $1) AS deliveries,
          (SELECT count(*)::int FROM callbacks WHERE merchant_id = $1) AS callbacks`, [m.id]))[0];

describe('POST /webhooks/strategies/:id/test', () => {
  test('a signed test event reaches the receiver; the answer says it was delivered; nothing is stored', async () => {
    const before = await stored();
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
    expect(await stored()).toEqual(before);
  });

  test('an error status from the receiver is a failed test with its code, sent once (no retry queued)', async () => {
    receiver.script.push(503);
    const res = await a.post(`/webhooks/strategies/${strategyId}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', status_code: 503, error: 'HTTP 503' });
    expect(receiver.received.map((r) => r.answered)).toEqual([503]);
    expect((await stored()).callbacks).toBe(0);
  });

  test('the outbound address rules apply: with test-mode loopback switched off nothing is sent', async () => {
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

  test('an email strategy is WEBHOOK05; an unknown id, another merchant\'s or the other environment\'s strategy is 200007', async () => {
    const email = (await a.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' })).id;
    await expectError(await a.post(`/webhooks/strategies/${email}/test`), 409, 'WEBHOOK05');
    await expectError(await a.post('/webhooks/strategies/nope/test'), 404, '200007');
    await expectError(await api(gw, gw.other.test.private_key).post(`/webhooks/strategies/${strategyId}/test`), 404, '200007');
    await expectError(await api(gw, m.live.private_key).post(`/webhooks/strategies/${strategyId}/test`), 404, '200007');
    await expectError(await api(gw, m.test.public_key).post(`/webhooks/strategies/${strategyId}/test`), 403, 'AUTH02');
    expect(receiver.received).toHaveLength(0);
  });
});
