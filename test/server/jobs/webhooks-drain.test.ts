import { afterAll, beforeAll, expect, test } from 'vitest';
import { RunningTessera, startTessera } from '../../../server/start.js';
import { visa } from '../../helpers/gateway.js';
import { Receiver, startReceiver } from './webhooks-fixtures.js';

// Issue 27, item 4, as `tessera serve` runs: 200 charges of one merchant, 16 at a time, each with
// a webhook. Nobody calls settle and the scheduler's rounds are an hour apart: every webhook
// arrives all the same, because the charge's request wakes the deliverer and the deliverer claims
// again as each request ends. Before, a round took two callbacks of a merchant and the rest waited
// for later rounds (200 charges in a second: 100 delivered by the end of the burst, 150 two minutes
// later; bench/scenarios/webhook-drain.mjs).

const CHARGES = 200;
let gw: RunningTessera;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver(null);
  gw = await startTessera({
    storage: 'memory', port: 0, warn: () => {}, schedulerIntervalMs: 3_600_000, rateLimits: { perIp: 0, perKey: 0, failures: 0 },
  });
});
afterAll(async () => {
  await gw?.close();
  await rx?.close();
});

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' });
async function call(method: string, path: string, body?: object, key = gw.privateKey!) {
  const res = await fetch(`${gw.url}/api/v1${path}`, { method, headers: auth(key), body: body && JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** Waits until `cond` holds, looking again every 20 ms (a condition, not a duration: the test's timeout bounds it). */
async function until(cond: () => boolean | Promise<boolean>) {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
}

test(`${CHARGES} charges of one merchant: every webhook arrives, with no settle and no scheduler round`, { timeout: 90_000 }, async () => {
  const rule = await call('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
  const strategy = await call('POST', '/webhooks/strategies', { mode: 'webhook', url: rx.url });
  await call('POST', `/webhooks/rules/${rule.id}/strategies`, { strategy_id: strategy.id });
  const charged: string[] = [];
  let left = CHARGES;
  const client = async () => {
    while (left-- > 0) {
      const token = await call('POST', '/tokens', visa, gw.publicKey!);
      charged.push((await call('POST', '/charge', { token: token.id, amount: 1000 })).id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
  expect(charged).toHaveLength(CHARGES);

  await until(() => rx.received.length >= CHARGES);
  expect(rx.received.map((r) => JSON.parse(r.body).data.id).sort()).toEqual(charged.sort());
  const sent = async () => (await gw.db.query<{ n: number }>("SELECT count(*)::int AS n FROM callbacks WHERE status = 'sent'"))[0].n;
  await until(async () => (await sent()) === CHARGES);
  expect((await call('GET', '/webhooks/deliveries?status=delivered')).meta.total_results).toBe(CHARGES);
});
