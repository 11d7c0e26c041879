// Issue 15.4 and 14.14 as an operator meets them, with the built `tessera` command: a node whose
// TESSERA_DATA_KEY cannot read the stored data refuses to start (exit 1, one line naming the
// variable and the key ids, no stack); `tessera data-key reencrypt` moves every stored blob to the
// current key, after which the retired key can be dropped and a node holding only it refuses.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { keyId } from '../../server/vault.js';
import { ENCRYPTED_COLUMNS } from '../../server/vault-homes.js';
import { migratedDataDir } from '../helpers/data-template.js';
import { MAIN, PG_URL, basic, freshPgDatabase, spawnServer } from './helpers.js';

const [K1, K2, K3] = [randomBytes(32), randomBytes(32), randomBytes(32)].map((k) => ({ b64: k.toString('base64'), id: keyId(k) }));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tessera-datakey-'));
  dirs.push(d);
  return join(d, 'data');
};

/** `tessera <args>` until it exits. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_RATE_LIMITS: 'off' };
  for (const k of ['DATABASE_URL', 'TESSERA_DATA_DIR', 'TESSERA_DATA_KEY', 'TESSERA_DATA_KEYS_RETIRED']) delete base[k];
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000); // a start that does not fail must not hang the test
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stdout, stderr });
  }));
}

/** The refusal: exit 1, stdout empty, one stderr line (after any warnings), no stack. */
function expectRefused(res: { code: number | null; stdout: string; stderr: string }): string {
  expect(res.code, res.stderr).toBe(1);
  expect(res.stdout).toBe('');
  const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('warning: '));
  expect(lines, res.stderr).toHaveLength(1);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  return lines[0];
}

async function post(url: string, path: string, key: string, body: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: 'POST', headers: { ...basic(key), 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
/** A customer whose default method is a card (its number encrypted in payment_methods). */
async function customerWithCard(url: string, publicKey: string, privateKey: string): Promise<string> {
  const token = await post(url, '/tokens', publicKey, card);
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const customer = await post(url, '/customers', privateKey, { token: token.body.id });
  expect(customer.status, JSON.stringify(customer.body)).toBe(200);
  return customer.body.id;
}
const card = { card_owner_name: 'Ada Lovelace', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2035, csc: '123' };

// The two blocks run side by side (concurrent): the PostgreSQL one spends 45 s of its 48 s in the
// command's settle wait (DATA_KEY_SETTLE_MS: nodes must have had time to notice the rotation), and
// the embedded one needs no other process of this file (docs/decisions/test-suite-time.md).
describe.concurrent('embedded data directory', () => {
  test('a wrong key refuses to start; reencrypt moves everything to the new key; then the old key alone refuses', async () => {
    // A copy of the migrated template (test/helpers/data-template.ts): no data.key and no canary in
    // it, so K1 is the first key this database sees, as on an empty directory.
    const dir = await migratedDataDir(dataDir());
    const first = await spawnServer({ dataDir: dir, dataKey: K1.b64 });
    const privateKey = first.privateKey!;
    const customer = await customerWithCard(first.url, first.publicKey!, privateKey);
    await first.stop();

    const line = expectRefused(await run(['serve'], { TESSERA_DATA_DIR: dir, TESSERA_DATA_KEY: K2.b64 }));
    expect(line).toMatch(/^TESSERA_DATA_KEY .*TESSERA_DATA_KEYS_RETIRED/);
    expect(line).toContain(`encrypted with data key id ${K1.id}, this node holds key id ${K2.id} (TESSERA_DATA_KEY)`);

    const env = { TESSERA_DATA_DIR: dir, TESSERA_DATA_KEY: K2.b64, TESSERA_DATA_KEYS_RETIRED: K1.b64 };
    const moved = await run(['data-key', 'reencrypt', '--batch', '1'], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^payment_methods\.secret_enc +1 re-encrypted, 1 current, 0 changed meanwhile, 0 unreadable$/m);
    expect(moved.stdout).toContain(`all stored payment data is v2 under data key ${K2.id}; retired keys can be dropped`);
    const again = await run(['data-key', 'reencrypt'], env);
    expect(again.code).toBe(0);
    expect(again.stdout.match(/ 0 re-encrypted/g)).toHaveLength(ENCRYPTED_COLUMNS.length); // idempotent, every encrypted column

    expectRefused(await run(['serve'], { TESSERA_DATA_DIR: dir, TESSERA_DATA_KEY: K1.b64 })); // its canary is gone
    const rotated = await spawnServer({ dataDir: dir, dataKey: K2.b64 }); // no retired key any more
    try {
      const charge = await post(rotated.url, '/charge', privateKey, { customer_id: customer, amount: 1500 });
      expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    } finally {
      await rotated.stop();
    }
  });

  test('data-key reencrypt without TESSERA_DATA_KEY on a directory without data.key refuses, and writes no key', async () => {
    const dir = dataDir();
    const line = expectRefused(await run(['data-key', 'reencrypt'], { TESSERA_DATA_DIR: dir }));
    expect(line).toMatch(/^TESSERA_DATA_KEY is required/);
    expect(existsSync(join(dir, 'data.key'))).toBe(false);
  });
});

describe.runIf(PG_URL).concurrent('PostgreSQL, two nodes', () => {
  test('a second node with another key refuses while the first runs; after reencrypt a node with the new key alone reads the cards', async () => {
    const db = await freshPgDatabase('datakey');
    const a = await spawnServer({ databaseUrl: db.url, dataKey: K1.b64 });
    try {
      const customer = await customerWithCard(a.url, a.publicKey!, a.privateKey!);
      const line = expectRefused(await run(['serve'], { DATABASE_URL: db.url, TESSERA_DATA_KEY: K3.b64 }));
      expect(line).toContain(`encrypted with data key id ${K1.id}, this node holds key id ${K3.id}`);

      // Rotation while node a runs: re-encrypt under K2 (K1 retired), then a node with K2 alone.
      const moved = await run(['data-key', 'reencrypt'], { DATABASE_URL: db.url, TESSERA_DATA_KEY: K2.b64, TESSERA_DATA_KEYS_RETIRED: K1.b64 });
      expect(moved.code, moved.stderr).toBe(0);
      // Issue 27.9: node a still writes under K1, now retired: it says so and stores nothing.
      const ready = await fetch(`${a.url}/readyz`);
      expect({ status: ready.status, body: await ready.json() })
        .toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', data_key: 'unavailable' } } });
      const refused = await fetch(`${a.url}/api/v1/tokens`, {
        method: 'POST', headers: { ...basic(a.publicKey!), 'content-type': 'application/json' }, body: JSON.stringify(card),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect((await refused.json()).errors[0].code).toBe('VAULT03');
      expect(a.stdout()).toContain(`data key id ${K1.id} (TESSERA_DATA_KEY) was retired at`);
      const b = await spawnServer({ databaseUrl: db.url, dataKey: K2.b64 });
      try {
        const charge = await post(b.url, '/charge', a.privateKey!, { customer_id: customer, amount: 1500 });
        expect(charge.status, JSON.stringify(charge.body)).toBe(200);
      } finally {
        await b.stop();
      }
      expectRefused(await run(['serve'], { DATABASE_URL: db.url, TESSERA_DATA_KEY: K1.b64 }));
    } finally {
      await a.stop();
      await db.drop();
    }
  });
});
