import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { buildSnapshot, migratedSnapshot, snapshotPath } from '../../server/db/snapshot.js';
import { TestGateway, cardData, cards, prepareSnapshot, startTessera, startTestGateway } from '../../server/testing/index.js';

// startTessera({ storage: 'memory' }) and its test wrapper: a real gateway per worker, isolated,
// fast once the migrated snapshot is cached, with a fixed clock and merchant settings on request.

const started: TestGateway[] = [];
const start = async (opts: Parameters<typeof startTestGateway>[0] = {}) => {
  const gw = await startTestGateway(opts);
  started.push(gw);
  return gw;
};
afterAll(async () => {
  await Promise.all(started.map((g) => g.close()));
});

beforeAll(async () => {
  await prepareSnapshot(); // later starts in this file are warm
});

const portClosed = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const s = connect(Number(port), hostname);
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });

describe('startTessera({ port: 0, storage: "memory" })', () => {
  test('listens on a free port with a demo merchant and test keys; close() frees the port', async () => {
    const t0 = performance.now();
    const gw = await startTessera({ port: 0, storage: 'memory' });
    const ms = performance.now() - t0;
    try {
      expect(gw.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(gw.tokenizerUrl).toBe(`${gw.url}/tokenizer.js`);
      expect(gw.publicKey).toMatch(/^test_pk_[0-9a-f]{55}$/);
      expect(gw.privateKey).toMatch(/^test_sk_[0-9a-f]{55}$/);
      expect(gw.merchantId).toMatch(/^mer_/);
      // Loaded from the snapshot: its recipe dropped the template databases, initdb would have made them.
      expect(await gw.db.query('SELECT datname FROM pg_database ORDER BY 1')).toEqual([{ datname: 'postgres' }]);
      // A generous bound (shared CI machines); `npm run bench` reports the real figure.
      expect(ms).toBeLessThan(15_000);
    } finally {
      await gw.close();
    }
    expect(await portClosed(gw.url)).toBe(true);
  });

  test('gateways started side by side share nothing: keys, records, ports', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.url).not.toBe(b.url);
    const token = await a.tokenize(cardData(cards.visa));
    expect((await a.charge(token, 1000)).ok).toBe(true);
    // a's key means nothing to b, and b has no transaction.
    expect((await b.request('GET', '/transactions', undefined, { key: a.privateKey })).status).toBe(401);
    expect((await b.request('GET', '/transactions')).body.meta.total_results).toBe(0);
    expect((await a.request('GET', '/transactions')).body.meta.total_results).toBe(1);
  });

  test('clockStart fixes the gateway clock (then it runs at real speed)', async () => {
    const gw = await start({ clockStart: '2031-02-03T04:05:06.000Z' });
    const token = await gw.tokenize(cardData(cards.visa));
    const { body } = await gw.request('GET', `/tokens/${token}`);
    const created = new Date(body.created_at).getTime();
    expect(created).toBeGreaterThanOrEqual(Date.parse('2031-02-03T04:05:06.000Z'));
    expect(created).toBeLessThan(Date.parse('2031-02-03T04:05:06.000Z') + 60_000);
    expect(new Date(body.expires_at).getTime() - created).toBe(15 * 60_000);
  });

  test('settings switch on CVV and ZIP checks for the demo merchant', async () => {
    const gw = await start({ settings: { cvv_check: true, zip_check: true } });
    expect((await gw.request('GET', '/settings')).body).toMatchObject({ cvv_check: true, zip_check: true });
    const noCvv = await gw.charge(await gw.tokenize(cardData(cards.visa, { csc: undefined })), 500);
    expect(noCvv.errors[0].code).toBe('CPCVV2');
    const zipFails = await gw.charge(await gw.tokenize(cardData(cards.zipFailure)), 500);
    expect(zipFails.errors[0].code).toBe('82004');
    // reset() wipes the records and puts the start settings back.
    await gw.settings({ cvv_check: false });
    await gw.reset();
    expect((await gw.request('GET', '/settings')).body).toMatchObject({ cvv_check: true, zip_check: true });
  });

  test('rate limits are off in test gateways unless asked for', async () => {
    const gw = await start();
    const refused = await Promise.all(Array.from({ length: 40 }, () => gw.request('POST', '/tokens', cardData(cards.visa, { card_number: cards.realCardNumber }), { key: gw.publicKey })));
    expect(new Set(refused.map((r) => r.body.errors?.[0].code))).toEqual(new Set(['TEST01']));
    const limited = await start({ rateLimits: { perIp: 3, perKey: 0, failures: 0 } });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await limited.request('POST', '/tokens', cardData(cards.visa), { key: limited.publicKey })).status);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe('the in-memory snapshot cache', () => {
  const dirs: string[] = [];
  const saved = process.env.TESSERA_SNAPSHOT_DIR;
  const useDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-snapshot-test-'));
    dirs.push(dir);
    process.env.TESSERA_SNAPSHOT_DIR = dir;
    return dir;
  };
  afterEach(() => {
    if (saved === undefined) delete process.env.TESSERA_SNAPSHOT_DIR;
    else process.env.TESSERA_SNAPSHOT_DIR = saved;
  });
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test('is keyed by the PGlite version and the migrations, and holds every migration', async () => {
    const dir = useDir();
    const path = snapshotPath(dir);
    expect(path).toMatch(/pglite-\d+\.\d+\.\d+-[0-9a-f]{16}\.tar$/);
    await buildSnapshot(path);
    expect(existsSync(path)).toBe(true);
    const db = await openDatabase({});
    try {
      const versions = (await db.query('SELECT version FROM schema_migrations ORDER BY 1')).map((r) => r.version);
      expect(versions.length).toBeGreaterThanOrEqual(3);
      expect(versions[0]).toBe('001_foundation.sql');
      expect(await db.query('SELECT datname FROM pg_database')).toEqual([{ datname: 'postgres' }]);
    } finally {
      await db.close();
    }
  });

  test('a damaged cache file never stops a start: plain initdb instead', async () => {
    const dir = useDir();
    writeFileSync(snapshotPath(dir), 'not a tarball');
    const db = await openDatabase({});
    try {
      expect((await db.query('SELECT count(*)::int AS n FROM merchants'))[0].n).toBe(0);
    } finally {
      await db.close();
    }
  });

  test('while another process builds it, a start does not wait; a stale lock is taken over', async () => {
    const dir = useDir();
    const path = snapshotPath(dir);
    writeFileSync(`${path}.lock`, '');
    expect(await migratedSnapshot()).toBeNull();
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(`${path}.lock`, old, old);
    // memo: the null above is forgotten, so this call retries and takes the stale lock over.
    expect(await migratedSnapshot()).not.toBeNull();
    expect(existsSync(path)).toBe(true);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
