// /docs in a real browser: Swagger UI, served by the gateway under its strict page CSP, renders
// every operation of /api/v1/openapi.json, with nothing refused by the policy and no script error.
import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type GatewayProcess, launchChromium, startGateway } from './gateway.js';

let server: GatewayProcess;
let browser: Browser;
beforeAll(async () => {
  server = await startGateway();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('/docs renders every operation with no CSP violation, script error or remote request', async () => {
  const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
  const operations = Object.values<Record<string, unknown>>(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);

  const page = await browser.newPage();
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('request', (r) => requested.push(r.url()));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP refused ${e.blockedURI} (${e.violatedDirective})`));
  });
  await page.goto(`${server.url}/docs`);
  await page.locator('.opblock').nth(operations - 1).waitFor({ timeout: 30_000 });
  expect(await page.locator('.opblock').count()).toBe(operations);
  expect(await page.locator('.info .title').textContent()).toContain('Tessera payment gateway');

  // An operation opens with its parameters and its answers (POST /charge: the 402 of a decline).
  const charge = page.locator('#operations-charge-post_charge');
  await charge.locator('.opblock-summary').click();
  await expect.poll(() => charge.locator('.responses-table').textContent()).toContain('card declined');

  expect(problems).toEqual([]);
  expect(requested.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:'))).toEqual([]);
  await page.close();
});
