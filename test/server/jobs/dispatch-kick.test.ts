import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { Clock, ManualClock } from '../../../server/clock.js';
import { createKeySet, createMerchant, Scope } from '../../../server/domain/keys.js';
import { createRule } from '../../../server/domain/rules.js';
import { WebhookDispatcher } from '../../../server/jobs/dispatch.js';
import { Vault } from '../../../server/vault.js';
import { basic, testDb } from '../../helpers/gateway.js';

// A request's kick(scope) runs a dispatcher round only where a webhook rule listens (issue 20: on
// the in-memory QA gateway a round per charge was five statements for nothing). The answer is kept
// listenersTtlMs; a rule made through this node is seen at once (rulesChanged), one made on
// another node within the TTL. A kick without a scope (the scheduler's) always runs a round.

let db: Awaited<ReturnType<typeof testDb>>;
const clock = new ManualClock();
beforeAll(async () => {
  db = await testDb();
});
afterAll(async () => {
  await db?.drop();
});

const scopeOf = async (): Promise<Scope> => ({ merchantId: await createMerchant(db, 'Kick merchant', clock.now()), env: 'test' });
const settle = () => new Promise((r) => setTimeout(r, 60));

/** A started dispatcher whose rounds and "has rules" questions are counted. */
function dispatcher(listenersTtlMs: number) {
  let asked = 0;
  const counting = { ...db, query: (sql: string, params?: unknown[]) => (sql.includes('FROM webhook_rules WHERE') && asked++, db.query(sql, params)) };
  const d = new WebhookDispatcher({ db: counting as typeof db, clock, listenersTtlMs });
  const seen = { rounds: 0, get asked() { return asked; } };
  const run = d.runOnce.bind(d);
  d.runOnce = (now) => (seen.rounds++, run(now));
  d.start(60_000); // one round at start, then only kicked ones
  return { d, seen };
}

test('no rule: kicks run no round and ask once per TTL; a rule made elsewhere is seen after the TTL', async () => {
  const scope = await scopeOf();
  // The TTL's clock is Date.now, stepped by hand here (the machine may be slow).
  let now = Date.now();
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => now);
  const { d, seen } = dispatcher(1000);
  try {
    await settle();
    expect(seen.rounds).toBe(1);
    for (let i = 0; i < 5; i++) d.kick(scope);
    await settle();
    expect({ rounds: seen.rounds, asked: seen.asked }).toEqual({ rounds: 1, asked: 1 });
    // Another node makes a rule: within the TTL this one still skips, after it a kick runs a round.
    await createRule(db, scope, { event_resource: 'transaction' }, clock.now());
    now += 999;
    d.kick(scope);
    await settle();
    expect({ rounds: seen.rounds, asked: seen.asked }).toEqual({ rounds: 1, asked: 1 });
    now += 2;
    d.kick(scope);
    await settle();
    expect({ rounds: seen.rounds, asked: seen.asked }).toEqual({ rounds: 2, asked: 2 });
    now += 20; // past the loop's 10 ms gap between kicked rounds
    d.kick(scope);
    await settle();
    expect({ rounds: seen.rounds, asked: seen.asked }).toEqual({ rounds: 3, asked: 2 });
  } finally {
    spy.mockRestore();
    await d.stop();
  }
});

test('rulesChanged forgets the answer at once; the scheduler\'s kick (no scope) always runs a round', async () => {
  const scope = await scopeOf();
  const { d, seen } = dispatcher(60_000);
  try {
    await settle();
    d.kick(scope);
    await settle();
    expect(seen.rounds).toBe(1);
    await createRule(db, scope, { event_resource: 'transaction' }, clock.now());
    d.rulesChanged(scope);
    d.kick(scope);
    await settle();
    expect(seen.rounds).toBe(2);
    // Another merchant environment's answer is its own.
    d.kick({ ...scope, env: 'live' });
    await settle();
    expect(seen.rounds).toBe(2);
    d.kick();
    await settle();
    expect(seen.rounds).toBe(3);
  } finally {
    await d.stop();
  }
});

test('the app tells the dispatcher when rules change (any environment) and kicks with the scope (test mode only)', async () => {
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
    await call(test.private_key, 'DELETE', `/webhooks/rules/${rule.id}`);
    expect(await after()).toEqual(['rules test', 'kick test']);
    await call(live.private_key, 'POST', '/webhooks/rules', { event_resource: 'transaction' });
    expect(await after()).toEqual(['rules live']);
    await call(test.private_key, 'POST', '/customers', { first_name: 'Ada' });
    expect(await after()).toEqual(['kick test']);
  } finally {
    await app.close();
  }
});
