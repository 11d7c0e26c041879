import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { fillCard } from '../../server/playwright.js';
import { TestGateway, cards, startTestGateway } from '../../server/testing/index.js';
import { launchChromium } from '../e2e/gateway.js';
import { PageServer, checkoutPage, pageServer } from '../e2e/pages.js';

// fillCard (tessera-gateway/playwright) against a real gateway's hosted fields in Chromium: the
// merchant page (test/e2e/pages.ts: its own origin, a strict nonce CSP) mounts the frame, fillCard
// types the card in it, the page tokenizes and the token charges. And what it says when there is
// no frame to fill, or more than one.

let gw: TestGateway;
let browser: Browser;
let shop: PageServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [gw, browser, shop] = await Promise.all([startTestGateway(), launchChromium(), pageServer('shop.localhost')]);
  const { html, headers } = checkoutPage(gw.url, gw.publicKey);
  shop.set('/checkout', html, headers);
  // The same checkout with its card fields twice, in two containers.
  shop.set('/twice', html.replace('<div id="card"></div>', '<div id="card"></div><div id="other"></div>')
    .replace("['ready',", "Tessera.fields(" + JSON.stringify(gw.publicKey) + ", '#other');\n['ready',"), headers);
  shop.set('/plain', '<!doctype html><html lang="en"><title>No card fields</title><p>Nothing to pay here.</p></html>');
  // An iframe that looks like the fields' but never loads them.
  shop.set('/blank', '<!doctype html><html lang="en"><title>Broken</title><iframe data-tessera-fields title="Card details" src="about:blank"></iframe></html>');
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([gw?.close(), shop?.close()]);
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterEach(() => context?.close());

const result = async () => {
  await page.waitForFunction(() => (window as any).result !== undefined);
  return page.evaluate(() => (window as any).result);
};
const frame = () => page.frameLocator('iframe[data-tessera-fields]');
const values = () => Promise.all(['Card number', 'Expiration date', 'Security code'].map((l) => frame().getByLabel(l, { exact: true }).inputValue()));

describe('fillCard()', () => {
  test("types a kit card in the frame (MM / YY, the card's code); the page tokenizes and the token charges", async () => {
    await page.goto(`${shop.origin}/checkout`);
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await fillCard(page, cards.visa);
    expect(await values()).toEqual(['4111 1111 1111 1111', '12 / 99', '123']);

    await page.getByRole('button', { name: 'Pay' }).click();
    const token = await result();
    expect(token).toMatchObject({ class: 'token', token_type: 'credit_card', last_4: '1111', card_exp_month: 12, card_exp_year: 2099, card_owner_name: 'Ada Lovelace' });
    const paid = await gw.charge(token.id, 1500);
    expect(paid.ok, JSON.stringify(paid.errors)).toBe(true);
    expect(paid.transaction).toMatchObject({ status: 'SETTLED', amount_settled: 1500, card_type: 'visa' });
  });

  test('takes a plain { number } (defaults: 12 / 99, four digits for Amex), in a Frame too, and replaces what was typed', async () => {
    await page.goto(`${shop.origin}/checkout`);
    await page.getByLabel('Name on card').fill('Grace Hopper');
    await fillCard(page, cards.visa);
    await fillCard(page.mainFrame(), { number: cards.amex.number });
    expect(await values()).toEqual(['3782 822463 10005', '12 / 99', '1234']);
    await fillCard(page, { number: cards.mastercard.formatted, expMonth: 3, expYear: '2031', cvv: '321' });
    expect(await values()).toEqual(['5555 5555 5555 4444', '03 / 31', '321']);

    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await result()).toMatchObject({ class: 'token', last_4: '4444', card_exp_month: 3, card_exp_year: 2031, card_owner_name: 'Grace Hopper' });
  });

  test('with several frames, options.frame picks one; without it, it says how many matched', async () => {
    await page.goto(`${shop.origin}/twice`);
    await expect.poll(() => page.locator('iframe[data-tessera-fields]').count()).toBe(2);
    await expect(fillCard(page, cards.visa)).rejects.toThrow(/^fillCard: 2 frames match iframe\[data-tessera-fields\] on http:\/\/shop\.localhost:\d+\/twice; pass \{ frame: /);

    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await fillCard(page, cards.mastercard, { frame: '#card iframe' });
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await result()).toMatchObject({ class: 'token', last_4: '4444' });
  });

  test('no frame on the page: fails naming the selector, the page and the wait, and what to check', async () => {
    await page.goto(`${shop.origin}/plain`);
    const started = Date.now();
    const error: Error = await fillCard(page, cards.visa, { timeout: 500 }).then(() => { throw new Error('filled'); }, (e: Error) => e);
    expect(error.message).toMatch(/^fillCard: no card fields frame \(iframe\[data-tessera-fields\]\) on http:\/\/shop\.localhost:\d+\/plain after 500 ms\. Does the page load <gateway>\/fields\.js and call Tessera\.fields/);
    expect(error.cause).toBeInstanceOf(Error); // Playwright's own timeout, with its call log
    expect(Date.now() - started).toBeLessThan(5_000);

    await expect(fillCard(page, cards.visa, { frame: '#payment iframe', timeout: 300 })).rejects.toThrow(
      /^fillCard: no card fields frame \(#payment iframe\) on .* after 300 ms\. Check the selector passed as options\.frame/,
    );
  });

  test('a frame that never loads the fields: fails naming the input it did not find and the frame', async () => {
    await page.goto(`${shop.origin}/blank`);
    // The frame is in the page's HTML; the timeout covers finding it too, and at 500 ms a loaded
    // machine once answered "no card fields frame" (Chromium and two test lanes on two cores).
    await expect(fillCard(page, cards.visa, { timeout: 3000 })).rejects.toThrow(
      /^fillCard: the card fields frame \(iframe\[data-tessera-fields\], src about:blank\) shows no input labelled "Card number" after 3000 ms\. Did the frame load from the gateway/,
    );
  });
});
