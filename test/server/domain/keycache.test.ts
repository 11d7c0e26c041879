import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import { KeyCache, UNKNOWN_KEYS_CACHED, createKeySet, createMerchant, hashKey } from '../../../server/domain/merchant/keys.js';
import { testDb } from '../../helpers/gateway.js';

let db: Awaited<ReturnType<typeof testDb>>;
beforeAll(async () => {
  db = await testDb();
});
afterAll(() => db.drop());

test('a cached key serves within the TTL, never past its own expiry, and forget() drops it', async () => {
  const clock = new ManualClock();
  const merchantId = await createMerchant(db, 'M', clock.now());
  const first = await createKeySet(db, { merchantId, env: 'test' }, clock.now());
  const cache = new KeyCache(1000);
  expect((await cache.authenticate(db, first.private_key, clock.now()))?.merchantId).toBe(merchantId);

  // Rotation "now": the cache keeps serving the old key only until its TTL ends.
  await createKeySet(db, { merchantId, env: 'test' }, clock.now(), 'now');
  expect(await cache.authenticate(db, first.private_key, clock.now())).not.toBeNull(); // cached (≤ 1 s)
  clock.advance(1000);
  expect(await cache.authenticate(db, first.private_key, clock.now())).toBeNull();

  // A key expiring in 200 ms is not served from the cache after that, TTL or not.
  const soon = await createKeySet(db, { merchantId, env: 'live' }, clock.now(), 'never');
  await db.query('UPDATE api_keys SET expires_at = $1 WHERE key_set_id = $2', [new Date(clock.now().getTime() + 200), soon.key_set_id]);
  expect(await cache.authenticate(db, soon.public_key, clock.now())).not.toBeNull();
  clock.advance(200);
  expect(await cache.authenticate(db, soon.public_key, clock.now())).toBeNull();

  // Unknown keys are remembered too (a flood of bad keys costs one lookup a second); forget() clears.
  const latest = await createKeySet(db, { merchantId, env: 'test' }, clock.now(), 'never');
  await db.query('DELETE FROM api_keys WHERE key_set_id = $1', [latest.key_set_id]);
  expect(await cache.authenticate(db, latest.private_key, clock.now())).toBeNull();
  await db.query(
    `INSERT INTO api_keys (key_hash, merchant_id, env, kind, key_set_id, redacted, created_at)
     SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, 'test', 'sk', 'ks_back', 'x', $3`,
    [latest.private_key, merchantId, clock.now()],
  );
  expect(await cache.authenticate(db, latest.private_key, clock.now())).toBeNull();
  cache.forget();
  expect((await cache.authenticate(db, latest.private_key, clock.now()))?.kind).toBe('sk');
});

test('ttl 0 is no cache at all', async () => {
  const clock = new ManualClock();
  const merchantId = await createMerchant(db, 'M2', clock.now());
  const set = await createKeySet(db, { merchantId, env: 'test' }, clock.now());
  const cache = new KeyCache(0);
  expect(await cache.authenticate(db, set.private_key, clock.now())).not.toBeNull();
  await createKeySet(db, { merchantId, env: 'test' }, clock.now(), 'now');
  expect(await cache.authenticate(db, set.private_key, clock.now())).toBeNull();
});

/** A database of one key, counting its lookups: enough for KeyCache, and fast enough for 10,001 keys. */
function oneKeyDb(key: string, id = { merchant_id: 'mer_1', env: 'test', kind: 'sk', expires_at: null, offset_ms: 0 }) {
  const db = {
    lookups: 0,
    async query(_sql: string, params: unknown[] = []) {
      db.lookups++;
      await Promise.resolve();
      return params[0] === hashKey(key) ? [id] : [];
    },
  };
  return db;
}
const madeUp = (i: number) => `test_sk_${i.toString(16).padStart(55, '0')}`;

test('a flood of unknown keys never pushes a known key out of the cache (no lookup storm after it)', async () => {
  const key = madeUp(0xfffff);
  const q = oneKeyDb(key);
  const cache = new KeyCache(60_000);
  const now = new Date();
  expect((await cache.authenticate(q as any, key, now))?.merchantId).toBe('mer_1');
  for (let i = 0; i <= UNKNOWN_KEYS_CACHED; i++) expect(await cache.authenticate(q as any, madeUp(i), now)).toBeNull();
  const before = q.lookups;
  expect((await cache.authenticate(q as any, key, now))?.merchantId).toBe('mer_1');
  expect(q.lookups).toBe(before);
  // The unknown set forgets its oldest first and stays bounded.
  expect(await cache.authenticate(q as any, madeUp(0), now)).toBeNull();
  expect(q.lookups).toBe(before + 1);
  expect(await cache.authenticate(q as any, madeUp(UNKNOWN_KEYS_CACHED), now)).toBeNull();
  expect(q.lookups).toBe(before + 1);
});

test('malformed keys are refused without a lookup; concurrent lookups of one key share one query', async () => {
  const key = madeUp(7);
  const q = oneKeyDb(key);
  const cache = new KeyCache(1000);
  const now = new Date();
  for (const bad of ['nope', `${key}0`, key.toUpperCase(), '']) expect(await cache.authenticate(q as any, bad, now)).toBeNull();
  expect(q.lookups).toBe(0);
  const ids = await Promise.all(Array.from({ length: 50 }, () => cache.authenticate(q as any, key, now)));
  expect(ids.every((id) => id?.merchantId === 'mer_1')).toBe(true);
  const misses = await Promise.all(Array.from({ length: 50 }, () => cache.authenticate(q as any, madeUp(8), now)));
  expect(misses.every((id) => id === null)).toBe(true);
  expect(q.lookups).toBe(2);
});

test('forget(merchant) drops that merchant\'s cached keys only', async () => {
  const mine = madeUp(1);
  const theirs = madeUp(2);
  const rows: Record<string, object> = {
    [hashKey(mine)]: { merchant_id: 'mer_a', env: 'test', kind: 'sk', expires_at: null, offset_ms: 0 },
    [hashKey(theirs)]: { merchant_id: 'mer_b', env: 'test', kind: 'sk', expires_at: null, offset_ms: 0 },
  };
  let lookups = 0;
  const q = { query: async (_sql: string, params: unknown[] = []) => (lookups++, rows[params[0] as string] ? [rows[params[0] as string]] : []) };
  const cache = new KeyCache(60_000);
  const now = new Date();
  for (const k of [mine, theirs]) await cache.authenticate(q as any, k, now);
  expect(lookups).toBe(2);
  cache.forget('mer_a');
  expect((await cache.authenticate(q as any, theirs, now))?.merchantId).toBe('mer_b');
  expect(lookups).toBe(2);
  expect((await cache.authenticate(q as any, mine, now))?.merchantId).toBe('mer_a');
  expect(lookups).toBe(3);
});
