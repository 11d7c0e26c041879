import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EVENT_TYPES } from '../../../server/domain/events/events.js';
import { RunningTessera, startTessera } from '../../../server/start.js';
import { verifyCallback } from '../../../server/domain/merchant/signing.js';
import { visa } from '../../helpers/gateway.js';
import { Receiver, startReceiver } from './webhooks-fixtures.js';

// The gateway as `tessera serve` runs it: the delivery loops start with the server, a matching
// charge reaches a real receiver within seconds, signed with a fresh timestamp, and the loops stop
// on close. A burst of them: webhooks-drain.test.ts.

let gw: RunningTessera;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver(null);
  gw = await startTessera({ storage: 'memory', port: 0, warn: () => {}, schedulerIntervalMs: 60_000 });
});
afterAll(async () => {
  await gw?.close();
  await rx?.close();
});

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' });
const call = async (method: string, path: string, body?: object, key = gw.privateKey!) => {
  const res = await fetch(`${gw.url}/api/v1${path}`, { method, headers: auth(key), body: body && JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
};

test('a charge matching a rule is POSTed to the strategy URL without anyone calling settle or a round', async () => {
  const rule = await call('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
  const strategy = await call('POST', '/webhooks/strategies', { mode: 'webhook', url: rx.url });
  await call('POST', `/webhooks/rules/${rule.id}/strategies`, { strategy_id: strategy.id });
  const { secret } = await call('GET', '/webhooks/secret');
  const token = await call('POST', '/tokens', visa, gw.publicKey!);
  const txn = await call('POST', '/charge', { token: token.id, amount: 4200 });

  // The charge's request wakes the deliverer (the scheduler's own interval here is a minute).
  for (let i = 0; i < 200 && rx.received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(rx.received).toHaveLength(1);
  const got = rx.received[0];
  expect(JSON.parse(got.body)).toMatchObject({ type: 'transaction.created', data: { id: txn.id, amount_settled: 4200 } });
  // Real time in the signature: a receiver's freshness check (5 minutes) accepts it.
  expect(verifyCallback(secret, got.headers['tessera-signature'] as string, got.body, Math.floor(Date.now() / 1000))).toBe(true);
  const [delivery] = (await call('GET', '/webhooks/deliveries')).list;
  for (let i = 0; i < 40 && delivery.status !== 'delivered'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    Object.assign(delivery, (await call('GET', '/webhooks/deliveries')).list[0]);
  }
  expect(delivery).toMatchObject({ status: 'delivered', attempt_count: 1, last_status_code: 200 });

  // The README's verification snippet, run as written, accepts this request and refuses a forgery.
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const snippet = readme.match(/## Webhooks[\s\S]*?```js\n([\s\S]*?)```/)![1];
  const dir = mkdtempSync(join(tmpdir(), 'tessera-readme-'));
  try {
    writeFileSync(join(dir, 'verify.mjs'), snippet);
    const { verifyTessera } = await import(pathToFileURL(join(dir, 'verify.mjs')).href);
    const header = got.headers['tessera-signature'];
    expect(verifyTessera(got.body, header, secret)).toBe(true);
    expect(verifyTessera(Buffer.from(got.body), header, secret)).toBe(true);
    expect(verifyTessera(got.body.replace('4200', '4201'), header, secret)).toBe(false);
    expect(verifyTessera(got.body, header, `${secret}x`)).toBe(false);
    expect(verifyTessera(got.body, undefined, secret)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README lists every published event type', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Webhooks'), readme.indexOf('## Dashboard'));
  for (const [resource, types] of Object.entries(EVENT_TYPES)) {
    const row = section.split('\n').find((l) => l.startsWith(`| \`${resource}\` |`));
    expect(row, resource).toBeDefined();
    expect([...row!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1])).toEqual([...types]);
  }
});
