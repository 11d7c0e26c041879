import type { Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { EXP_MONTH, EXP_YEAR } from './cards.js';
import type { Card } from './cards.js';

// fillCard: types a card into the hosted fields frame (`Tessera.fields(...)`, GET /fields.js) the
// way a shopper would, through Playwright's locators and their auto-wait. Playwright's types only:
// nothing here loads @playwright/test, so it works with whichever copy the project has.

/** The frame Tessera.fields mounts. */
export const FIELDS_FRAME = 'iframe[data-tessera-fields]';

/** A card to type: the kit's `cards.*` entries fit, or just a number (the rest defaults). */
export interface CardInput {
  number: string;
  /** Default `EXP_MONTH` ("12"). */
  expMonth?: string | number;
  /** Four digits or two; typed as the last two. Default `EXP_YEAR` ("2099"). */
  expYear?: string | number;
  /** Default "123", "1234" for an American Express number. An empty string leaves the field empty. */
  cvv?: string;
}

export interface FillCardOptions {
  /** A selector of the card fields' iframe when the page has several; default `iframe[data-tessera-fields]`. */
  frame?: string;
  /** Milliseconds to wait for the frame and for each input; default Playwright's action timeout. */
  timeout?: number;
}

/** The frame's inputs, by their labels, and what goes in each. */
function cardFieldValues(card: Card | CardInput): { 'Card number': string; 'Expiration date': string; 'Security code': string } {
  const month = String(card.expMonth ?? EXP_MONTH).padStart(2, '0');
  const year = String(card.expYear ?? EXP_YEAR).slice(-2).padStart(2, '0');
  const amex = /^3[47]/.test(card.number.replace(/\D/g, ''));
  return {
    'Card number': card.number,
    'Expiration date': `${month} / ${year}`,
    'Security code': card.cvv ?? (amex ? '1234' : '123'),
  };
}

const waited = (err: unknown) => {
  const ms = /Timeout (\d+)\s*ms exceeded/i.exec(String((err as Error)?.message ?? err))?.[1];
  return ms ? `after ${ms} ms` : `(${String((err as Error)?.message ?? err).split('\n')[0]})`;
};

/**
 * Fills the hosted card fields on `page` (or in a frame of it): card number, expiration date
 * ("MM / YY") and security code, with `fill()` on each input of the frame found by its label.
 * Waits for the frame and its inputs (Playwright's auto-wait), then fails naming what it did not
 * find. Tokenizing stays the page's business (its Pay button, `fields.tokenize(...)`).
 *
 *   await fillCard(page, cards.visa);
 *   await fillCard(page, { number: '4111 1111 1111 1112' }, { frame: '#billing iframe' });
 */
export async function fillCard(page: Page | Frame, card: Card | CardInput, options: FillCardOptions = {}): Promise<void> {
  const selector = options.frame ?? FIELDS_FRAME;
  const { timeout } = options;
  const where = page.url();
  const iframe = page.locator(selector);
  try {
    await iframe.first().waitFor({ state: 'attached', timeout });
  } catch (err) {
    throw new Error(
      `fillCard: no card fields frame (${selector}) on ${where} ${waited(err)}. ` +
        (options.frame ? 'Check the selector passed as options.frame' : 'Does the page load <gateway>/fields.js and call Tessera.fields(publicKey, container)?'),
      { cause: err },
    );
  }
  const count = await iframe.count();
  if (count > 1) throw new Error(`fillCard: ${count} frames match ${selector} on ${where}; pass { frame: '<a selector of one>' }`);

  const src = await iframe.getAttribute('src', { timeout: 1000 }).catch(() => null);
  const frame: FrameLocator = page.frameLocator(selector);
  for (const [label, value] of Object.entries(cardFieldValues(card))) {
    const input: Locator = frame.getByLabel(label, { exact: true });
    try {
      await input.waitFor({ state: 'visible', timeout });
    } catch (err) {
      throw new Error(
        `fillCard: the card fields frame (${selector}, src ${src ?? 'none'}) shows no input labelled "${label}" ${waited(err)}. ` +
          'Did the frame load from the gateway (is the gateway up, and does its frame-ancestors allow this page)?',
        { cause: err },
      );
    }
    await input.fill(value, { timeout });
  }
}
