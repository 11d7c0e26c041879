import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createPlan, vetPlan } from '../../../server/domain/billing/plans.js';
import { PlanFields } from '../../../server/schemas/plans.js';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { OutboundError, OutboundPolicy, configureOutbound, restoreOutbound } from '../../../server/net/outbound.js';
import { Merchant } from '../../helpers/gateway.js';
import { ScriptedServer, fakeDns, startScripted } from './outbound-fixtures.js';
import { api, deliveryHarness } from '../jobs/webhooks-fixtures.js';
import { expectError } from '../../fixtures.js';

// SSRF through the URLs a merchant gives (webhook strategies, plan callback_url): refused at
// creation (URL01) when the host is or resolves to a non-public address, and again when connecting.

const h = deliveryHarness();
const dns = fakeDns({ 'internal.test': ['127.0.0.1'], 'public.test': ['93.184.216.34'], 'meta.test': ['169.254.169.254'] });
let saved: OutboundPolicy;
let m: Merchant;
const open: ScriptedServer[] = [];
beforeAll(async () => {
  saved = configureOutbound({ resolve: dns.resolve });
  m = await h.gw.newMerchant();
});
afterEach(async () => {
  configureOutbound({ allow: [] });
  while (open.length) await open.pop()!.close();
});
afterAll(() => restoreOutbound(saved));

const live = () => api(h.gw, m.live.private_key);
const testMode = () => api(h.gw, m.test.private_key);
const plan = (a: ReturnType<typeof api>, callback_url: string) => a.post('/plans', { name: 'P', frequency: 'monthly', amount: 100, callback_url });

const PRIVATE = [
  'https://127.0.0.1/hook', 'https://10.0.0.1/hook', 'https://172.16.5.4/hook', 'https://192.168.1.1/hook',
  'https://169.254.169.254/latest/meta-data/', 'https://[::1]/hook', 'https://[fc00::1]/hook', 'https://[::ffff:10.0.0.1]/hook',
  'https://2130706433/hook', 'https://0x7f000001/hook', 'https://0177.0.0.1/hook', 'https://0x7f.1/hook',
  'https://localhost/hook', 'https://internal.test/hook', 'https://100.64.0.1/hook', 'https://0.0.0.0/hook',
  'https://[fe80::1]/hook', 'https://[64:ff9b::a9fe:a9fe]/hook', 'https://[2002:a00:1::]/hook',
];

describe('creation refuses non-public hosts in live mode (URL01)', () => {
  test.each(PRIVATE)('%s: webhook strategy (create and update) and plan callback_url', async (url) => {
    const a = live();
    await expectError(await a.post('/webhooks/strategies', { mode: 'webhook', url }), 400, 'URL01', /^url refused/);
    const s = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: 'https://public.test/hook' });
    await expectError(await a.put(`/webhooks/strategies/${s.id}`, { url }), 400, 'URL01');
    expect((await a.ok('GET', `/webhooks/strategies/${s.id}`)).url).toBe('https://public.test/hook');
    await expectError(await plan(a, url), 400, 'URL01', /^callback_url refused/);
  });

  test('public hosts, and names that do not resolve yet, are accepted', async () => {
    for (const url of ['https://public.test/hook', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook', 'https://not-yet.test/hook']) {
      expect((await live().ok('POST', '/webhooks/strategies', { mode: 'webhook', url })).url).toBe(url);
      expect((await plan(live(), url)).statusCode).toBe(200);
    }
  });

  test('an unknown strategy id still answers 200007 before the url is looked at', async () => {
    await expectError(await live().put('/webhooks/strategies/strat_0000000000000000', { url: 'https://10.0.0.1/' }), 404, '200007');
  });
});

