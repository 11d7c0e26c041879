import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { ManualClock } from '../../../server/clock.js';
import type { Db } from '../../../server/db/index.js';
import { createKeySet, createMerchant } from '../../../server/domain/merchant/keys.js';
import { createToken } from '../../../server/domain/instruments/tokens.js';
import { Vault, keyId } from '../../../server/vault.js';
import { DataKeyError, checkDataKey } from '../../../server/vault-canary.js';
import { DataKeyWatch, clusterKeys, watchDataKey } from '../../../server/vault-cluster.js';
import { reencryptAll } from '../../../server/vault-reencrypt.js';
import { basic, describe, expect, test, visa } from '../../fixtures.js';
import { DB_KIND, testDb } from '../../helpers/gateway.js';

// Issue 27.9: a node left on a retired data key. The cluster records which data key it writes
// under (data_keys: the first start, then `tessera data-key reencrypt`, which retires every other
// key); a node whose key is retired, or that does not hold the cluster's key, reports /readyz 503
// (check data_key), refuses to store payment data (503 VAULT03, Retry-After, nothing written) and
// logs why, and notices by itself: the watch reads the record every few seconds, not only at
// start. Two nodes (apps with their own vault and watch) over one database, as on PostgreSQL.

const [K1, K2, K3] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const now = new Date('2026-11-27T12:00:00Z');

interface Node {
  app: FastifyInstance;
  vault: Vault;
  watch: DataKeyWatch;
  logged: string[];
}

let cleanups: (() => Promise<unknown>)[] = [];
test.afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A database whose first node started with K1 (canary and record), and a merchant's public key. */
async function cluster(): Promise<{ db: Db; publicKey: string }> {
  const db = await testDb();
  cleanups.push(() => db.drop());
  expect(await checkDataKey(db, new Vault(K1), now)).toBe('created');
  const merchantId = await createMerchant(db, 'Cluster merchant', now);
  return { db, publicKey: (await createKeySet(db, { merchantId, env: 'test' }, now)).public_key };
}

/** A node as start.ts makes it: its vault, the data_key readiness check, the watch's log. */
async function node(db: Db, vault: Vault, intervalMs?: number): Promise<Node> {
  const readiness = {};
  const watch = intervalMs ? new DataKeyWatch(db, vault, intervalMs) : await watchDataKey(db, vault, readiness);
  const app = await buildApp({ db, vault, clock: new ManualClock(now), readiness: intervalMs ? { data_key: watch.readiness } : readiness });
  const logged: string[] = [];
  const line = (level: string) => (_obj: object, msg: string) => void logged.push(`${level} ${msg}`);
  cleanups.push(async () => {
    await watch.stop();
    await app.close();
  });
  watch.start({ error: line('error'), info: line('info'), warn: line('warn') });
  return { app, vault, watch, logged };
}

const readyz = async (n: Node) => {
  const res = await n.app.inject({ url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
};
const tokenize = (n: Node, publicKey: string) => n.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(publicKey), payload: visa });
const tokenCount = async (db: Db) => (await db.query('SELECT count(*)::int AS n FROM tokens'))[0].n as number;
const READY = { status: 200, body: { status: 'ok', checks: { database: 'ok', data_key: 'ok' } } };
const LEFT_BEHIND = { status: 503, body: { status: 'unavailable', checks: { database: 'ok', data_key: 'unavailable' } } };

