// The demo checkout page in a real browser against the real gateway process: the card form mounts
// the hosted fields (/fields.js, the gateway's frame, which checks the card and POSTs it to
// /api/v1/tokens from the gateway's origin); the bank form loads /tokenizer.js, which checks the
// data and makes its JSONP request; the merchant side then reads the token back with its private key.
import { Browser, BrowserContext, Page, Route } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayProcess, basicAuth, launchChromium, startGateway } from './gateway.js';

const JSONP = '**/api/v1/tokens/jsonp**';
const isJsonp = (url: string) => new URL(url).pathname === '/api/v1/tokens/jsonp';
const isTokens = (url: string) => new URL(url).pathname === '/api/v1/tokens';
const nextYear = String(new Date().getFullYear() + 2);

let gateway: GatewayProcess | undefined;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
/** Every URL the page requested, in order. */
let requests: string[];
let pageErrors: Error[];
/** What the pages' Content-Security-Policy blocked: nothing, or the page relies on something it forbids. */
let cspViolations: string[];

beforeAll(async () => {
  [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

beforeEach(async ({ onTestFailed }) => {
  context = await browser!.newContext({ viewport: { width: 1024, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  requests = [];
  pageErrors = [];
  cspViolations = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(e));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  onTestFailed(() => {
    console.error(`--- gateway output ---\n${gateway?.output()}\n--- page requests ---\n${requests.join('\n')}`);
  });
});

afterEach(async () => {
  await context?.close();
  expect(pageErrors.map(String)).toEqual([]);
  expect(cspViolations).toEqual([]);
});

const field = (label: string) => page.getByLabel(label, { exact: true });

async function openCheckout(path = '/'): Promise<void> {
  await page.goto(gateway!.url + path);
  // The tokenizer is a plain <script> at the end of the body: loaded once `load` has fired.
  expect(await page.evaluate(() => typeof (window as unknown as { Tessera?: { generateToken?: unknown } }).Tessera?.generateToken)).toBe('function');
}

/** The name and ZIP on the page; number, expiry and code in the gateway's frame. */
async function fillCard(number: string): Promise<void> {
  await field('Name on card').fill('Ada Lovelace');
  const frame = page.frameLocator('iframe[data-tessera-fields]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill('12' + nextYear.slice(2));
  await frame.getByLabel('Security code').fill('123');
  await field('ZIP code').fill('94107');
}

async function fillBank(): Promise<void> {
  await field('First name').fill('Grace');
  await field('Last name').fill('Hopper');
  await field('Routing number').fill('110000000');
  await field('Account number').fill('000123456789');
}

async function submitCard(): Promise<void> {
  await page.getByRole('button', { name: 'Get a card token' }).click();
}

async function submitBank(): Promise<void> {
  await page.getByRole('button', { name: 'Get a bank account token' }).click();
}

async function tokenId(): Promise<string> {
  const el = page.getByTestId('token-id');
  await el.waitFor({ state: 'visible' });
  return (await el.textContent())!.trim();
}

async function errorCodes(): Promise<{ code: string; message: string }[]> {
  await page.getByTestId('errors').waitFor({ state: 'visible' });
  return page.getByTestId('errors').locator('li').evaluateAll((items) =>
    items.map((li) => ({
      code: li.querySelector('[data-testid="error-code"]')!.textContent!,
      message: li.querySelector('[data-testid="error-message"]')!.textContent!,
    })),
  );
}

async function savedToken(id: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${gateway!.url}/api/v1/tokens/${id}`, { headers: { authorization: basicAuth(gateway!.privateKey) } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('demo checkout page', () => {
  it('turns test card 4111 1111 1111 1111 into a token the merchant can read back with its private key', async () => {
    await openCheckout();
    expect(await field('Public key').inputValue()).toBe(gateway!.publicKey);

    await fillCard('4111 1111 1111 1111');
    await submitCard();
    const id = await tokenId();
    expect(id).toMatch(/^[0-9a-f]{10}$/);
    const shown = JSON.parse((await page.getByTestId('token-json').textContent())!);
    expect(shown).toMatchObject({ class: 'token', id, token_type: 'credit_card', last_4: '1111', card_owner_name: 'Ada Lovelace', bin_brand: 'VISA' });

    const { status, body } = await savedToken(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ class: 'token', id, token_type: 'credit_card', last_4: '1111', card_exp_month: 12, card_exp_year: Number(nextYear), used: false });
    expect(body).not.toHaveProperty('bin_brand');
    expect(JSON.stringify(body)).not.toMatch(/4111111111111111|"123"/);

    // One token request, from the gateway's frame, no card in any URL; nothing fetched from anywhere but the gateway.
    expect(requests.filter(isTokens)).toHaveLength(1);
    expect(requests.filter(isJsonp)).toEqual([]);
    expect(requests.join('\n')).not.toMatch(/4111|1111 1111/);
    expect(requests.filter((u) => new URL(u).origin !== gateway!.url)).toEqual([]);
    // The page itself never held the number: none of its own inputs did.
    expect(await page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value).join(' '))).not.toMatch(/4111|1111/);
  });

  it('refuses a number failing the Luhn check in the browser (11112) without any token request', async () => {
    await openCheckout();
    await fillCard('4111 1111 1111 1112');
    await submitCard();
    const errors = await errorCodes();
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe('11112');
    expect(errors[0].message).not.toBe('');
    expect(await page.getByTestId('token-id').isVisible()).toBe(false);
    expect(requests.filter(isTokens)).toEqual([]);
  });

  it('shows a refusal that only the server can make, delivered to the tokenize callback', async () => {
    await openCheckout();
    await fillCard('4012 8888 8888 1881'); // a valid Visa number, but not a test card
    await submitCard();
    const errors = await errorCodes();
    expect(errors.map((e) => e.code)).toEqual(['TEST01']);
    expect(requests.filter(isTokens)).toHaveLength(1);
  });

  it('submits the card form with Enter typed in the card frame', async () => {
    await openCheckout();
    await fillCard('4111 1111 1111 1111');
    await page.frameLocator('iframe[data-tessera-fields]').getByLabel('Security code').press('Enter');
    expect(await tokenId()).toMatch(/^[0-9a-f]{10}$/);
  });

  it('creates a bank-account token, submitted from the keyboard', async () => {
    await openCheckout();
    await field('First name').fill('Grace');
    await field('Last name').fill('Hopper');
    await field('Routing number').fill('110000000');
    await field('Savings').check();
    await field('Account number').fill('000123456789');
    await field('Account number').press('Enter');

    const id = await tokenId();
    const { status, body } = await savedToken(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id, token_type: 'bank_account', last_4: '6789', bank_routing_number: '110000000',
      bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper', bank_account_type: 'savings',
    });
    expect(JSON.stringify(body)).not.toContain('000123456789');
  });

  it('reports TKN01 when the token request never answers, then works again', async () => {
    const held: Route[] = [];
    await page.route(JSONP, (route) => void held.push(route)); // never answered
    await openCheckout();
    await page.getByText('Advanced options').click();
    await field('Timeout (ms)').fill('500');
    await fillBank();

    const started = Date.now();
    await submitBank();
    const errors = await errorCodes();
    const elapsed = Date.now() - started;
    expect(errors.map((e) => e.code)).toEqual(['TKN01']);
    expect(errors[0].message).toMatch(/timed out/);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(10_000);
    expect(held).toHaveLength(1);

    // A reply arriving after the timeout must neither throw in the page nor reach the callback
    // a second time (afterEach checks for page errors).
    const callback = new URL(held[0].request().url()).searchParams.get('callback')!;
    await held[0]
      .fulfill({ contentType: 'application/javascript', body: `/**/${callback}({"class":"token","id":"0000000000"});` })
      .catch(() => {}); // Chromium may already have dropped the detached script's request
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    expect(await page.getByTestId('token-id').isVisible()).toBe(false);

    // Retry with the default timeout and the network back.
    await page.unroute(JSONP);
    await field('Timeout (ms)').fill('');
    await submitBank();
    expect(await tokenId()).toMatch(/^[0-9a-f]{10}$/);
    expect(await page.getByTestId('errors').isVisible()).toBe(false);
  });

  it('reports TKN01 at once when the token request fails at the network level', async () => {
    await page.route(JSONP, (route) => route.abort('connectionrefused'));
    await openCheckout();
    await fillBank();
    const started = Date.now();
    await submitBank();
    const errors = await errorCodes();
    expect(errors.map((e) => e.code)).toEqual(['TKN01']);
    expect(Date.now() - started).toBeLessThan(5_000); // the 15 s timeout was not needed
  });

  it('fits a phone screen and labels every control', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openCheckout();
    const layout = await page.evaluate(() => {
      const controls = [...document.querySelectorAll('input, select, textarea, button')].filter(
        (el) => !(el instanceof HTMLInputElement && el.type === 'hidden'),
      );
      const unlabelled = controls
        .filter((el) => {
          const labels = (el as HTMLInputElement).labels;
          return !(labels && labels.length) && !el.getAttribute('aria-label') && !(el.tagName === 'BUTTON' && el.textContent!.trim());
        })
        .map((el) => el.outerHTML);
      return { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, unlabelled };
    });
    expect(layout.unlabelled).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    await expect(page.getByRole('button', { name: 'Get a card token' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Get a bank account token' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('#merchant-step').count()).toBe(1);
  });

  it('sends the card only to the gateway that served it, whatever the link says (?base_url= is ignored)', async () => {
    const foreign: string[] = [];
    await context.route('https://evil.example/**', (route) => {
      foreign.push(route.request().url());
      return route.abort('connectionrefused');
    });
    await openCheckout('/?base_url=https://evil.example&timeout=8000');
    expect(await page.locator('#base-url').count()).toBe(0);
    await fillCard('4111 1111 1111 1111');
    await submitCard();
    expect(await tokenId()).toMatch(/^[0-9a-f]{10}$/);
    expect(foreign).toEqual([]);
    expect(requests.filter((u) => new URL(u).origin !== gateway!.url)).toEqual([]);
    expect(requests.filter(isTokens)).toHaveLength(1);
    // The bank form's JSONP tokenizer too.
    await fillBank();
    await submitBank();
    await expect.poll(() => requests.filter(isJsonp).length).toBe(1);
    expect(requests.filter((u) => new URL(u).origin !== gateway!.url)).toEqual([]);
  });

  it('is served with a strict Content-Security-Policy that the page runs under', async () => {
    const res = await page.goto(gateway!.url + '/');
    const csp = (await res!.allHeaders())['content-security-policy'];
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe|\*/);
    // An injected inline script does not run (the page's own scripts did: the token tests above),
    // and the refusal is reported where afterEach looks for violations.
    const reported = page.waitForEvent('console', (m) => /Content Security Policy/i.test(m.text()));
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.append(s);
    });
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await reported;
    expect(cspViolations).toHaveLength(1);
    cspViolations = []; // the refusal above was the point
  });
});

describe('a gateway started without --dev (production)', () => {
  let production: GatewayProcess | undefined;
  beforeAll(async () => {
    production = await startGateway({ dev: false });
  });
  afterAll(() => production?.stop());

  it('says so at start, serves no demo checkout, and its merchant server does not exist', async () => {
    expect(production!.output()).toMatch(/^\s*mode\s+production\b/m);
    expect(production!.output()).toMatch(/^\s*demo checkout\s+off\b/m);
    expect(gateway!.output()).toMatch(/^\s*mode\s+development \(--dev\)/m); // what npm start runs
    expect(gateway!.output()).toMatch(/^\s*demo checkout\s+http:\/\/127\.0\.0\.1:\d+\/$/m);
    const home = await fetch(production!.url + '/');
    expect(home.status).toBe(200);
    const body = await home.text();
    expect(body).toContain('href="/docs"');
    expect(body).not.toContain('card-form');
    for (const url of ['/demo.js', '/demo.css']) expect((await fetch(production!.url + url)).status, url).toBe(404);
    const charge = await fetch(production!.url + '/demo/charge', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'abcdef0123', amount: 1000 }),
    });
    expect(charge.status).toBe(404);
    expect(((await charge.json()) as { errors: { code: string }[] }).errors[0].code).toBe('NOTFOUND');
  });
});
