import { afterEach, expect, test, vi } from 'vitest';
import type { Db, Queryable } from '../../../server/db/index.js';
import type { KeyIdentity } from '../../../server/domain/merchant/keys.js';
import { DbCounters, MemoryCounters } from '../../../server/http/counters.js';
import { TokenLimiter } from '../../../server/http/ratelimit.js';
import { testDb } from '../../helpers/gateway.js';

let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await drop?.();
  drop = undefined;
});

/** The database counters on the test database, with every statement they send recorded. */
async function dbCounters() {
  const db = await testDb();
  drop = db.drop;
  const sent: string[] = [];
  const count = (q: Queryable): Queryable => ({ ...q, query: (sql, params) => (sent.push(sql), q.query(sql, params)) });
  const counted: Db = { ...count(db), kind: db.kind, tx: db.tx, close: db.close, relaxed: db.relaxed && count(db.relaxed) };
  return { store: new DbCounters(counted), sent };
}

test('the counters\' connections on PostgreSQL commit without waiting for the WAL flush; everything else waits', async () => {
  const db = await testDb();
  drop = db.drop;
  const setting = async (q: Queryable) => (await q.query('SHOW synchronous_commit'))[0].synchronous_commit;
  expect(await setting(db)).toBe('on');
  if (db.kind === 'pg') expect(await setting(db.relaxed!)).toBe('off');
  else expect(db.relaxed).toBeUndefined(); // PGlite: one process, its counters are in memory anyway
});

const now = new Date('2026-11-22T12:00:30Z');
const id: KeyIdentity = { merchantId: 'mer_counters', env: 'test', kind: 'pk', clockOffsetMs: 0 };

test('hits: several buckets counted and read in one statement; an unseen bucket reads 0 and is not created', async () => {
  const { store, sent } = await dbCounters();
  expect(await store.hits([{ bucket: 'a', windowMs: 60_000, add: 1 }, { bucket: 'b', windowMs: 600_000, add: 2 }, { bucket: 'c', windowMs: 60_000, add: 0 }], now))
    .toEqual([1, 2, 0]);
  expect(await store.hits([{ bucket: 'b', windowMs: 600_000, add: 0 }, { bucket: 'a', windowMs: 60_000, add: 3 }], now)).toEqual([2, 4]);
  expect(await store.hit('a', 60_000, new Date('2026-11-22T12:01:00Z'))).toBe(1); // the next window
  expect(await store.hit('c', 60_000, now, 0)).toBe(0);
  expect(sent.filter((s) => !s.startsWith('DELETE'))).toHaveLength(4);
});

test('requests that arrive together share one statement, each with its own count in arrival order', async () => {
  const { store, sent } = await dbCounters();
  const ip = (n: number) => ({ bucket: `ip:${n}`, windowMs: 60_000, add: 1 });
  const key = { bucket: 'key:m', windowMs: 60_000, add: 1 };
  const refused = { bucket: 'fail-ip:1', windowMs: 600_000, add: 0 };
  const answers = await Promise.all([1, 2, 1, 3].map((n) => store.hits([ip(n), key, refused], now)));
  expect(answers).toEqual([[1, 1, 0], [1, 2, 0], [2, 3, 0], [1, 4, 0]]);
  expect(sent.filter((s) => !s.startsWith('DELETE'))).toHaveLength(1);
  // A read and an add of one counter in one batch: the read sees the adds that arrived before it.
  const mixed = await Promise.all([
    store.hits([{ bucket: 'fail-ip:1', windowMs: 600_000, add: 1 }], now),
    store.hits([refused], now),
    store.hits([{ bucket: 'fail-ip:1', windowMs: 600_000, add: 1 }], now),
  ]);
  expect(mixed).toEqual([[1], [1], [2]]);
  expect(await store.hit('key:m', 60_000, now, 0)).toBe(4);
});

