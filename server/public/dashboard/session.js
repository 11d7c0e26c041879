// @ts-check
// Signing in and out. The key is checked against the gateway before it is kept.
import { api, ApiError, onSessionExpired } from './api.js';
import { $ } from './dom.js';
import { setCurrency } from './format.js';
import { route } from './router.js';
import { clearSearch, startSearch } from './search.js';
import { clearSession, setSession, state } from './state.js';

const PRIVATE_KEY = /^(test|live)_sk_[0-9a-f]{55}$/;

/** @param {string} [message] */
export function signOut(message) {
  clearSession();
  clearSearch();
  for (const d of document.querySelectorAll('dialog')) d.remove();
  $('view').replaceChildren();
  showSignIn(message);
}

onSessionExpired(() => signOut('Your key is no longer valid (expired or replaced). Sign in with a current private key.'));

/** @param {string} [message] */
export function showSignIn(message) {
  $('nav').hidden = true;
  $('account').hidden = true;
  $('env-badge').hidden = true;
  $('search').hidden = true;
  $('sign-in').hidden = false;
  const err = $('sign-in-error');
  err.hidden = !message;
  err.textContent = message ?? '';
  document.title = 'Tessera · sign in';
  const input = /** @type {HTMLInputElement} */ ($('sign-in-key'));
  input.value = '';
  input.focus();
}

async function loadOverview() {
  const o = await api('/dashboard/overview');
  state.overview = o;
  setCurrency(o.currency);
  const badge = $('env-badge');
  badge.textContent = `${o.env} mode`;
  badge.className = o.env === 'live' ? 'badge live' : 'badge';
  badge.hidden = false;
  $('merchant-name').textContent = `${o.name || 'Merchant'} · ${o.merchant_id}`;
  return o;
}

/** @param {SubmitEvent} event */
export async function signIn(event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('sign-in-key'));
  const key = input.value.trim();
  const err = $('sign-in-error');
  /** @param {string} msg */
  const fail = (msg) => {
    err.textContent = msg;
    err.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };
  if (/^(test|live)_pk_/.test(key)) return fail('That is a public key. Sign in with the private key (…_sk_…): the dashboard reads your data.');
  if (!PRIVATE_KEY.test(key)) return fail('A private key is 63 characters: test_sk_ or live_sk_ followed by 55 hexadecimal characters.');
  try {
    await api('/dashboard/overview', { key });
  } catch (e) {
    return fail(e instanceof ApiError && e.status === 401 ? 'This key is unknown or has expired.' : `Sign-in failed: ${e instanceof Error ? e.message : e}`);
  }
  input.removeAttribute('aria-invalid');
  input.value = '';
  setSession(key);
  await start({ focus: true });
}

/** @param {{ focus?: boolean }} [options] */
export async function start({ focus = false } = {}) {
  try {
    await loadOverview();
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) signOut(`Could not load the dashboard: ${e instanceof Error ? e.message : e}`);
    return;
  }
  $('sign-in').hidden = true;
  $('nav').hidden = false;
  $('account').hidden = false;
  $('search').hidden = false;
  startSearch();
  if (!location.hash || location.hash === '#' || location.hash === '#/') history.replaceState(null, '', '#/home');
  await route({ focus });
}
