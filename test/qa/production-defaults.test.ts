import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { MIGRATIONS_DIR, ROOT } from '../../server/paths.js';
import { startTestGateway } from '../../server/testing/index.js';
import { migratedDataDir } from '../helpers/data-template.js';
import { MAIN, ServerProcess, basic, spawnServer } from '../proof/helpers.js';

// `tessera serve` as an operator runs it (the built dist/server/main.js, no --dev) against
// `serve --dev` and the QA kit: what only development mode does (a demo merchant and its printed
// keys, test-mode webhooks to loopback), the line per migration, and the client address in the
// request log (docs/decisions/production-defaults.md).

const root = mkdtempSync(join(tmpdir(), 'tessera-prod-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(root, { recursive: true, force: true });
});
let dirs = 0;
const freshDir = () => join(root, `data-${++dirs}`);
// A copy of this run's migrated template (test/helpers/data-template.ts): no merchant, no key, no
// canary, so every first-start step but initdb and the migrations still runs. For tests of what a
// mode does once started, and for where the data key comes from (a copy has no data.key either).
// A new directory's own defaults (the migration lines, no merchant made) keep freshDir().
const migratedDir = () => migratedDataDir(freshDir());
const serve = async (opts: Parameters<typeof spawnServer>[0]) => {
  const s = await spawnServer(opts);
  servers.push(s);
  return s;
};
const run = promisify(execFile);
const tessera = (args: string[], dataDir: string) =>
  run(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, TESSERA_DATA_DIR: dataDir, DATABASE_URL: '', TESSERA_DATA_KEY: '' } });

const KEY = /(test|live)_(pk|sk)_[0-9a-f]{20,}/;
const logLines = (s: ServerProcess) => s.stdout().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
const migrationFiles = () => readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
const hook = (url: string, key: string) => fetch(`${url}/api/v1/webhooks/strategies`, {
  method: 'POST', headers: { ...basic(key), 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'webhook', url: 'http://127.0.0.1:9/hook' }),
});

describe('tessera serve (production) on an empty data directory', () => {
  const dir = freshDir();

  test('makes no merchant, prints no key, serves no demo, logs each migration once; keys create --name makes the first merchant', async () => {
    const first = await serve({ dataDir: dir, dev: false, logLevel: 'info' });
    expect(first.output()).not.toMatch(KEY);
    expect(first.output()).not.toMatch(/First start|demo merchant/);
    expect(first.merchantId).toBeNull();
    expect(first.output()).toMatch(/^\s*merchants\s+none yet: tessera keys create --name NAME/m);
    expect(first.output()).toMatch(/^\s*test loopback\s+off\b/m);
    expect((await fetch(`${first.url}/demo.js`)).status).toBe(404);
    // One info line per migration applied, naming it, in order.
    const applied = logLines(first).filter((l) => l.migration);
    expect(applied.map((l) => l.migration)).toEqual(migrationFiles());
    expect(applied.every((l) => l.level === 30 && l.msg === `database migration applied: ${l.migration}` && typeof l.ms === 'number')).toBe(true);
    await first.stop();

    const db = await openDatabase({ dataDir: dir });
    try {
      expect(await db.query('SELECT count(*)::int AS n FROM merchants')).toEqual([{ n: 0 }]);
      expect(await db.query('SELECT count(*)::int AS n FROM api_keys')).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }

    // Up to date: no migration line. The operator's first merchant, through the running gateway.
    const again = await serve({ dataDir: dir, dev: false, logLevel: 'info' });
    expect(logLines(again).filter((l) => l.migration)).toEqual([]);
    const made = await tessera(['keys', 'create', '--name', 'Shop'], dir);
    const privateKey = /^private key\s+(test_sk_[0-9a-f]+)$/m.exec(made.stdout)![1];
    const res = await fetch(`${again.url}/api/v1/transactions`, { headers: basic(privateKey) });
    expect(res.status).toBe(200);
    expect(again.output()).not.toMatch(KEY);

    // Test mode cannot make this gateway call its own host.
    const refused = await hook(again.url, privateKey);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { errors: { code: string; message: string }[] };
    expect(body.errors[0].code).toBe('URL01');
    expect(body.errors[0].message).toMatch(/127\.0\.0\.1/);
  });
});

