// The browser session of the dashboard suite (dashboard.test.ts): one gateway process and one
// Chromium for the file, a fresh context and page per test that must end without page errors or
// failed requests, and the calls the tests share (API from Node, sign in, open a page, screenshots).
// UPDATE_SCREENSHOTS=1 also writes docs/screenshots/*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { GatewayProcess, basicAuth, launchChromium, startGateway } from './gateway.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'screenshots') : null;

// Exported as live bindings: the test file reads the current gateway, context and page.
export let gateway: GatewayProcess | undefined;
let browser: Browser | undefined;
export let context: BrowserContext;
export let page: Page;
/** Requests of `page` started and not yet finished or failed. */
let inFlight = 0;
let pageErrors: Error[];
let failedRequests: string[];
/** Requests a test makes fail on purpose (expectRequestFailure): they must fail, and only they may. */
let expectedFailures: RegExp[];
/** The page's last requests, with how each ended: printed when a test fails. */
let requestLog: string[];
/** The private key the dashboard should be using: the printed one until the keys test rotates it. */
let currentKey: string;

/** The dashboard now uses `key` (after a key rotation); later calls and sign-ins use it too. */
export function useKey(key: string) {
  currentKey = key;
}

/** Registers the suite's hooks; call once at the top level of the test file. */
export function setupDashboard() {
  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    currentKey = gateway.privateKey;
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  beforeEach(async ({ onTestFailed }) => {
    context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    pageErrors = [];
    failedRequests = [];
    expectedFailures = [];
    inFlight = 0;
    requestLog = [];
    const logged = (line: string) => requestLog.push(`${new Date().toISOString().slice(11, 23)} ${line}`) > 40 && requestLog.shift();
    page.on('request', (r) => {
      inFlight++;
      logged(`-> ${r.method()} ${r.url()}`);
    });
    page.on('requestfinished', (r) => {
      inFlight--;
      void r.response().then((res) => logged(`<- ${res?.status()} ${r.url()}`), () => {});
    });
    page.on('pageerror', (e) => pageErrors.push(e));
    page.on('console', (m) => {
      if (m.type() !== 'error' || /status of (404|500)/.test(m.text())) return;
      // The browser's own line for a request the test fails on purpose.
      if (/^Failed to load resource/.test(m.text()) && expectedFailures.some((re) => re.test(m.location().url))) return;
      pageErrors.push(new Error(m.text()));
    });
    page.on('requestfailed', (r) => {
      inFlight--;
      failedRequests.push(r.url());
      logged(`xx ${r.failure()?.errorText} ${r.url()}`);
    });
    onTestFailed(() => console.error(`--- gateway output ---\n${gateway?.output()}`));
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      // What the page showed and asked for when the test gave up: a wait that timed out says little by itself.
      const shown = await page.evaluate(() => ({
        url: location.href, focus: document.activeElement?.id || document.activeElement?.tagName, shows: document.getElementById('view')?.dataset.shows,
        search: document.getElementById('search')?.innerText.slice(0, 2000),
      })).catch((e: Error) => `(page not readable: ${e.message})`);
      console.error(`--- page ---\n${JSON.stringify(shown, null, 1)}\n--- its last requests ---\n${requestLog.join('\n')}`);
    }
    await context?.close();
    expect(pageErrors.map(String), `page errors:\n${pageErrors.join('\n')}`).toEqual([]);
    for (const re of expectedFailures) expect(failedRequests.some((url) => re.test(url)), `no failed request matched ${re}`).toBe(true);
    const unexpected = failedRequests.filter((url) => !expectedFailures.some((re) => re.test(url)));
    expect(unexpected, `failed requests:\n${unexpected.join('\n')}`).toEqual([]);
  });
}

/** This test makes requests to `url` fail on purpose: at least one must fail, and those failures are no error. */
export function expectRequestFailure(url: RegExp) {
  expectedFailures.push(url);
}

export async function api(path: string, init: { method?: string; body?: object; key?: string } = {}) {
  const res = await fetch(`${gateway!.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: basicAuth(init.key ?? currentKey), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function shot(name: string) {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Opens the dashboard and submits the sign-in form, without waiting for what follows. */
export async function submitSignIn(key = currentKey) {
  await quiet();
  await page.goto(`${gateway!.url}/dashboard`);
  await page.getByLabel('Private key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(key = currentKey) {
  await submitSignIn(key);
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
  await rendered(); // the first page is drawn (and has taken the focus) before the test goes on
}

/**
 * Waits until the page has no request under way. The test's own navigation would otherwise abort
 * one the page made (the list it loads after signing in), which counts as a failed request.
 */
export async function quiet() {
  await expect.poll(() => inFlight, { timeout: 15_000 }).toBe(0);
}

/** page.reload() once the page's own requests are done. */
export async function reload() {
  await quiet();
  await page.reload();
}

export async function open(hash: string, heading: string) {
  await quiet();
  await page.goto(`${gateway!.url}/dashboard#/${hash}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Waits until the page on screen is the one for the current location (renders are async). */
export const rendered = () =>
  page.waitForFunction(() => document.getElementById('view')?.dataset.shows === location.hash);

/** Tokenizes `number` with the public key and charges it from Node, as a merchant's server would. */
export async function charge(number: string, amount: number, extra: Record<string, unknown> = {}) {
  const token = await api('/tokens', {
    method: 'POST', key: gateway!.publicKey,
    body: { card_owner_name: 'Test Shopper', card_number: number, card_exp_month: 12, card_exp_year: 2035, csc: number.length === 15 ? '1234' : '123' },
  });
  expect(token.status).toBe(200);
  return api('/charge', { method: 'POST', body: { token: token.body.id, amount, ...extra } });
}
