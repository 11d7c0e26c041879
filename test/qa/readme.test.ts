import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestGateway, startTestGateway } from '../../server/testing/index.js';
import { launchChromium } from '../e2e/gateway.js';
import { freePort } from '../server/notify/notify-fixtures.js';
import { filled, quickstart, quickstartNames } from './readme-blocks.js';

// The README's quick start for a checkout page and a merchant server, as written there, against a
// real gateway in Chromium: only the keys, the gateway's address and the shop's port are replaced.
// (The QA blocks run in test/qa/package.test.ts, where the package is installed.)

let gw: TestGateway;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'tessera-quickstart-'));

beforeAll(async () => {
  [gw, browser] = await Promise.all([startTestGateway(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await gw?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the checkout page and the merchant server of the quick start take a payment', async () => {
  const port = await freePort();
  const keys = { url: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey, port };
  writeFileSync(join(dir, 'checkout.html'), filled(quickstart('checkout'), keys));
  writeFileSync(join(dir, 'server.mjs'), filled(quickstart('server'), keys));
  expect(quickstart('checkout')).toContain('test_pk_…');
  expect(quickstart('server')).toContain('test_sk_…');

  const shop = spawn(process.execPath, ['server.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  shop.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  try {
    await new Promise<void>((resolve, reject) => {
      shop.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes(`shop on http://127.0.0.1:${port}`)) resolve();
      });
      shop.on('exit', (code) => reject(new Error(`server.mjs exited ${code}: ${out}`)));
    });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole('button', { name: 'Pay $19.99' }).click();
    await expect.poll(() => page.locator('#result').textContent(), { timeout: 15_000 }).toBe('Paid: SETTLED');
    const { list } = (await gw.request('GET', '/transactions')).body as { list: { amount_settled: number; description: string }[] };
    expect(list[0]).toMatchObject({ amount_settled: 1999, description: 'Order 42' });
  } finally {
    shop.kill();
  }
});

test('every quick-start block of the README is one the suite runs', () => {
  // checkout and server: here; qa-install, qa, qa-run and qa-shop-fixture: package.test.ts.
  // A new block needs a test that runs it as written, and its name here.
  expect(quickstartNames(), 'README.md quickstart blocks').toEqual(['checkout', 'server', 'qa-install', 'qa', 'qa-run', 'qa-shop-fixture']);
});
