// @ts-check
import { pageHead } from '../dom.js';

/** @type {import('../router.js').Page} */
export async function renderHome(view) {
  view.append(...pageHead('Home'));
}