describe('test-mode webhooks to loopback: development only', () => {
  test('serve --dev prints the demo keys and accepts a loopback webhook in test mode', async () => {
    const dev = await serve({ dataDir: await migratedDir(), dev: true });
    expect(dev.privateKey).toMatch(/^test_sk_/);
    expect(dev.output()).toMatch(/^\s*test loopback\s+on\b/m);
    expect((await hook(dev.url, dev.privateKey!)).status).toBe(200);
  });

  test('a production start on a database a development start made warns of the demo merchant and its printed keys', async () => {
    const dir = await migratedDir();
    const dev = await serve({ dataDir: dir, dev: true });
    expect(dev.privateKey).toMatch(/^test_sk_/);
    await dev.stop();
    const prod = await serve({ dataDir: dir, dev: false });
    expect(prod.output()).toMatch(/warning: the demo merchant \S+ of a development start is in this database, and its test keys were printed/);
    expect(prod.output()).not.toMatch(KEY);
    const clean = await serve({ dataDir: await migratedDir(), dev: false });
    expect(clean.output()).not.toMatch(/demo merchant/);
  });

  test('TESSERA_TEST_LOOPBACK=on lets a production gateway allow it (a QA environment)', async () => {
    const dir = await migratedDir();
    const qa = await serve({ dataDir: dir, dev: false, env: { TESSERA_TEST_LOOPBACK: 'on' } });
    const made = await tessera(['keys', 'create', '--name', 'QA'], dir);
    const privateKey = /^private key\s+(test_sk_[0-9a-f]+)$/m.exec(made.stdout)![1];
    expect((await hook(qa.url, privateKey)).status).toBe(200);
  });

  test('the QA kit keeps the demo merchant and loopback webhooks', async () => {
    const gw = await startTestGateway();
    try {
      expect(gw.privateKey).toMatch(/^test_sk_/);
      expect((await hook(gw.url, gw.privateKey)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('the request log names the client address', () => {
  const request = (url: string, forwarded?: string) =>
    fetch(`${url}/healthz`, { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });
  const incoming = (s: ServerProcess) => logLines(s).filter((l) => l.msg === 'incoming request' && l.req?.url === '/healthz');

  test('without TRUST_PROXY: the socket peer, whatever X-Forwarded-For says', async () => {
    const s = await serve({ dataDir: await migratedDir(), dev: false, logLevel: 'info' });
    await request(s.url, '203.0.113.7');
    await new Promise((r) => setTimeout(r, 200));
    const [line] = incoming(s);
    expect(line.req.remoteAddress).toBe('127.0.0.1');
  });

  test('with TRUST_PROXY=127.0.0.1 (the nginx recipe): the address the proxy in front saw', async () => {
    const s = await serve({ dataDir: await migratedDir(), dev: false, logLevel: 'info', env: { TRUST_PROXY: '127.0.0.1' } }); // docs/deploy/nginx.conf's
    await request(s.url, '198.51.100.1, 203.0.113.7');
    await new Promise((r) => setTimeout(r, 200));
    const [line] = incoming(s);
    expect(line.req.remoteAddress).toBe('203.0.113.7');
  });
});

describe('the Docker recipe: one data key, made once, in a file', () => {
  test('TESSERA_DATA_KEY_FILE: a second run on the same data starts, and no key is written beside the data', async () => {
    const dir = await migratedDir();
    const keyFile = join(root, 'tessera-data.key');
    writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const env = { TESSERA_DATA_KEY_FILE: keyFile };
    const first = await serve({ dataDir: dir, dev: false, env });
    expect(first.output()).not.toMatch(/generated a data encryption key/);
    await first.stop();
    const second = await serve({ dataDir: dir, dev: false, env });
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    expect(existsSync(join(dir, 'data.key'))).toBe(false);
  });
});
