import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONTROL_FILE } from '../../server/control-file.js';
import { redactKey } from '../../server/domain/merchant/keys.js';
import { ROOT } from '../../server/paths.js';
import { migratedDataDir } from '../helpers/data-template.js';
import { MAIN, PG_URL, PgDatabase, ServerProcess, basic, freshPgDatabase, spawnServer } from '../proof/helpers.js';
import { freePort } from '../server/notify/notify-fixtures.js';

// The `tessera` command as a user runs it: the built dist/server/main.js (npm run build, or
// `npx tsc -p tsconfig.build.json`), in its own temporary data directory, PORT=0.
const root = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
/** A data directory path that does not exist yet. */
const freshDir = () => join(root, `data-${++dirs}`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tessera(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<Run> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.TESSERA_DATA_KEY;
  Object.assign(childEnv, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_DATA_DIR: dataDir, ...env });
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** One line on stderr, nothing on stdout, no stack frame. */
function expectOneLine(run: Run, pattern: RegExp): void {
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
  expect(run.stderr).toMatch(/^tessera: /);
  expect(run.stderr).toMatch(pattern);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

describe('help and version: exit 0, start and create nothing', () => {
  const cases: [string[], string][] = [
    [['--help'], 'tessera keys create'],
    [['-h'], 'tessera serve'],
    [['help'], 'tessera data-key reencrypt'],
    [['help', 'keys', 'list'], 'tessera keys list --merchant ID'],
    [['serve', '--help'], 'tessera serve [--dev]'],
    [['serve', '-h'], 'tessera serve [--dev]'],
    [['serve', '--dev', '--help'], 'tessera serve [--dev]'],
    [['keys', '--help'], 'tessera keys list'],
    [['keys', 'create', '--help'], '--expire-old now|1h|never'],
    [['keys', 'create', '--merchant', 'mer_x', '-h'], '--expire-old now|1h|never'],
    [['keys', 'list', '--help'], 'tessera keys list --merchant ID'],
    [['keys', '--merchant', 'list', 'create', '--help'], '--expire-old now|1h|never'],
    [['data-key', '--help'], 'tessera data-key reencrypt'],
    [['data-key', 'reencrypt', '--help'], '--batch N'],
  ];
  test.each(cases)('tessera %j prints its usage', async (args, expected) => {
    const dir = freshDir();
    const run = await tessera(args, dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('usage:');
    expect(run.stdout).toContain(expected);
    expect(existsSync(dir)).toBe(false);
  });

  test('help does not even read the configuration: an invalid PORT does not matter', async () => {
    const dir = freshDir();
    const run = await tessera(['serve', '--help'], dir, { PORT: 'not-a-port', LOG_LEVEL: 'loud' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tessera serve [--dev]');
    const serve = await tessera(['serve'], dir, { PORT: 'not-a-port' });
    expect(serve.code).toBe(1);
    expect(serve.stderr.trimEnd().split('\n'), serve.stderr).toEqual([expect.stringMatching(/^PORT must be a port number/)]);
    expect(existsSync(dir)).toBe(false);
  });

  test.each([['--version'], ['-v']])('tessera %s prints the package version and the build\'s commit', async (flag) => {
    const dir = freshDir();
    const run = await tessera([flag], dir);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(new RegExp(`^tessera ${VERSION.replace(/\./g, '\\.')} \\(commit \\S+\\)$`));
    expect(existsSync(dir)).toBe(false);
  });
});

describe('usage mistakes: one line, exit 2, nothing created', () => {
  const cases: [string[], RegExp][] = [
    [['--foo'], /unknown option --foo; tessera --help lists the options/],
    [['frobnicate'], /unknown command frobnicate; tessera --help/],
    [['serve', '--foo'], /unknown option --foo; tessera serve --help/],
    [['serve', '--dev=yes'], /--dev takes no value/],
    [['serve', 'extra'], /unexpected argument extra/],
    [['keys'], /keys needs a command: create or list/],
    [['keys', '--merchant', 'mer_x'], /keys needs a command: create or list/],
    [['keys', 'frob'], /unknown command keys frob; tessera keys --help/],
    [['keys', 'create', '--foo', 'bar'], /unknown option --foo; tessera keys create --help/],
    [['keys', 'create', '-x'], /unknown option -x/],
    [['keys', 'create', '--merchant'], /option --merchant needs a value/],
    [['keys', 'create', '--merchant', '--name', 'Shop'], /option --merchant needs a value/],
    [['keys', 'create', '--env', 'prod'], /--env must be test or live, got "prod"/],
    [['keys', 'create', '--expire-old', 'later'], /--expire-old must be now, 1h or never/],
    [['keys', 'create', '--env', 'test', '--env', 'live'], /--env is given twice/],
    [['keys', 'list'], /keys list needs --merchant ID/],
    [['data-key'], /data-key needs a command: reencrypt/],
    [['data-key', 'reencrypt', '--batch', '0'], /--batch must be a whole number from 1 to 10000/],
    [['data-key', 'reencrypt', '--batch', '2.5'], /--batch must be a whole number/],
  ];
  test.each(cases)('tessera %j', async (args, pattern) => {
    const dir = freshDir();
    const run = await tessera(args, dir);
    expectOneLine(run, pattern);
    expect(run.code).toBe(2);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('unknown merchants: one line, exit 1', () => {
  test('in a data directory that does not exist: said so, and the directory is not created', async () => {
    const dir = freshDir();
    for (const args of [['keys', 'list', '--merchant', 'mer_nope'], ['keys', 'create', '--merchant', 'mer_nope']]) {
      const run = await tessera(args, dir);
      expectOneLine(run, /no merchant mer_nope/);
      expect(run.code).toBe(1);
    }
    expect(existsSync(dir)).toBe(false);
  });

  test('in a database without a gateway running: create makes a merchant; unknown ones are refused; list shows the set', async () => {
    const dir = freshDir();
    const created = await tessera(['keys', 'create', '--name', 'Shop'], dir);
    expect(created.code, created.stderr).toBe(0);
    const merchant = /^merchant\s+(mer_[0-9a-f]+)$/m.exec(created.stdout)![1];
    const privateKey = /^private key\s+(test_sk_[0-9a-f]+)$/m.exec(created.stdout)![1];
    for (const args of [['keys', 'list', '--merchant', 'mer_nope'], ['keys', 'create', '--merchant', 'mer_nope']]) {
      const run = await tessera(args, dir);
      expectOneLine(run, /no merchant mer_nope; tessera keys create without --merchant creates a merchant/);
      expect(run.code).toBe(1);
    }
    const list = await tessera(['keys', 'list', '--merchant', merchant], dir);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(redactKey(privateKey));
    expect(list.stdout).not.toContain(privateKey);
  });
});

describe('keys create and list while tessera serve runs on the same data directory', () => {
  const dir = freshDir();
  let server: ServerProcess;
  beforeAll(async () => {
    // A copy of the migrated template (test/helpers/data-template.ts): the control file and the
    // key commands beside a running gateway are proven here, not the first start.
    server = await spawnServer({ dataDir: await migratedDataDir(dir) });
  });
  afterAll(() => server?.crash());

  test('the control file: 0600 in a 0700 directory, this gateway, a loopback URL', () => {
    const file = join(dir, CONTROL_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const control = JSON.parse(readFileSync(file, 'utf8'));
    expect(control.pid).toBe(server.pid);
    expect(control.url).toBe(server.url);
    expect(control.token).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a key set for the demo merchant authenticates against the running gateway, and the list shows it', async () => {
    const run = await tessera(['keys', 'create', '--merchant', server.merchantId!, '--expire-old', 'never'], dir);
    expect(run.code, run.stderr).toBe(0);
    const privateKey = /^private key\s+(test_sk_[0-9a-f]{55})$/m.exec(run.stdout)![1];
    const res = await fetch(`${server.url}/api/v1/transactions`, { headers: basic(privateKey) });
    expect(res.status).toBe(200);
    const old = await fetch(`${server.url}/api/v1/transactions`, { headers: basic(server.privateKey!) });
    expect(old.status).toBe(200); // --expire-old never

    const list = await tessera(['keys', 'list', '--merchant', server.merchantId!], dir);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(redactKey(privateKey));
    expect(list.stdout).toContain(redactKey(server.privateKey!));
    expect(list.stdout.trim().split('\n')).toHaveLength(4);
  });

  test('a new merchant: its key works at once; --expire-old now retires its older set at once', async () => {
    const first = await tessera(['keys', 'create', '--name', 'Shop'], dir);
    expect(first.code, first.stderr).toBe(0);
    const merchant = /^merchant\s+(mer_[0-9a-f]+)$/m.exec(first.stdout)![1];
    const key1 = /^private key\s+(test_sk_[0-9a-f]+)$/m.exec(first.stdout)![1];
    expect((await fetch(`${server.url}/api/v1/transactions`, { headers: basic(key1) })).status).toBe(200);
    const second = await tessera(['keys', 'create', '--merchant', merchant], dir);
    expect(second.code, second.stderr).toBe(0);
    const key2 = /^private key\s+(test_sk_[0-9a-f]+)$/m.exec(second.stdout)![1];
    expect((await fetch(`${server.url}/api/v1/transactions`, { headers: basic(key2) })).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/transactions`, { headers: basic(key1) })).status).toBe(401);
  });

  test('unknown merchants through the gateway: one line, exit 1', async () => {
    for (const args of [['keys', 'list', '--merchant', 'mer_nope'], ['keys', 'create', '--merchant', 'mer_nope']]) {
      const run = await tessera(args, dir);
      expectOneLine(run, /no merchant mer_nope/);
      expect(run.code).toBe(1);
    }
  });

  test('the admin route refuses a wrong token and is absent from /api/v1/openapi.json', async () => {
    const control = JSON.parse(readFileSync(join(dir, CONTROL_FILE), 'utf8'));
    const url = `${server.url}/_tessera/admin/keys?merchant=${server.merchantId}`;
    const wrong = await fetch(url, { headers: { authorization: `Bearer ${'0'.repeat(64)}` } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).errors[0].code).toBe('ADMIN01');
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${control.token}` } })).status).toBe(200);
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toContain('/charge');
    expect(Object.keys(doc.paths).filter((p) => /admin|_tessera/.test(p))).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('/_tessera/');
  });

  test('after kill -9 the control file is stale and ignored; a restart replaces it; a clean stop removes it', async () => {
    await server.crash();
    expect(existsSync(join(dir, CONTROL_FILE))).toBe(true);
    const stale = await tessera(['keys', 'list', '--merchant', server.merchantId!], dir);
    expect(stale.code, stale.stderr).toBe(0); // straight on the database: the lock's owner is gone
    expect(stale.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(4);

    const merchant = server.merchantId!;
    server = await spawnServer({ dataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, CONTROL_FILE), 'utf8')).pid).toBe(server.pid);
    const via = await tessera(['keys', 'list', '--merchant', merchant], dir);
    expect(via.code, via.stderr).toBe(0);
    await server.stop();
    expect((await server.exited).code).toBe(0);
    expect(existsSync(join(dir, CONTROL_FILE))).toBe(false);
    expect(existsSync(join(dir, 'tessera.lock'))).toBe(false);
  });
});

describe('a holder that cannot take the command: the message says what to do', () => {
  // This test process stands in for the holder: alive, and not the command's own pid.
  const holdBy = (dir: string, control?: object) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'tessera.lock'), String(process.pid));
    if (control) writeFileSync(join(dir, CONTROL_FILE), JSON.stringify(control), { mode: 0o600 });
  };

  test('no control file (a gateway still starting, a data-key run): one line naming the process, exit 1', async () => {
    const dir = freshDir();
    holdBy(dir);
    const run = await tessera(['keys', 'list', '--merchant', 'mer_x'], dir);
    expectOneLine(run, new RegExp(`process ${process.pid} holds the data directory .* takes no key commands.*kill ${process.pid}`));
    expect(run.code).toBe(1);
  });

  test('a gateway that does not answer: one line with its URL and what to do, exit 1', async () => {
    const dir = freshDir();
    const port = await freePort();
    holdBy(dir, { pid: process.pid, url: `http://127.0.0.1:${port}`, listen: `http://127.0.0.1:${port}`, token: 'ab'.repeat(32) });
    const run = await tessera(['keys', 'create', '--name', 'Shop'], dir);
    expectOneLine(run, new RegExp(`did not answer at http://127.0.0.1:${port} .*check that it is running.*kill ${process.pid}`));
    expect(run.code).toBe(1);
  });

  test('a control file naming another machine is not followed (the token goes to loopback only)', async () => {
    const dir = freshDir();
    holdBy(dir, { pid: process.pid, url: 'http://203.0.113.7:8080', listen: 'http://203.0.113.7:8080', token: 'ab'.repeat(32) });
    const run = await tessera(['keys', 'list', '--merchant', 'mer_x'], dir);
    expectOneLine(run, /listens on http:\/\/203\.0\.113\.7:8080 only/);
    expect(run.code).toBe(1);
  });

  test('a gateway bound to a non-loopback address only: one line naming HOST, exit 1', async () => {
    const dir = freshDir();
    holdBy(dir, { pid: process.pid, url: null, listen: 'http://192.0.2.10:8080', token: 'ab'.repeat(32) });
    const run = await tessera(['keys', 'list', '--merchant', 'mer_x'], dir);
    expectOneLine(run, /listens on http:\/\/192\.0\.2\.10:8080 only.*HOST=0\.0\.0\.0 or HOST=127\.0\.0\.1/);
    expect(run.code).toBe(1);
  });
});

describe.runIf(PG_URL)('PostgreSQL (DATABASE_URL): no lock, the command uses the database while a gateway runs', () => {
  let db: PgDatabase;
  let server: ServerProcess;
  const dataKey = Buffer.alloc(32, 7).toString('base64');
  beforeAll(async () => {
    db = await freshPgDatabase('cli');
    server = await spawnServer({ databaseUrl: db.url, dataKey });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  test('keys create authenticates at once on the running node; list shows it; unknown merchants exit 1', async () => {
    const env = { DATABASE_URL: db.url };
    const dir = freshDir(); // never used on PostgreSQL
    const run = await tessera(['keys', 'create', '--merchant', server.merchantId!, '--expire-old', 'never'], dir, env);
    expect(run.code, run.stderr).toBe(0);
    const privateKey = /^private key\s+(test_sk_[0-9a-f]{55})$/m.exec(run.stdout)![1];
    expect((await fetch(`${server.url}/api/v1/transactions`, { headers: basic(privateKey) })).status).toBe(200);
    const list = await tessera(['keys', 'list', '--merchant', server.merchantId!], dir, env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(redactKey(privateKey));
    const unknown = await tessera(['keys', 'list', '--merchant', 'mer_nope'], dir, env);
    expectOneLine(unknown, /no merchant mer_nope/);
    expect(unknown.code).toBe(1);
    expect(existsSync(dir)).toBe(false);
  });
});
