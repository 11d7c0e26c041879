// Hosted fields (issue 29) in Chromium: a merchant checkout on its own origin with a strict CSP
// mounts the gateway's frame, a shopper types (keyboard only) or autofills, the page tokenizes
// and its server charges; the page never holds a digit of the card. The frame is framed only
// where the environment's allowed_origins say.
import { AxeBuilder } from '@axe-core/playwright';
import { Browser, BrowserContext, FrameLocator, Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayProcess, basicAuth, createKeys, launchChromium, startGateway } from './gateway.js';
import { PageServer, checkoutPage, pageServer } from './pages.js';

let gateway: GatewayProcess;
let browser: Browser;
let shop: PageServer;
let evil: PageServer;
let context: BrowserContext;
let page: Page;
let console_: string[];
let pageErrors: string[];

beforeAll(async () => {
  [gateway, browser, shop, evil] = await Promise.all([startGateway(), launchChromium(), pageServer('shop.localhost'), pageServer('evil.localhost')]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([gateway?.stop(), shop?.close(), evil?.close()]);
});

beforeEach(async ({ onTestFailed }) => {
  context = await browser.newContext({ viewport: { width: 800, height: 700 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  console_ = [];
  pageErrors = [];
  page.on('console', (m) => console_.push(m.text()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  onTestFailed(() => console.error(`--- console ---\n${console_.join('\n')}\n--- gateway ---\n${gateway.output()}`));
  return async () => {
    await context.close();
  };
});

const api = async (method: string, path: string, key: string, body?: unknown) => {
  const res = await fetch(`${gateway.url}/api/v1${path}`, {
    method, headers: { authorization: basicAuth(key), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
};

const card = (): FrameLocator => page.frameLocator('iframe[data-tessera-fields]');
const events = () => page.evaluate(() => (window as any).events as { e: string; d: any }[]);
const result = async () => {
  await page.waitForFunction(() => (window as any).result !== undefined);
  return page.evaluate(() => (window as any).result);
};

async function openCheckout(origin: PageServer, key: string, opts: { timeout?: number } = {}): Promise<void> {
  const { html, headers } = checkoutPage(gateway.url, key, opts);
  origin.set('/checkout', html, headers);
  await page.goto(`${origin.origin}/checkout`);
}

const ready = () => page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'ready'));

describe('test mode, no allowed_origins: any page may frame the fields', () => {
  it('mounts one labelled frame, types by keyboard in tab order, tokenizes, and the merchant charges; no digit reaches the page', async () => {
    await openCheckout(shop, gateway.publicKey);
    await ready();
    const iframe = page.locator('iframe[data-tessera-fields]');
    await expect(iframe.count()).resolves.toBe(1);
    expect(await iframe.getAttribute('style')).toBeNull(); // no inline style: a strict style-src page needs none
    expect(await iframe.getAttribute('title')).toBe('Card details');

    // Autofill: each input has its label and its autocomplete token.
    const expected = { 'Card number': 'cc-number', 'Expiration date': 'cc-exp', 'Security code': 'cc-csc' };
    for (const [label, token] of Object.entries(expected)) {
      await expect(card().getByLabel(label, { exact: true }).getAttribute('autocomplete')).resolves.toBe(token);
    }

    // Keyboard only: name on the page, then Tab into the frame, field to field, and out to Pay.
    await page.getByLabel('Name on card').focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('4111111111111111');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1299');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await expect(card().getByLabel('Card number').inputValue()).resolves.toBe('4111 1111 1111 1111');
    await expect(card().getByLabel('Expiration date').inputValue()).resolves.toBe('12 / 99');
    await expect(card().getByLabel('Security code').inputValue()).resolves.toBe('123');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Pay');
    await page.keyboard.press('Enter');

    const token = await result();
    // What generateToken's callback gets: the token with its bin_* fields; extra's card_number ignored.
    expect(token).toMatchObject({ class: 'token', token_type: 'credit_card', last_4: '1111', card_exp_month: 12, card_exp_year: 2099, card_owner_name: 'Ada Lovelace', bin_brand: expect.any(String) });
    const charge = await api('POST', '/charge', gateway.privateKey, { token: token.id, amount: 1250 });
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect(charge.body).toMatchObject({ status: 'SETTLED', amount_settled: 1250, card_owner_name: 'Ada Lovelace' });

    const seen = await events();
    const changes = seen.filter((x) => x.e === 'change').map((x) => x.d);
    expect(changes.at(-1)).toEqual({ empty: false, complete: true, brand: 'visa', error: null });
    expect(seen.map((x) => x.e)).toEqual(expect.arrayContaining(['ready', 'focus', 'blur', 'change']));
    // Never a digit of the card: not in any event, not in the page.
    expect(JSON.stringify(seen)).not.toMatch(/4111|1111|1299|\b123\b/);
    expect(await page.content()).not.toMatch(/4111/);
    expect(pageErrors).toEqual([]);
    expect(console_.filter((t) => /Content Security Policy/i.test(t))).toEqual([]);
    // The frame refused the style that could load something, and said so.
    expect(console_.join('\n')).toMatch(/style background ignored/);
  });

  it('refuses what generateToken refuses, with the same codes: in the change event and in the callback', async () => {
    await openCheckout(shop, gateway.publicKey);
    await ready();
    await page.getByLabel('Name on card').fill('Ada');
    await card().getByLabel('Card number').fill('4111111111111112');
    await card().getByLabel('Expiration date').click(); // blur the number
    await page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'change' && x.d.error));
    const change = (await events()).filter((x) => x.e === 'change').at(-1)!.d;
    expect(change).toMatchObject({ empty: false, complete: false, brand: 'visa', error: { code: '11112', message: 'invalid card_number' } });
    await expect(card().getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(card().getByRole('alert').textContent()).resolves.toBe('invalid card_number');
    await card().getByLabel('Expiration date').fill('12 / 99');
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await result()).toEqual({ errors: [{ code: '11112', message: 'invalid card_number' }] });

    // A refusal only the server makes (a real card in test mode) comes back the same way.
    await page.evaluate(() => delete (window as any).result);
    await card().getByLabel('Card number').fill('4556737586899855');
    await page.getByRole('button', { name: 'Pay' }).click();
    const refused = await result();
    expect(refused.errors?.[0]?.code).toBe('TEST01');
  });

  it('passes axe in the page and inside the frame', async () => {
    await openCheckout(shop, gateway.publicKey);
    await ready();
    const found = await new AxeBuilder({ page }).analyze();
    expect(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  it('clear() empties the fields and focus() puts the cursor in the card number', async () => {
    await openCheckout(shop, gateway.publicKey);
    await ready();
    await card().getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.evaluate(() => (window as any).fields.clear());
    await expect.poll(() => card().getByLabel('Card number').inputValue(), { timeout: 10_000 }).toBe('');
    // Focus elsewhere first (fill focused the number): focus() must bring it back.
    await page.getByLabel('Name on card').focus();
    await expect.poll(() => card().locator('#n').evaluate((el) => document.activeElement === el)).toBe(false);
    await page.evaluate(() => (window as any).fields.focus());
    // The frame is the page's focused element and the card number the frame's.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), { timeout: 10_000 }).toBe('IFRAME');
    await expect.poll(() => card().locator('#n').evaluate((el) => document.activeElement === el), { timeout: 10_000 }).toBe(true);
  });
});

describe('the loader in a page that misbehaves or is slow', () => {
  it('a frame that loads after the timeout, or is reloaded (moved in the page), gets a new port and works', async () => {
    // Slow: the frame document arrives after options.timeout; first an error, then ready.
    await page.route('**/fields/frame?*', async (route) => {
      await new Promise((r) => setTimeout(r, 2500));
      await route.continue();
    });
    await openCheckout(shop, gateway.publicKey, { timeout: 1000 });
    await ready();
    expect((await events()).map((x) => x.e).slice(0, 2)).toEqual(['error', 'ready']);
    await page.unroute('**/fields/frame?*');
    // Moved: re-parenting an iframe reloads it; it says hello again.
    await page.evaluate(() => {
      (window as any).events.length = 0;
      document.querySelector('main')!.append(document.querySelector('iframe')!);
    });
    await ready();
    await page.getByLabel('Name on card').fill('Ada');
    await card().getByLabel('Card number').fill('4111111111111111');
    await card().getByLabel('Expiration date').fill('1299');
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await result()).toMatchObject({ class: 'token', last_4: '1111' });
  });

  it('destroy() answers what is pending and what comes after at once; an unknown container is a clear TypeError', async () => {
    await openCheckout(shop, gateway.publicKey);
    await ready();
    const answers = await page.evaluate(() => new Promise<unknown[]>((resolve) => {
      const out: unknown[] = [];
      const f = (window as any).fields;
      f.tokenize({}, (r: unknown) => out.push(r));
      f.destroy();
      f.tokenize({}, (r: unknown) => (out.push(r), resolve(out)));
    }));
    expect(answers).toEqual([
      { errors: [{ code: 'TKN01', message: 'fields destroyed' }] }, { errors: [{ code: 'TKN01', message: 'fields destroyed' }] },
    ]);
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    const thrown = await page.evaluate(() => {
      try {
        (window as any).Tessera.fields('test_pk_x', '#nowhere');
        return null;
      } catch (e) {
        return String(e);
      }
    });
    expect(thrown).toBe('TypeError: Tessera.fields: no element #nowhere');
  });

  it('a hostile page framing a live key twice in the URL (?key=live&key=x) gets a frame with no key: nothing to tokenize with', async () => {
    const m = createKeys(gateway, 'live');
    await api('POST', '/settings', m.privateKey, { allowed_origins: [shop.origin] });
    evil.set('/', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>
<iframe id="f" title="x" src="${gateway.url}/fields/frame?key=${m.publicKey}&amp;key=x"></iframe>
<script>
addEventListener('message', (e) => {
  if (e.data !== 'tessera:hello') return;
  const c = new MessageChannel();
  c.port1.onmessage = (m) => { if (m.data.t === 'result') window.result = m.data.response; };
  window.port = c.port1;
  document.getElementById('f').contentWindow.postMessage({ t: 'port' }, '*', [c.port2]);
});
</script></body></html>`);
    await page.goto(`${evil.origin}/`);
    await page.waitForFunction(() => (window as any).port !== undefined);
    const frame = page.frameLocator('#f');
    await frame.getByLabel('Card number').fill('4111111111111111');
    await frame.getByLabel('Expiration date').fill('1299');
    await page.evaluate(() => (window as any).port.postMessage({ t: 'tokenize', id: 1, extra: { card_owner_name: 'Mallory' } }));
    expect(await result()).toEqual({ errors: [{ code: 'TKN01', message: 'public key must be 63 characters' }] });
  });
});

describe('allowed_origins drive frame-ancestors', () => {
  it('test mode with a list: only those origins (and the gateway itself) may frame it; elsewhere the page says why', async () => {
    const m = createKeys(gateway, 'test');
    expect((await api('POST', '/settings', m.privateKey, { allowed_origins: [shop.origin] })).status).toBe(200);
    const frame = await fetch(`${gateway.url}/fields/frame?key=${m.publicKey}`);
    expect(frame.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${shop.origin}`);
    expect(frame.headers.get('x-frame-options')).toBeNull();

    await openCheckout(evil, m.publicKey, { timeout: 3000 });
    await page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'error'));
    expect((await events()).map((x) => x.e)).not.toContain('ready');
    expect(console_.join('\n')).toMatch(/frame-ancestors/);
    expect(console_.join('\n')).toMatch(/card fields did not load; in live mode this page's origin must be in allowed_origins/);
    await page.getByLabel('Name on card').fill('Ada');
    await page.getByRole('button', { name: 'Pay' }).click();
    expect((await result()).errors[0].code).toBe('TKN01');

    await openCheckout(shop, m.publicKey);
    await ready();
  });

  it('live mode: framed only inside allowed_origins, where it tokenizes; nowhere while none are set', async () => {
    const m = createKeys(gateway, 'live');
    const none = await fetch(`${gateway.url}/fields/frame?key=${m.publicKey}`);
    expect(none.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    await openCheckout(shop, m.publicKey, { timeout: 3000 });
    await page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'error'));

    expect((await api('POST', '/settings', m.privateKey, { allowed_origins: [shop.origin] })).status).toBe(200);
    const listed = await fetch(`${gateway.url}/fields/frame?key=${m.publicKey}`);
    expect(listed.headers.get('content-security-policy')).toMatch(new RegExp(`frame-ancestors ${shop.origin}$`));

    await openCheckout(shop, m.publicKey);
    await ready();
    await page.getByLabel('Name on card').fill('Ada');
    await card().getByLabel('Card number').fill('4111111111111111');
    await card().getByLabel('Expiration date').fill('1299');
    await card().getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await result()).toMatchObject({ class: 'token', last_4: '1111' });

    await page.evaluate(() => delete (window as any).result);
    await openCheckout(evil, m.publicKey, { timeout: 3000 });
    await page.waitForFunction(() => (window as any).events.some((x: any) => x.e === 'error'));
    expect(console_.join('\n')).toMatch(/frame-ancestors/);
  });
});