test('hits that arrive while a batch\'s statement is out wait for it, then go together in one statement', async () => {
  const db = await testDb();
  drop = db.drop;
  const sent: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const q = db.relaxed ?? db;
  const query: Queryable['query'] = async (sql, params) => {
    if (sent.push(sql) === 1) await gate; // the first statement is held until open()
    return q.query(sql, params);
  };
  const store = new DbCounters({ kind: db.kind, exec: db.exec, tx: db.tx, close: db.close, query, relaxed: { query, exec: q.exec } });
  const hit = () => store.hits([{ bucket: 'key:m', windowMs: 60_000, add: 1 }], now);
  const first = hit();
  await vi.waitFor(() => expect(sent).toHaveLength(1));
  const later = [hit(), hit(), hit()];
  await new Promise((r) => setTimeout(r, 20));
  expect(sent).toHaveLength(1); // nothing else goes out while the first is out
  open();
  expect(await first).toEqual([1]);
  expect(await Promise.all(later)).toEqual([[2], [3], [4]]);
  expect(sent.filter((s) => !s.startsWith('DELETE'))).toHaveLength(2);
});

test('a token request is one statement on the database counters, every rule on; an address\'s first of the minute counts the address with the next batch', async () => {
  const { store, sent } = await dbCounters();
  const limiter = new TokenLimiter(store); // the default limits: every rule on (live mode: the refusal rules too)
  const statements = () => sent.filter((s) => !s.startsWith('DELETE')).length;
  await limiter.checkKey({ ...id, env: 'live' }, '192.0.2.1', now, 'checkout');
  expect(statements()).toBe(1);
  // Not awaited by the first request: the count of the key's addresses goes out with the next one.
  await limiter.checkKey({ ...id, env: 'live' }, '192.0.2.1', now, 'checkout');
  await limiter.checkKey({ ...id, env: 'live' }, '192.0.2.1', now, 'checkout');
  expect(statements()).toBe(3);
  expect(await store.hit('key-addrs:mer_counters:live', 60_000, now, 0)).toBe(1);
});

test('every request the limiter refuses is taken back from the key\'s count: one address cannot fill the merchant\'s ceiling', async () => {
  for (const make of [async () => new MemoryCounters(), async () => (await dbCounters()).store]) {
    const store = await make();
    const limiter = new TokenLimiter(store, { perIp: 2, perKey: 4, keyFloor: 1, failures: 0 });
    const outcome = async (ip: string) => limiter.checkKey(id, ip, now).then(() => 'ok', (e) => e.code);
    const flood = [];
    for (let i = 0; i < 6; i++) flood.push(await outcome('192.0.2.1'));
    expect(flood).toEqual(['ok', 'ok', 'RATE01', 'RATE01', 'RATE01', 'RATE01']);
    // The key has counted the 2 requests let through, and one address.
    expect(await store.hit('key:mer_counters:test', 60_000, now, 0)).toBe(2);
    expect(await store.hit('key-addrs:mer_counters:test', 60_000, now, 0)).toBe(1);
    // 3 more addresses: the third is past the key's ceiling but within its share (its first request).
    expect([await outcome('192.0.2.2'), await outcome('192.0.2.3'), await outcome('192.0.2.4')]).toEqual(['ok', 'ok', 'ok']);
    // 4 addresses share 4: a second request of one is refused for the key, and taken back too.
    expect(await outcome('192.0.2.2')).toBe('RATE01');
    expect(await store.hit('key:mer_counters:test', 60_000, now, 0)).toBe(5);
    await drop?.();
    drop = undefined;
  }
});

test('a failure is owned whatever its form: a batch statement that throws fails its hits, a sweep that throws is dropped, no unhandled rejection', async () => {
  const { store } = await dbCounters();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const random = vi.spyOn(Math, 'random').mockReturnValue(0); // every batch that adds also sweeps
  try {
    // A Queryable whose query throws instead of rejecting: every form of failure must reach an owner.
    const throwing = (what: RegExp) => {
      const q = (store as unknown as { q: Queryable }).q;
      (store as unknown as { q: Queryable }).q = {
        ...q, query: (sql, params) => {
          if (what.test(sql)) throw new Error(`thrown by ${sql.slice(0, 6)}`);
          return q.query(sql, params);
        },
      };
    };
    throwing(/^DELETE/);
    expect(await store.hit('swept', 60_000, now)).toBe(1); // its batch answered; its sweep threw
    expect(await store.hit('swept', 60_000, now)).toBe(2);
    throwing(/rate_counters/);
    await expect(store.hit('swept', 60_000, now)).rejects.toThrow(/thrown by/);
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  } finally {
    random.mockRestore();
    process.off('unhandledRejection', onUnhandled);
  }
});
