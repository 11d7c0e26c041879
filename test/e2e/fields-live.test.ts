// Hosted fields in live mode against a processor (the Authorize.Net stand-in), and the card-testing
// defence seen from a browser (issue 29): a hostile page on another origin makes its visitor's
// browser send refused cards to the merchant's JSONP endpoint, and that visitor still pays at the
// merchant's checkout; a card tester's own client is still stopped; a QA suite in test mode never is.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ROOT } from '../../server/paths.js';
import { AuthnetStandin, startAuthnetStandin } from '../helpers/authnet-standin.js';
import { GatewayProcess, basicAuth, createKeys, launchChromium, startGateway } from './gateway.js';
import { PageServer, checkoutPage, pageServer } from './pages.js';

let gateway: GatewayProcess;
let browser: Browser;
let shop: PageServer;
let evil: PageServer;
let standin: AuthnetStandin;
let live: ReturnType<typeof createKeys>;
let context: BrowserContext;
let page: Page;

const REFUSED = '4111111111111112'; // fails the Luhn check: 11112, a refusal the card-testing defence counts
const KEY_IP_CEILING = 10; // the default key_ip_failures

beforeAll(async () => {
  [gateway, browser, shop, evil, standin] = await Promise.all([
    startGateway(), launchChromium(), pageServer('shop.localhost'), pageServer('evil.localhost'), startAuthnetStandin(),
  ]);
  live = createKeys(gateway, 'live');
  execFileSync(process.execPath, [join(ROOT, 'dist', 'server', 'main.js'), 'processor', 'set', '--merchant', live.merchantId, '--env', 'live',
    '--connector', 'authorizenet', '--login-id', 'standin-login', '--transaction-key', 'StandinKey123456', '--endpoint', standin.url, '--no-check'],
  { cwd: ROOT, env: { ...process.env, TESSERA_DATA_DIR: gateway.dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
  const set = await api('POST', '/settings', live.privateKey, { allowed_origins: [shop.origin] });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([gateway?.stop(), shop?.close(), evil?.close(), standin?.close()]);
});

beforeEach(async ({ onTestFailed }) => {
  // One browser context for the whole visit: the same visitor (and address) on both sites.
  context = await browser.newContext();
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const seen: string[] = [];
  page.on('console', (m) => seen.push(m.text()));
  onTestFailed(() => console.error(`--- console ---\n${seen.join('\n')}\n--- gateway ---\n${gateway.output()}`));
  return async () => {
    await context.close();
  };
});

async function api(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gateway.url}/api/v1${path}`, {
    method, headers: { authorization: basicAuth(key), 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
}

const jsonpUrl = (key: string, number: string, callback: string) => `${gateway.url}/api/v1/tokens/jsonp?` + new URLSearchParams({
  public_api_key: key, callback, card_owner_name: 'Mallory', card_number: number, card_exp_month: '12', card_exp_year: '2099',
});

/**
 * A page that loads `count` script tags of refused cards, one after another (each once the last
 * one's callback ran: the server sees them in order, so which ones pass is certain), and keeps
 * what each callback got in window.answers.
 */
function hostilePage(key: string, count: number): string {
  const url = (i: number) => jsonpUrl(key, REFUSED, `cb${i}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Free prizes</title></head>
<body><p>Nothing to see.</p>
<script>
window.answers = [];
const urls = ${JSON.stringify(Array.from({ length: count }, (_, i) => url(i)))};
const next = (i) => {
  if (i === urls.length) return;
  window['cb' + i] = (r) => { window.answers.push(r); next(i + 1); };
  const s = document.createElement('script');
  s.src = urls[i];
  document.body.append(s);
};
next(0);
</script></body></html>`;
}

/** The merchant's checkout, its frame filled and submitted; the token response. */
async function payAtCheckout(key: string, number = '4111111111111111'): Promise<any> {
  const { html, headers } = checkoutPage(gateway.url, key);
  shop.set('/checkout', html, headers);
  await page.goto(`${shop.origin}/checkout`);
  await page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'ready'));
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  const frame = page.frameLocator('iframe[data-tessera-fields]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill('12 / 99');
  await frame.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForFunction(() => (window as any).result !== undefined);
  return page.evaluate(() => (window as any).result);
}

it('live: the frame tokenizes inside the allowed origin and the merchant charges the token at its processor', async () => {
  const token = await payAtCheckout(live.publicKey);
  expect(token).toMatchObject({ class: 'token', token_type: 'credit_card', last_4: '1111' });
  const charge = await api('POST', '/charge', live.privateKey, { token: token.id, amount: 2599 });
  expect(charge.status, JSON.stringify(charge.body)).toBe(200);
  expect(charge.body).toMatchObject({ status: 'SETTLED', amount_settled: 2599 });
  expect(standin.transactions.at(-1)).toMatchObject({ transactionType: 'authCaptureTransaction', amount: '25.99' });
});

it('live: a hostile page cannot lock its visitor out of the checkout, while a card tester\'s own client is stopped', async () => {
  // The hostile page, on its own origin: twice the ceiling of refused cards from this browser.
  evil.set('/', hostilePage(live.publicKey, 2 * KEY_IP_CEILING));
  await page.goto(`${evil.origin}/`);
  await page.waitForFunction((n) => (window as any).answers.length === n, 2 * KEY_IP_CEILING);
  const answers = await page.evaluate(() => (window as any).answers.map((r: any) => r.errors?.[0]?.code));
  // The hostile page's own side filled up: the visitor is refused there, which costs the page nothing it did not ask for.
  expect(answers.slice(0, KEY_IP_CEILING)).toEqual(Array(KEY_IP_CEILING).fill('11112'));
  expect(answers.slice(KEY_IP_CEILING)).toEqual(Array(KEY_IP_CEILING).fill('RATE01'));

  // The same visitor at the merchant's checkout: hosted fields tokenize, and so does JSONP from the shop's page.
  expect(await payAtCheckout(live.publicKey)).toMatchObject({ class: 'token', last_4: '1111' });
  const fromShop = await fetch(jsonpUrl(live.publicKey, '4111111111111111', 'cb'), { headers: { referer: `${shop.origin}/checkout` } });
  expect(await fromShop.text()).toMatch(/^\/\*\*\/cb\(\{"class":"token"/);

  // A card tester's own client, claiming the shop's origin: stopped at the ceiling on that side.
  const codes: string[] = [];
  for (let i = 0; i < KEY_IP_CEILING + 2; i++) {
    const res = await api('POST', '/tokens', live.publicKey,
      { card_owner_name: 'Mallory', card_number: REFUSED, card_exp_month: '12', card_exp_year: '2099' }, { 'x-tessera-fields': shop.origin });
    codes.push(res.body.errors[0].code);
  }
  expect(codes.slice(0, KEY_IP_CEILING)).toEqual(Array(KEY_IP_CEILING).fill('11112'));
  expect(codes.slice(KEY_IP_CEILING)).toEqual(['RATE01', 'RATE01']);
  // And with a good card too, on that side, for the rest of the window.
  const after = await api('POST', '/tokens', live.publicKey,
    { card_owner_name: 'Mallory', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2099' }, { 'x-tessera-fields': shop.origin });
  expect(after.status).toBe(429);
  expect(after.body.errors[0].code).toBe('RATE01');
});

it('test mode: a QA suite typing refused cards is never locked out (the card-testing ceilings are off)', async () => {
  const test = createKeys(gateway, 'test');
  const codes: string[] = [];
  for (let i = 0; i < 3 * KEY_IP_CEILING; i++) {
    const res = await api('POST', '/tokens', test.publicKey, { card_owner_name: 'QA', card_number: REFUSED, card_exp_month: '12', card_exp_year: '2099' });
    codes.push(res.body.errors[0].code);
  }
  expect(new Set(codes)).toEqual(new Set(['11112']));
  expect(await payAtCheckout(test.publicKey)).toMatchObject({ class: 'token', last_4: '1111' });
});
