import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { Clock, ManualClock } from '../../../server/clock.js';
import { createKeySet, createMerchant, Scope } from '../../../server/domain/merchant/keys.js';
import { createRule } from '../../../server/domain/events/rules.js';
import { createStrategy, relate } from '../../../server/domain/events/strategies.js';
import { DeliveryWake } from '../../../server/jobs/dispatch.js';
import { RuleFields, StrategyFields } from '../../../server/schemas/webhooks.js';
import { Vault } from '../../../server/vault.js';
import { basic, testDb } from '../../helpers/gateway.js';

// A request's kick(scope) wakes the delivery loops only where a webhook rule listens (issue 20: on
// the in-memory QA gateway a round per charge was five statements for nothing), and only the loop
// of the modes that listen: the callback deliverer for webhook strategies, the outbox for email
// and SMS (issue 27). The answer is kept listenersTtlMs; a rule made through this node is seen at
// once (rulesChanged), one made on another node within the TTL. A kick without a scope wakes both.

let db: Awaited<ReturnType<typeof testDb>>;
const clock = new ManualClock();
beforeAll(async () => {
  db = await testDb();
});
afterAll(async () => {
  await db?.drop();
});

const scopeOf = async (): Promise<Scope> => ({ merchantId: await createMerchant(db, 'Kick merchant', clock.now()), env: 'test' });
/** A rule of `scope` related to a new strategy of `mode`. */
async function listen(scope: Scope, strategy: Record<string, unknown>): Promise<void> {
  const rule = await createRule(db, scope, RuleFields.read({ event_resource: 'transaction' }), clock.now());
  const s = await createStrategy(db, scope, StrategyFields.read(strategy), clock.now());
  await relate(db, scope, rule.id, s.id, clock.now());
}

/** A wake whose wakes and "which modes listen" questions are recorded; `answered()` waits for its questions. */
function wake(listenersTtlMs: number) {
  let asked = 0;
  const pending: Promise<unknown>[] = [];
  const counting = {
    ...db,
    query: (sql: string, params?: unknown[]) => {
      if (!sql.includes('FROM webhook_rules r')) return db.query(sql, params);
      asked++;
      const p = db.query(sql, params);
      pending.push(p);
      return p;
    },
  };
  const woke: string[] = [];
  const w = new DeliveryWake({
    db: counting as typeof db, listenersTtlMs,
    onQueued: (what) => void woke.push([what.webhooks && 'webhooks', what.messages && 'messages'].filter(Boolean).join('+')),
  });
  return {
    w,
    woke,
    get asked() {
      return asked;
    },
    /** Every question asked so far has been answered (and its answer acted on). */
    async answered() {
      while (pending.length) await pending.shift();
      await new Promise((r) => setImmediate(r));
    },
  };
}

test('no rule: kicks wake nothing and ask once per TTL; a rule made elsewhere is seen after the TTL', async () => {
  const scope = await scopeOf();
  // The TTL's clock is Date.now, stepped by hand here (the machine may be slow).
  let now = Date.now();
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => now);
  const k = wake(1000);
  try {
    for (let i = 0; i < 5; i++) k.w.kick(scope);
    await k.answered();
    expect({ woke: k.woke, asked: k.asked }).toEqual({ woke: [], asked: 1 });
    // Another node makes a rule: within the TTL this one still skips, after it a kick wakes the deliverer.
    await listen(scope, { mode: 'webhook', url: 'https://example.com/hook' });
    now += 999;
    k.w.kick(scope);
    await k.answered();
    expect({ woke: k.woke, asked: k.asked }).toEqual({ woke: [], asked: 1 });
    now += 2;
    k.w.kick(scope);
    await k.answered();
    expect({ woke: k.woke, asked: k.asked }).toEqual({ woke: ['webhooks'], asked: 2 });
    k.w.kick(scope);
    await k.answered();
    expect({ woke: k.woke, asked: k.asked }).toEqual({ woke: ['webhooks', 'webhooks'], asked: 2 });
  } finally {
    spy.mockRestore();
  }
});

test('the modes that listen decide the loops woken; rulesChanged forgets the answer at once; no scope wakes both', async () => {
  const scope = await scopeOf();
  const k = wake(60_000);
  k.w.kick(scope);
  await k.answered();
  expect(k.woke).toEqual([]);
  await listen(scope, { mode: 'email', email_address: 'ops@example.com' });
  k.w.rulesChanged(scope);
  k.w.kick(scope);
  await k.answered();
  expect(k.woke.splice(0)).toEqual(['messages']);
  await listen(scope, { mode: 'webhook', url: 'https://example.com/hook' });
  k.w.rulesChanged(scope);
  k.w.kick(scope);
  await k.answered();
  expect(k.woke.splice(0)).toEqual(['webhooks+messages']);
  // Another merchant environment's answer is its own.
  k.w.kick({ ...scope, env: 'live' });
  await k.answered();
  expect(k.woke.splice(0)).toEqual([]);
  k.w.kick();
  expect(k.woke.splice(0)).toEqual(['webhooks+messages']);
});

test('the app tells the wake when rules or strategies change and kicks with the scope, in either environment', async () => {
  const calls: string[] = [];
  const events = {
    kick: (s?: Scope) => void calls.push(`kick ${s?.env}`),
    rulesChanged: (s: Scope) => void calls.push(`rules ${s.env}`),
  };
  const app = await buildApp({ db, vault: new Vault(randomBytes(32)), clock: clock as Clock, events });
  try {
    const id = await createMerchant(db, 'Kick merchant', clock.now());
    const test = await createKeySet(db, { merchantId: id, env: 'test' }, clock.now());
    const live = await createKeySet(db, { merchantId: id, env: 'live' }, clock.now());
    const call = async (key: string, method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
      (await app.inject({ method, url: `/api/v1${url}`, headers: basic(key), ...(payload ? { payload } : {}) })).json();
    const after = async () => (await new Promise((r) => setImmediate(r)), calls.splice(0));
    const rule = await call(test.private_key, 'POST', '/webhooks/rules', { event_resource: 'transaction' });
    expect(await after()).toEqual(['rules test', 'kick test']);
    await call(test.private_key, 'GET', '/webhooks/rules');
    expect(await after()).toEqual([]);
    const strategy = await call(test.private_key, 'POST', '/webhooks/strategies', { mode: 'email', email_address: 'ops@example.com' });
    expect(await after()).toEqual(['rules test', 'kick test']);
    await call(test.private_key, 'DELETE', `/webhooks/strategies/${strategy.id}`);
    expect(await after()).toEqual(['rules test', 'kick test']);
    await call(test.private_key, 'DELETE', `/webhooks/rules/${rule.id}`);
    expect(await after()).toEqual(['rules test', 'kick test']);
    await call(live.private_key, 'POST', '/webhooks/rules', { event_resource: 'transaction' });
    expect(await after()).toEqual(['rules live', 'kick live']);
    await call(test.private_key, 'POST', '/customers', { first_name: 'Ada' });
    expect(await after()).toEqual(['kick test']);
    await call(live.private_key, 'POST', '/customers', { first_name: 'Ada' });
    expect(await after()).toEqual(['kick live']);
  } finally {
    await app.close();
  }
});
