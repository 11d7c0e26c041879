// Issue 15.9, as an operator meets it: `tessera serve` keeps stdout for JSON log lines (the key
// banner is on stderr), every answer's X-Request-Id is the reqId of its log lines, and a
// misconfiguration stops the start with one line naming the variable and the cause, no stack.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { freePort } from '../server/notify/notify-fixtures.js';
import { migratedDataDir } from '../helpers/data-template.js';
import { Client, MAIN, PG_URL, spawnServer } from './helpers.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tessera-ops-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `tessera serve` with these variables until it exits (on `dataDir`, else an empty one): its exit code, stdout and stderr apart. */
function serve(env: Record<string, string>, dataDir = tempDir()): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_DATA_DIR: dataDir };
  for (const k of ['DATABASE_URL', 'TESSERA_DATA_KEY', 'TESSERA_DATA_KEYS_RETIRED', 'TRUST_PROXY', 'REDIS_URL']) delete base[k];
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  // A start that does not fail is a failed test: stop it so the test reports rather than hangs.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stdout, stderr });
  }));
}

describe('a misconfigured start: exit 1, one line on stderr naming the variable and the cause, no stack', () => {
  const cases: [string, () => Promise<Record<string, string>>, RegExp][] = [
    ['PORT not a number', async () => ({ PORT: 'http' }), /^PORT must be a port number 0-65535, got "http"$/],
    ['PORT out of range', async () => ({ PORT: '70000' }), /^PORT .*"70000"/],
    ['LOG_LEVEL unknown', async () => ({ LOG_LEVEL: 'loud' }), /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"$/],
    ['TRUST_PROXY not a boolean', async () => ({ TRUST_PROXY: 'maybe' }), /^TRUST_PROXY must be true or false, a number of proxies in front, or their addresses\/CIDR blocks, got "maybe"$/],
    ['DATABASE_URL malformed', async () => ({ DATABASE_URL: 'not a url' }), /^DATABASE_URL is not a URL$/],
    ['DATABASE_URL not PostgreSQL', async () => ({ DATABASE_URL: 'mysql://db.example/x' }), /^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/$/],
    ['DATABASE_URL unreachable', async () => ({
      DATABASE_URL: `postgres://tessera:s3cret-pw@127.0.0.1:${await freePort()}/tessera`, TESSERA_DATA_KEY: randomBytes(32).toString('base64'),
    }), /^DATABASE_URL: cannot use PostgreSQL at 127\.0\.0\.1:\d+\/tessera: .*ECONNREFUSED/],
    ...(PG_URL ? [['DATABASE_URL naming a database that does not exist', async () => {
      const u = new URL(PG_URL!);
      u.pathname = '/no_such_tessera_db';
      return { DATABASE_URL: u.toString(), TESSERA_DATA_KEY: randomBytes(32).toString('base64') };
    }, /^DATABASE_URL: cannot use PostgreSQL at .*\/no_such_tessera_db: database "no_such_tessera_db" does not exist \(3D000\)$/] as (typeof cases)[number]] : []),
  ];
  test.each(cases)('%s', async (_, env, expected) => {
    const res = await serve(await env());
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n'), res.stderr).toHaveLength(1);
    expect(res.stderr.trim()).toMatch(expected);
    expect(res.stderr).not.toMatch(/\n\s+at |s3cret-pw/);
    expect(res.stdout).toBe('');
  });

  test('PORT in use', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const { port } = taken.address() as AddressInfo;
    try {
      // A migrated directory (test/helpers/data-template.ts): the port is what this proves, not the first start.
      const res = await serve({ PORT: String(port), TESSERA_DATA_KEY: randomBytes(32).toString('base64') }, await migratedDataDir(tempDir()));
      expect(res.code).toBe(1);
      // Warnings of the start so far may come first (warning: …); the failure is one line.
      const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('warning: '));
      expect(lines, res.stderr).toHaveLength(1);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(lines[0]).toBe(`PORT ${port}: 127.0.0.1:${port} is already in use by another process (EADDRINUSE)`);
    } finally {
      taken.close();
    }
  });
});

test('a running node: stdout is JSON log lines only, the banner is on stderr, X-Request-Id is the log lines\' reqId', async () => {
  const server = await spawnServer({ dataDir: await migratedDataDir(tempDir()), logLevel: 'info' });
  const client = new Client(server.url, 2);
  try {
    expect(server.privateKey, 'the banner (on stderr) still gives the demo keys').toMatch(/^test_sk_/);
    const fresh = await client.request({ path: '/api/v1/nothing-here' });
    const mine = await client.request({ path: '/healthz', headers: { 'x-request-id': 'trace-ops-42' } });
    const generated = String(fresh.headers['x-request-id']);
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(mine.headers['x-request-id']).toBe('trace-ops-42');
  } finally {
    client.close();
    await server.stop();
  }
  const lines = server.stdout().split('\n').filter((l) => l.trim() !== '');
  expect(lines.length).toBeGreaterThan(0);
  const parsed = lines.map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new Error(`not a JSON log line on stdout: ${l}`);
    }
  });
  expect(server.stdout()).not.toContain('test_sk_');
  expect(server.output()).toMatch(/Tessera listening on/);
  expect(server.stdout()).not.toMatch(/Tessera listening on/);
  const ids = new Set(parsed.map((p) => p.reqId).filter(Boolean));
  expect(ids).toContain('trace-ops-42');
  expect([...ids].some((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
});
