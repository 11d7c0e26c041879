import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { RunningTessera, StartOptions, startTessera } from '../../../server/start.js';
import { Vault, keyId } from '../../../server/vault.js';
import { DataKeyError, checkDataKey } from '../../../server/vault-canary.js';
import { migratedDataDir } from '../../helpers/data-template.js';
import { DB_KIND, testDb } from '../../helpers/gateway.js';
import { basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

// A node must prove at start that its data key reads what is stored (vault_canary, one row per
// key id): with a wrong TESSERA_DATA_KEY it refuses to start with one line naming the variables
// and the key ids, instead of answering VAULT01 on every read of card data. Runs on an embedded
// data directory, and on a fresh PostgreSQL database in the api:postgres project. The start tests
// start real gateways one after another (an embedded start boots PGlite on disk, seconds each); the
// rules of checkDataKey (rotation, databases from before the canary) run on one database each.
const STARTS = 120_000;

const [K1, K2, K3] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const b64 = (k: Buffer) => k.toString('base64');
const cleanups: (() => Promise<void>)[] = [];
test.afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A new store: a data directory holding only the migrated database (no key, no canary), or an empty database of TEST_DATABASE_URL. */
async function newStore(): Promise<Partial<StartOptions>> {
  if (DB_KIND === 'pg') {
    const name = `canary_${randomBytes(5).toString('hex')}`;
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      try { await c.query(sql); } finally { await c.end(); }
    };
    await admin(`CREATE DATABASE "${name}"`);
    cleanups.push(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    return { databaseUrl: url.toString() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tessera-canary-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { storage: 'disk', dataDir: await migratedDataDir(join(dir, 'data')) };
}

const start = (store: Partial<StartOptions>, key: Buffer, retired: Buffer[] = []) =>
  startTessera({ ...store, port: 0, dataKey: b64(key), retiredDataKeys: retired.map(b64).join(',') || undefined, warn: () => {} });

/** The refusal: a DataKeyError (so `tessera serve` prints its message alone and exits 1). */
async function refusal(p: Promise<RunningTessera>): Promise<string> {
  const err = await p.then((gw) => gw.close().then(() => null), (e: unknown) => e);
  expect(err).toBeInstanceOf(DataKeyError);
  const message = (err as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

const api = async (gw: RunningTessera, path: string, body: unknown, key: string) => {
  const res = await fetch(`${gw.url}/api/v1${path}`, {
    method: 'POST', headers: { ...basic(key), 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const canaries = async (gw: RunningTessera) =>
  (await gw.db.query('SELECT key_id FROM vault_canary ORDER BY key_id')).map((r) => r.key_id as string);

describe(`data key canary (${DB_KIND})`, () => {
  test('a wrong key refuses to start, naming the variable and key ids; the right key starts and reads the cards', async () => {
    const store = await newStore();
    const first = await start(store, K1);
    const token = (await api(first, '/tokens', visa, first.publicKey!)).body.id;
    expect(await canaries(first)).toEqual([keyId(K1)]);
    await first.close();

    const message = await refusal(start(store, K2));
    expect(message).toMatch(/^TESSERA_DATA_KEY .*TESSERA_DATA_KEYS_RETIRED/);
    expect(message).toContain(`encrypted with data key id ${keyId(K1)}`);
    expect(message).toContain(`this node holds key id ${keyId(K2)} (TESSERA_DATA_KEY)`);

    const again = await start(store, K1); // nothing was written by the refused starts
    try {
      expect(await canaries(again)).toEqual([keyId(K1)]);
      const charge = await api(again, '/charge', { token, amount: 1200 }, first.privateKey!);
      expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    } finally {
      await again.close();
    }
   }, STARTS);

  test.runIf(DB_KIND === 'pg')('two nodes with different keys starting together on an empty database: exactly one starts', async () => {
    const store = await newStore();
    const results = await Promise.allSettled([start(store, K1), start(store, K2)]);
    const started = results.filter((r): r is PromiseFulfilledResult<RunningTessera> => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].reason).toBeInstanceOf(DataKeyError);
    // ...and while it runs, a third node with yet another key is refused.
    await refusal(start(store, K3));
    await started[0].value.close();
   }, STARTS);
});

describe(`checkDataKey, the rules (${DB_KIND})`, () => {
  const check = (db: Parameters<typeof checkDataKey>[0], key: Buffer, retired: Buffer[] = []) =>
    checkDataKey(db, new Vault(key, retired), new Date());
  const refused = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(DataKeyError);
    return (err as Error).message;
  };

  test('rotation: a new key with the old one retired writes its own canary; then either key alone is verified; a third is refused', async () => {
    const db = await testDb();
    try {
      const canaries = async () => (await db.query('SELECT key_id FROM vault_canary ORDER BY key_id')).map((r) => r.key_id as string);
      expect(await check(db, K1)).toBe('created');
      expect(await canaries()).toEqual([keyId(K1)]);
      // Retired keys that are not the right one do not help.
      const message = await refused(check(db, K2, [K3]));
      expect(message).toContain(`this node holds key id ${keyId(K2)} (TESSERA_DATA_KEY) and ${keyId(K3)} (TESSERA_DATA_KEYS_RETIRED)`);
      expect(await check(db, K2, [K1])).toBe('rotated');
      expect(await canaries()).toEqual([keyId(K1), keyId(K2)].sort());
      expect(await check(db, K2)).toBe('verified');
      expect(await check(db, K1)).toBe('verified'); // a node not yet rotated still starts: its key still has data
      expect(await canaries()).toEqual([keyId(K1), keyId(K2)].sort());
      expect(await refused(check(db, K3))).toContain(`encrypted with data key id ${[keyId(K1), keyId(K2)].join(', ')}`);
    } finally {
      await db.drop();
    }
  });

  test('a database from before the canary: the stored blobs decide; a wrong key refuses, the right one writes the canary; an altered canary is refused', async ({ newGateway }) => {
    const gw = await newGateway(); // its vault wrote the token; no canary yet (that is written at start)
    await tokenFor(gw);
    expect(await gw.db.query('SELECT key_id FROM vault_canary')).toEqual([]);
    expect(await refused(check(gw.db, K2))).toContain(`encrypted with data key id ${gw.vault.currentKeyId}`);
    expect(await gw.db.query('SELECT key_id FROM vault_canary')).toEqual([]); // a refusal writes nothing
    const warnings: string[] = [];
    expect(await checkDataKey(gw.db, gw.vault, new Date(), (w) => warnings.push(w))).toBe('created');
    expect(warnings).toEqual([]);
    expect(await gw.db.query('SELECT key_id FROM vault_canary')).toEqual([{ key_id: gw.vault.currentKeyId }]);
    await gw.db.query("UPDATE vault_canary SET blob = replace(blob, 'v2.', 'v1.')");
    expect(await refused(checkDataKey(gw.db, gw.vault, new Date()))).toContain('does not decrypt');
  });
});
