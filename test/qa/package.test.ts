import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { freePort } from '../server/notify/notify-fixtures.js';
import { quickstart } from './readme-blocks.js';

// The package as a new user gets it: `npm pack` on an unbuilt copy of this repository (its
// `prepare` script must build dist/), installed from the tarball into an empty project, then the
// example project installed the same way and its Playwright suite run in Chromium.
// The copy keeps the real dist/ untouched while other suites run from it.

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const playwrightVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@playwright', 'test', 'package.json'), 'utf8')).version;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
    const timer = setTimeout(() => {
      out += `\n[killed after ${opts.timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const npmEnv = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let work: string;
let tarball: string;
/** The empty project the tarball is installed into (with @playwright/test), once installed. */
let app: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tessera-pack-'));
  // What a git clone holds (tracked files, and new ones not ignored), without dist/.
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, timeoutMs: 30_000 });
  expect(listed.code, listed.out).toBe(0);
  const copy = join(work, 'repo');
  for (const file of new Set(listed.out.split('\0').filter(Boolean))) {
    if (!existsSync(join(ROOT, file)) || /^(examples|node_modules)(\/|$)/.test(file) || file.endsWith('.tgz')) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  expect(existsSync(join(copy, 'dist'))).toBe(false);
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const packed = await run(npm, ['pack', '--pack-destination', work], { cwd: copy, timeoutMs: 180_000, env: npmEnv });
  expect(packed.code, packed.out).toBe(0);
  tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
  expect(existsSync(tarball), packed.out).toBe(true);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the ${pkg.name} package`, () => {
  test('is named after a package that is ours, and its tarball carries the built code', async () => {
    expect(pkg.name).toBe('tessera-gateway');
    expect(pkg.bin).toEqual({ tessera: 'dist/server/main.js' });
    const listing = await run('tar', ['-tzf', tarball], { cwd: work, timeoutMs: 30_000 });
    expect(listing.code, listing.out).toBe(0);
    const files = listing.out.split('\n');
    for (const f of ['dist/server/main.js', 'dist/server/testing/index.js', 'dist/server/testing/index.d.ts', 'dist/server/playwright.js',
      'dist/tokenizer/tessera.js', 'dist/tokenizer/tessera.mjs', 'server/db/migrations/001_foundation.sql', 'server/public/index.html']) {
      expect(files, f).toContain(`package/${f}`);
    }
    expect(files.some((f) => f.startsWith('package/test/'))).toBe(false);
  });

  test('installs from the tarball into an empty project, without engine warnings, and tokenizes and charges', async () => {
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
    const install = await run(npm, ['install', '--prefer-offline', tarball, `@playwright/test@${playwrightVersion}`], { cwd: app, timeoutMs: 180_000, env: npmEnv });
    expect(install.code, install.out).toBe(0);
    expect(install.out).not.toMatch(/EBADENGINE/);
    writeFileSync(join(app, 'smoke.mjs'), `
      import { startTestGateway, cards, cardData } from '${pkg.name}/testing';
      import { test } from '${pkg.name}/playwright';
      if (typeof test.extend !== 'function') throw new Error('${pkg.name}/playwright is not a Playwright test');
      const gw = await startTestGateway();
      try {
        const token = await gw.tokenize(cardData(cards.visa));
        const result = await gw.charge(token, 1999);
        console.log(JSON.stringify({ ok: result.ok, amount: result.transaction?.amount_settled, status: result.transaction?.status }));
      } finally {
        await gw.close();
      }
    `);
    const smoke = await run(process.execPath, ['smoke.mjs'], { cwd: app, timeoutMs: 60_000 });
    expect(smoke.code, smoke.out).toBe(0);
    expect(JSON.parse(smoke.out.trim().split('\n').pop()!)).toEqual({ ok: true, amount: 1999, status: 'SETTLED' });
  }, 240_000);

  test("the README's quick-start QA suite passes, as written, in that project", async () => {
    expect(app, 'the install test runs first').toBeDefined();
    mkdirSync(join(app, 'tests'), { recursive: true });
    writeFileSync(join(app, 'tests', 'pay.spec.ts'), quickstart('qa'));
    // Only the browser is set here: this machine has Debian's Chromium, not Playwright's download.
    writeFileSync(join(app, 'playwright.config.ts'), `export default { use: { launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ['--no-sandbox'] } } };\n`);
    const cli = join(app, 'node_modules', '@playwright', 'test', 'cli.js');
    const { code, out } = await run(process.execPath, [cli, 'test', '--reporter=line'], { cwd: app, timeoutMs: 120_000, env: { CI: '1', FORCE_COLOR: '0' } });
    expect(code, out).toBe(0);
    expect(out).toMatch(/1 passed/);
  }, 150_000);

  test('the Playwright checkout example, installed from the tarball, passes: pay, receipt, webhook, declines, CVV check', async () => {
    expect(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: node test/setup/ensure-chromium.mjs`).toBe(true);
    const source = join(ROOT, 'examples', 'playwright-checkout');
    const committed = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
    // The example is written against the packed tarball, as a user's project would be.
    expect(committed.devDependencies[pkg.name]).toBe(`file:../../${pkg.name}-${pkg.version}.tgz`);
    const example = join(work, 'example');
    cpSync(source, example, { recursive: true, filter: (p) => !/[/\\](node_modules|test-results|playwright-report)([/\\]|$)/.test(p) && !p.endsWith('.tgz') });
    writeFileSync(join(example, 'package.json'), JSON.stringify({
      ...committed, devDependencies: { ...committed.devDependencies, [pkg.name]: `file:${tarball}` },
    }));
    const install = await run(npm, ['install', '--prefer-offline'], { cwd: example, timeoutMs: 180_000, env: npmEnv });
    expect(install.code, install.out).toBe(0);

    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: example, timeoutMs: 120_000 });
    expect(tsc.code, tsc.out).toBe(0);

    const cli = join(example, 'node_modules', '@playwright', 'test', 'cli.js');
    const { code, out } = await run(process.execPath, [cli, 'test', '--reporter=line'], {
      cwd: example,
      timeoutMs: 200_000,
      env: { CI: '1', CHROMIUM_PATH: CHROMIUM, FORCE_COLOR: '0' },
    });
    expect(code, out).toBe(0);
    const passed = Number(/(\d+) passed/.exec(out)?.[1] ?? 0);
    expect(passed, out).toBeGreaterThanOrEqual(7);
    expect(out).not.toMatch(/\d+ (failed|flaky|skipped)/);
  }, 420_000);

  test('the Dockerfile recipe: non-root, data dir a volume, HOST 0.0.0.0; its CMD serves and its HEALTHCHECK passes', async () => {
    // No container engine here: read the recipe, then do what the image does on this machine.
    const lines = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    const final = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));
    const instr = (name: string) => final.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim());
    const env = Object.fromEntries(instr('ENV').flatMap((l) => l.split(/\s+/).map((kv) => kv.split('=') as [string, string])));
    expect(env).toMatchObject({ HOST: '0.0.0.0', TESSERA_DATA_DIR: '/data' });
    const user = instr('USER').pop();
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(JSON.parse(instr('VOLUME').pop()!)).toContain(env.TESSERA_DATA_DIR);
    const cmd: string[] = JSON.parse(instr('CMD').pop()!);
    const health: string[] = JSON.parse(/CMD (\[.*\])$/.exec(instr('HEALTHCHECK').pop()!)![1]);
    expect(health.join(' ')).toContain('/readyz');
    const install = instr('RUN').find((l) => l.includes('npm install --global'))!;
    expect(install).toContain('--omit=dev');

    // The image's install, into a prefix of our own, then its CMD with its ENV.
    const prefix = join(work, 'image');
    const installed = await run(npm, ['install', '--global', '--omit=dev', '--prefer-offline', '--prefix', prefix, tarball], { cwd: work, timeoutMs: 180_000, env: npmEnv });
    expect(installed.code, installed.out).toBe(0);
    const port = await freePort();
    const runEnv = { ...env, PORT: String(port), TESSERA_DATA_DIR: join(work, 'data'), PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
    const server = spawn(cmd[0], cmd.slice(1), { cwd: work, env: { ...process.env, ...runEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    server.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((r) => server.on('exit', (code) => r(code)));
    try {
      let healthy: { code: number | null; out: string } = { code: null, out: '' };
      for (let i = 0; i < 120 && healthy.code !== 0 && server.exitCode === null; i++) {
        healthy = await run(health[0], health.slice(1), { cwd: work, timeoutMs: 3000, env: runEnv });
        if (healthy.code !== 0) await new Promise((r) => setTimeout(r, 250));
      }
      expect(healthy.code, out).toBe(0);
      expect(out).toMatch(new RegExp(`listening on http://\\S+:${port}`));
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, out).toBe(0);
  }, 240_000);
});