describe('test mode and the operator allow-list', () => {
  test('test mode accepts loopback (QA receivers), not other private addresses', async () => {
    for (const url of ['http://127.0.0.1:8123/hook', 'http://localhost:8123/hook', 'http://[::1]:8123/hook', 'http://internal.test/hook']) {
      expect((await testMode().ok('POST', '/webhooks/strategies', { mode: 'webhook', url })).url).toBe(url);
      expect((await plan(testMode(), url)).statusCode).toBe(200);
    }
    for (const url of ['http://169.254.169.254/', 'http://10.0.0.1/', 'http://meta.test/']) {
      await expectError(await testMode().post('/webhooks/strategies', { mode: 'webhook', url }), 400, 'URL01');
      await expectError(await plan(testMode(), url), 400, 'URL01');
    }
  });

  test('TESSERA_OUTBOUND_ALLOW lets private blocks and names through in live mode', async () => {
    configureOutbound({ allow: ['10.0.0.0/8', 'meta.test'] });
    expect((await live().ok('POST', '/webhooks/strategies', { mode: 'webhook', url: 'https://10.20.30.40/hook' })).url).toBe('https://10.20.30.40/hook');
    expect((await plan(live(), 'https://meta.test/hook')).statusCode).toBe(200);
    await expectError(await live().post('/webhooks/strategies', { mode: 'webhook', url: 'https://192.168.1.1/hook' }), 400, 'URL01');
  });
});

describe('send time (DNS rebinding)', () => {
  /** Queues one callback of `env` to `url`, as the dispatcher or a billing does. */
  async function queue(env: 'test' | 'live', url: string): Promise<number> {
    const [row] = await h.gw.db.query<{ id: number }>(
      `INSERT INTO callbacks (merchant_id, env, billing_id, url, body, next_attempt_at, created_at, max_attempts)
       VALUES ($1, $2, NULL, $3, '{}', $4, $4, 5) RETURNING id`, [m.id, env, url, h.at(0)]);
    return row.id;
  }
  const attemptsOf = (id: number) => h.gw.db.query('SELECT status_code, error, duration_ms FROM callback_attempts WHERE callback_id = $1', [id]);

  test('a name that resolved public when saved and resolves private when sending is refused, without a connection', async () => {
    const rx = await startScripted();
    open.push(rx);
    dns.names.set('flip.test', ['93.184.216.34']);
    const a = live();
    const s = await a.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: `https://flip.test:${rx.port}/hook` });
    dns.names.set('flip.test', ['127.0.0.1']);
    const blocked = await queue('live', s.url);
    // Positive control: test mode may call loopback, and the socket goes where the resolver said.
    const allowed = await queue('test', `http://flip.test:${rx.port}/hook`);
    const r = await deliverCallbacks(h.deps(), h.at(0), { timeoutMs: 10_000 });
    expect(r).toMatchObject({ claimed: 2, sent: 1, retrying: 1 });
    expect(await attemptsOf(blocked)).toEqual([{ status_code: null, error: OutboundError.PUBLIC_MESSAGE, duration_ms: null }]);
    expect(await attemptsOf(allowed)).toEqual([{ status_code: 200, error: null, duration_ms: expect.any(Number) }]);
    expect(rx.connections).toBe(1);
    expect(rx.requests).toHaveLength(1);
  });

  test('a stored URL with a literal private address (saved before this check) is refused at send time', async () => {
    const rx = await startScripted();
    open.push(rx);
    const id = await queue('live', `${rx.origin}/hook`);
    await deliverCallbacks(h.deps(), h.at(0), { timeoutMs: 10_000 });
    expect(await attemptsOf(id)).toEqual([{ status_code: null, error: OutboundError.PUBLIC_MESSAGE, duration_ms: null }]);
    expect(rx.connections).toBe(0);
  });
});

describe('a slow name server holds no transaction', () => {
  test("a plan's callback_url is resolved by vetPlan, before the route opens its transaction; createPlan, inside it, never waits on DNS", async () => {
    const asked: string[] = [];
    configureOutbound({ resolve: async (host) => (asked.push(host), dns.resolve(host === 'slow.test' ? 'internal.test' : host)) });
    try {
      const scope = { merchantId: m.id, env: 'live' as const };
      const body = PlanFields.read({ name: 'P', frequency: 'monthly', amount: 100, callback_url: 'https://slow.test/cb' });
      await h.gw.db.tx((q) => createPlan(q, scope, body, new Date()));
      expect(asked).toEqual([]);
      await expect(vetPlan(scope, body)).rejects.toMatchObject({ code: 'URL01' });
      expect(asked).toEqual(['slow.test']);
      // Through the API: refused, and nothing was written.
      await expectError(await plan(live(), 'https://slow.test/cb'), 400, 'URL01', /^callback_url refused/);
    } finally {
      configureOutbound({ resolve: dns.resolve });
    }
  });
});