describe(`a node left on a retired data key (${DB_KIND})`, () => {
  test('after reencrypt under K2, the node still on K1 is /readyz 503 and refuses tokens with VAULT03; the K2 node writes and reads', async () => {
    const { db, publicKey } = await cluster();
    const old = await node(db, new Vault(K1));
    const rotated = await node(db, new Vault(K2, [K1])); // rotation step 1: a new key, the cluster's one retired
    expect(await checkDataKey(db, rotated.vault, now)).toBe('rotated');
    expect(await readyz(old)).toEqual(READY);
    expect(await readyz(rotated)).toEqual(READY); // ahead of the record: ready, it reads the cluster's key
    expect((await tokenize(old, publicKey)).statusCode).toBe(200);

    const report = await reencryptAll(db, rotated.vault);
    expect(report.remaining).toBe(0);
    expect((await clusterKeys(db)).map((k) => [k.key_id, k.state])).toEqual(expect.arrayContaining([[keyId(K2), 'current'], [keyId(K1), 'retired']]));

    expect(await readyz(old)).toEqual(LEFT_BEHIND);
    const before = await tokenCount(db);
    const refused = await tokenize(old, publicKey);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({ errors: [{ code: 'VAULT03', message: expect.stringContaining('retired'), retry_after: '5' }] });
    expect(await tokenCount(db)).toBe(before); // nothing stored under the retired key
    expect(old.logged).toHaveLength(1); // once, not at each check
    expect(old.logged[0]).toMatch(new RegExp(`^error data key id ${keyId(K1)} \\(TESSERA_DATA_KEY\\) was retired at .* by tessera data-key reencrypt; the cluster writes under data key id ${keyId(K2)}: this node reports /readyz 503`));

    expect(await readyz(rotated)).toEqual(READY);
    const token = await tokenize(rotated, publicKey);
    expect(token.statusCode).toBe(200);
    const [row] = await db.query('SELECT secret_enc FROM tokens WHERE id = $1', [token.json().id]);
    expect(row.secret_enc).toMatch(new RegExp(`^v2\\.${keyId(K2)}\\.`));
  });

  test('a node that was fine at start notices by itself, within its check interval: no /readyz needed, writes refused, logged once', async () => {
    const { db, publicKey } = await cluster();
    const old = await node(db, new Vault(K1), 20);
    expect((await tokenize(old, publicKey)).statusCode).toBe(200);
    const noticed = new Promise<void>((resolve) => {
      const error = old.watch.log!.error;
      old.watch.log!.error = (obj, msg) => {
        error(obj, msg);
        resolve();
      };
    });
    await reencryptAll(db, new Vault(K2, [K1]));
    await noticed; // the watch's own round, not a /readyz
    expect(old.vault.writeRefusal).toMatch(/was retired/);
    const refused = await tokenize(old, publicKey);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().errors[0].code).toBe('VAULT03');
    expect(old.logged.filter((l) => l.startsWith('error'))).toHaveLength(1);
  });

  test('a node that does not hold the cluster\'s key is 503 too; one started with a retired key refuses to start', async () => {
    const { db } = await cluster();
    const dropped = await node(db, new Vault(K2)); // no K1: it cannot read what the cluster writes
    expect(await readyz(dropped)).toEqual(LEFT_BEHIND);
    expect(dropped.logged[0]).toContain(`the cluster writes under data key id ${keyId(K1)}, which this node does not hold`);

    await reencryptAll(db, new Vault(K2, [K1]));
    expect(await readyz(dropped)).toEqual(READY); // the record now names its key
    expect(dropped.logged.at(-1)).toMatch(/^info data key: this node may write again/);
    const err = await checkDataKey(db, new Vault(K1, [K2]), now).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(DataKeyError);
    expect((err as Error).message).toMatch(new RegExp(`data key id ${keyId(K1)} \\(TESSERA_DATA_KEY\\) was retired at .*; the cluster writes under data key id ${keyId(K2)}; start with the cluster's data key`));
    expect((await clusterKeys(db)).find((k) => k.state === 'current')?.key_id).toBe(keyId(K2)); // the refused start changed nothing
  });

  test('the record: the first start names its key; a rotation\'s start does not move it; reencrypt does, retiring every other key', async () => {
    const db = await testDb();
    cleanups.push(() => db.drop());
    const record = async () => (await clusterKeys(db)).map((k) => `${k.key_id === keyId(K1) ? 'K1' : k.key_id === keyId(K2) ? 'K2' : 'K3'} ${k.state}`).sort();
    expect(await checkDataKey(db, new Vault(K1), now)).toBe('created');
    expect(await record()).toEqual(['K1 current']);
    expect(await checkDataKey(db, new Vault(K2, [K1]), now)).toBe('rotated');
    expect(await checkDataKey(db, new Vault(K1), now)).toBe('verified'); // a node not rotated yet still starts
    expect(await record()).toEqual(['K1 current']);
    await reencryptAll(db, new Vault(K3, [K1, K2]));
    expect(await record()).toEqual(['K1 retired', 'K2 retired', 'K3 current']);
  });

  test('reencrypt lets nodes notice before its count: a blob written under the retired key meanwhile is re-encrypted before the verdict', async () => {
    const { db } = await cluster();
    const scope = { merchantId: await createMerchant(db, 'Late writer', now), env: 'test' as const };
    let waited = 0;
    let late = '';
    const report = await reencryptAll(db, new Vault(K2, [K1]), {
      settleMs: 60_000,
      settle: async (ms) => {
        waited = ms;
        late = (await createToken(db, new Vault(K1), scope, visa, now)).id; // a node on K1 that has not noticed yet
      },
    });
    expect(waited).toBeGreaterThan(50_000);
    expect(waited).toBeLessThanOrEqual(60_000);
    expect(report.remaining).toBe(0);
    const [row] = await db.query('SELECT secret_enc FROM tokens WHERE id = $1', [late]);
    expect(row.secret_enc).toMatch(new RegExp(`^v2\\.${keyId(K2)}\\.`));
  });
});

test('a node that cannot read the record for longer than it trusts its last reading stores no payment data until it reads it again', async () => {
  const { db } = await cluster();
  let t = 0;
  let failing = false;
  const flaky: Db = { ...db, query: (sql, params) => (failing ? Promise.reject(Object.assign(new Error('gone'), { code: '57P01' })) : db.query(sql, params)) };
  const vault = new Vault(K1);
  const watch = new DataKeyWatch(flaky, vault, 5_000, () => t, 20_000);
  const round = () => watch.check().catch((err) => watch.unread(err));
  expect(await watch.check()).toBe(true);
  failing = true;
  t = 10_000;
  await round();
  expect(vault.writeRefusal).toBeNull(); // its last reading is fresh enough
  t = 21_000;
  await round();
  expect(vault.writeRefusal).toMatch(/could not be read for 21 s/);
  expect(() => vault.encrypt('4111111111111111', { table: 'tokens', column: 'number', merchantId: 'm', env: 'test', id: 't' } as never))
    .toThrow(expect.objectContaining({ code: 'VAULT03' }));
  failing = false;
  t = 22_000;
  expect(await watch.check()).toBe(true);
  expect(vault.writeRefusal).toBeNull();
});
