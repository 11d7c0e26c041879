// @ts-check
// Which page the location shows, and drawing it: a page renders into a detached element that
// replaces the view only when it is finished and still wanted (a later navigation wins).
import { errorBox, h, $ } from './dom.js';
import { onRerender, parseHash } from './nav.js';
import { state } from './state.js';
import { renderActivity } from './pages/activity.js';
import { renderHome } from './pages/home.js';
import { renderKeys } from './pages/keys.js';
import { renderSettings } from './pages/settings.js';
import { renderTools } from './pages/tools.js';
import { renderWebhooks } from './pages/webhooks.js';

/**
 * A page: draws into `view`; `segs` are the location's parts after the section, `alive()` says
 * whether the page is still the one wanted.
 * @typedef {(view: HTMLElement, segs: string[], params: URLSearchParams, alive: () => boolean) => Promise<any>} Page
 */

/** @type {Record<string, { page: Page, title: string }>} */
const PAGES = {
  home: { page: renderHome, title: 'Home' },
  activity: { page: renderActivity, title: 'Activity' },
  webhooks: { page: renderWebhooks, title: 'Webhooks' },
  keys: { page: renderKeys, title: 'Keys' },
  tools: { page: renderTools, title: 'Test tools' },
  settings: { page: renderSettings, title: 'Settings' },
};

/** @param {{ focus?: boolean }} [options] */
export async function route({ focus = true } = {}) {
  if (!state.key || !state.overview) return;
  const { segs, params } = parseHash();
  const section = PAGES[segs[0]] ? segs[0] : 'home';
  for (const a of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('#nav a'))) {
    if (a.dataset.section === section) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `Tessera · ${PAGES[section].title}`;
  const seq = ++state.renderSeq;
  const focusedBefore = document.activeElement;
  const view = h('div', { 'data-page': section });
  const alive = () => seq === state.renderSeq;
  try {
    await PAGES[section].page(view, segs.slice(1), params, alive);
  } catch (e) {
    if (!alive() || !state.key) return;
    view.append(errorBox(e));
  }
  if (!alive() || !state.key) return;
  // Which location the page on screen shows: lets tests (and assistive tech via aria-busy) know a
  // navigation has finished rendering.
  $('view').dataset.shows = location.hash;
  $('view').replaceChildren(view);
  // The new page's heading takes the focus, unless the user has put it somewhere else (the search
  // box, say) while the page was loading: typing there must not be cut off by a late render.
  const now = document.activeElement;
  if (focus && (now === focusedBefore || !now || now === document.body)) view.querySelector('h1')?.focus();
}

onRerender(() => route({ focus: false }));
