import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../server/paths.js';

// examples/playwright-checkout as its user runs it: `npm install` (offline: the one dependency is
// a link to this checkout), then its Playwright suite in Chromium against real gateways.
// Needs `npm run build` (the example imports tessera/playwright from dist) and Chromium, which
// `npm test` provides before vitest starts.

const EXAMPLE = join(ROOT, 'examples', 'playwright-checkout');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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

test('the Playwright checkout example passes: pay, receipt in the outbox, webhook, declines, CVV check', { timeout: 240_000 }, async () => {
  expect(existsSync(join(ROOT, 'dist', 'server', 'playwright.js')), 'run `npm run build` first').toBe(true);
  expect(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: node test/setup/ensure-chromium.mjs`).toBe(true);

  const link = join(EXAMPLE, 'node_modules', 'tessera');
  if (!existsSync(link)) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = await run(npm, ['install', '--offline', '--no-audit', '--no-fund'], { cwd: EXAMPLE, timeoutMs: 120_000 });
    expect(install.code, install.out).toBe(0);
  }
  expect(realpathSync(link)).toBe(realpathSync(ROOT));

  // Its types hold against the package's declarations (what an editor shows its user).
  const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: EXAMPLE, timeoutMs: 120_000 });
  expect(tsc.code, tsc.out).toBe(0);

  // The root's Playwright, which is also the copy `tessera/playwright` loads through the link (one
  // copy only: Playwright refuses a second). `npm test` in the example resolves the same binary.
  const cli = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const started = Date.now();
  const { code, out } = await run(process.execPath, [cli, 'test', '--reporter=line'], {
    cwd: EXAMPLE,
    timeoutMs: 200_000,
    env: { CI: '1', CHROMIUM_PATH: CHROMIUM, FORCE_COLOR: '0' },
  });
  expect(code, out).toBe(0);
  const passed = Number(/(\d+) passed/.exec(out)?.[1] ?? 0);
  expect(passed, out).toBeGreaterThanOrEqual(7);
  expect(out).not.toMatch(/\d+ (failed|flaky|skipped)/);
  console.log(`examples/playwright-checkout: ${passed} passed in ${Date.now() - started} ms`);
});
