// @ts-check
import { pageHead } from '../dom.js';

/** @type {import('../router.js').Page} */
export async function renderWebhooks(view) {
  view.append(...pageHead('Webhooks'));
}
