import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { systemChromiumPaths } from '../../server/testing/chromium.js';
import { freePort } from '../server/notify/notify-fixtures.js';
import { builtFromClean } from '../helpers/built.js';
import { quickstart } from './readme-blocks.js';

// The package as a new user gets it, by the README's quick start as written: `npm pack` in a copy
// of this repository named `tessera` (its `prepare` script builds dist/, as the README's `npm
// install` there does first), a new
// `npm init` project beside it made ES modules, the tarball and @playwright/test installed there,
// and the README's QA test run with `npx playwright test`: no Playwright config, no Playwright
// browser, only the system's Chromium. Then the example project, installed from the same tarball.
// The copy keeps the real dist/ untouched while other suites run from it; its node_modules is this
// repository's, linked (so the README's `npm install` in the clone is skipped). When this checkout's
// dist/ is the build of its own clean tree (a fresh clone's `npm test`: the run built it moments
// ago), the copy takes that dist/, as the README's `npm install` would have left it, and packs it
// with `npm pack --ignore-scripts` instead of building the same tree a second time (~20 s of CPU);
// otherwise (a working copy with edits) the copy has no dist/ and `prepare` builds it.

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// The app the README's shop fixture starts (its startShop), and specs on the fixture and on no page.
const SHOP = `import { createServer } from 'node:http';
export function startShop(gateway) {
  const server = createServer((req, res) => res.end(\`<!doctype html><title>Shop</title><p>Paying with \${gateway.publicKey}</p>\`));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: \`http://127.0.0.1:\${server.address().port}\`,
    close: () => new Promise((done) => server.close(() => done())),
  })));
}
`;
const SHOP_SPEC = `import { test, expect } from './fixtures';

test('the shop runs against the worker gateway', async ({ page, shop, gateway }) => {
  await page.goto(shop.url);
  await expect(page.getByText(\`Paying with \${gateway.publicKey}\`)).toBeVisible();
});
`;
const API_SPEC = `import { test, expect } from 'tessera-gateway/playwright';
import { cardData } from 'tessera-gateway/testing';

test('a charge with no page', async ({ gateway, cards, charge }) => {
  expect((await charge(await gateway.tokenize(cardData(cards.visa)), 1999)).ok).toBe(true);
});
`;

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
/** The README's clone: `<work>/tessera`. */
let clone: string;
let tarball: string;
/** The README's new project, `<work>/shop`, once the tarball and @playwright/test are installed in it. */
let app: string;
/** An empty PLAYWRIGHT_BROWSERS_PATH: Playwright's own browsers are not there. */
let noBrowsers: string;
/** The copy holds this checkout's own clean build (see above). */
let prebuilt = false;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tessera-pack-'));
  // What a git clone holds (tracked files, and new ones not ignored), without dist/.
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, timeoutMs: 30_000 });
  expect(listed.code, listed.out).toBe(0);
  const copy = (clone = join(work, 'tessera'));
  for (const file of new Set(listed.out.split('\0').filter(Boolean))) {
    if (!existsSync(join(ROOT, file)) || /^(examples|node_modules)(\/|$)/.test(file) || file.endsWith('.tgz')) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  expect(existsSync(join(copy, 'dist'))).toBe(false);
  prebuilt = builtFromClean(undefined, { untracked: true });
  if (prebuilt) cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  noBrowsers = join(work, 'no-browsers');
  mkdirSync(noBrowsers);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the ${pkg.name} package`, () => {
  test("the README's install steps, as written: npm pack in the clone, a new npm-init project made ES modules, the tarball and @playwright/test", async () => {
    const steps = quickstart('qa-install');
    expect(steps).toContain('(cd tessera && npm install && npm pack)');
    // What a user's `npm install` and `npm pack` run to build dist/: this checkout's build step does the same.
    expect(pkg.scripts.prepare).toBe('npm run build');
    const script = steps.replace('npm install && npm pack', prebuilt ? 'npm pack --ignore-scripts' : 'npm pack');
    const { code, out } = await run('sh', ['-e', '-c', script], { cwd: work, timeoutMs: 420_000, env: { ...npmEnv, npm_config_prefer_offline: 'true' } });
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/EBADENGINE/);
    tarball = join(clone, `${pkg.name}-${pkg.version}.tgz`);
    expect(existsSync(tarball), out).toBe(true);
    const shop = JSON.parse(readFileSync(join(work, 'shop', 'package.json'), 'utf8'));
    expect(shop.type).toBe('module');
    expect(Object.keys(shop.devDependencies).sort()).toEqual(['@playwright/test', pkg.name]);
    app = join(work, 'shop');
  }, 480_000);

  test('is named after a package that is ours, and its tarball carries the built code', async () => {
    expect(tarball, 'the install test runs first').toBeDefined();
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

  test('the installed package tokenizes and charges from Node', async () => {
    expect(app, 'the install test runs first').toBeDefined();
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
  }, 120_000);

  test("the README's QA test and shop fixture pass, as written, with no Playwright config and only the system's Chromium", async () => {
    expect(app, 'the install test runs first').toBeDefined();
    mkdirSync(join(app, 'tests'), { recursive: true });
    writeFileSync(join(app, 'tests', 'pay.spec.ts'), quickstart('qa'));
    writeFileSync(join(app, 'tests', 'fixtures.ts'), quickstart('qa-shop-fixture'));
    // What the README leaves to the reader: an app with startShop(gateway), and a spec on the fixture.
    writeFileSync(join(app, 'shop.mjs'), SHOP);
    writeFileSync(join(app, 'tests', 'shop.spec.ts'), SHOP_SPEC);
    expect(readdirSync(app).filter((f) => f.startsWith('playwright.config'))).toEqual([]);

    // This machine's browser is the system's; Playwright's own is not where Playwright looks.
    const env = { CI: '1', FORCE_COLOR: '0', PLAYWRIGHT_BROWSERS_PATH: noBrowsers, CHROMIUM_PATH: undefined };
    const own = await run(process.execPath, ['--input-type=module', '-e', "console.log((await import('@playwright/test')).chromium.executablePath())"], { cwd: app, timeoutMs: 30_000, env });
    expect(own.code, own.out).toBe(0);
    expect(own.out.trim().startsWith(noBrowsers), own.out).toBe(true);
    expect(existsSync(own.out.trim())).toBe(false);
    expect(systemChromiumPaths().some((p) => existsSync(p)), `no system Chromium: ${systemChromiumPaths().join(', ')}`).toBe(true);

    const { code, out } = await run('sh', ['-e', '-c', quickstart('qa-run')], { cwd: app, timeoutMs: 150_000, env });
    expect(code, out).toBe(0);
    expect(out).toMatch(/\b2 passed/);
    expect(out).not.toMatch(/failed|flaky|skipped/);
  }, 180_000);

  test('with no Chromium where the kit looks, a test that opens a page fails naming the places tried; one without a page passes', async () => {
    expect(app, 'the install test runs first').toBeDefined();
    writeFileSync(join(app, 'tests', 'api.spec.ts'), API_SPEC);
    const wrong = join(work, 'no-chromium', 'chrome');
    const cli = join(app, 'node_modules', '@playwright', 'test', 'cli.js');
    const { code, out } = await run(process.execPath, [cli, 'test', '--reporter=line'], {
      cwd: app, timeoutMs: 150_000, env: { CI: '1', FORCE_COLOR: '0', PLAYWRIGHT_BROWSERS_PATH: noBrowsers, CHROMIUM_PATH: wrong },
    });
    expect(code, out).toBe(1);
    expect(out).toMatch(/\b2 failed/);
    expect(out).toMatch(/\b1 passed/);
    expect(out).toMatch(/tessera-gateway\/playwright: no Chromium to launch\. Tried:\s+- CHROMIUM_PATH=\S+no-chromium\/chrome \(no such file\)/);
    expect(out).not.toMatch(/Executable doesn't exist/);
  }, 180_000);

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
      // The HEALTHCHECK once the image's CMD says it listens (a first start: initdb, migrations), and
      // again while it fails: each try is a node process (~0.15 s of CPU), so not every 250 ms from the start.
      for (let i = 0; i < 240 && !/listening on/.test(out) && server.exitCode === null; i++) await new Promise((r) => setTimeout(r, 250));
      let healthy: { code: number | null; out: string } = { code: null, out: '' };
      for (let i = 0; i < 20 && healthy.code !== 0 && server.exitCode === null; i++) {
        healthy = await run(health[0], health.slice(1), { cwd: work, timeoutMs: 3000, env: runEnv });
        if (healthy.code !== 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(healthy.code, out).toBe(0);
      expect(out).toMatch(new RegExp(`listening on http://\\S+:${port}`));
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, out).toBe(0);
  }, 240_000);
});
