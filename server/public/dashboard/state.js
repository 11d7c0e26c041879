// @ts-check
// The session of this tab: the private key (sessionStorage only: never localStorage, never a
// cookie) and what the gateway said about the merchant when it was signed in.

/**
 * @typedef {object} Overview GET /api/v1/dashboard/overview
 * @property {string} merchant_id
 * @property {string} name
 * @property {'test' | 'live'} env
 * @property {boolean} live_enabled
 * @property {string | null} test_public_key
 * @property {string} now
 * @property {number} clock_offset_ms
 * @property {string} [currency] the merchant's currency, when the gateway has one (else USD)
 */

const KEY_STORE = 'tessera.dashboard.key';

export const state = {
  /** @type {string | null} */
  key: sessionStorage.getItem(KEY_STORE),
  /** @type {Overview | null} */
  overview: null,
  /** Bumped by every navigation: a render that finds it changed stops (its page is gone). */
  renderSeq: 0,
};

/** @param {string} key */
export function setSession(key) {
  state.key = key;
  sessionStorage.setItem(KEY_STORE, key);
}

export function clearSession() {
  state.key = null;
  state.overview = null;
  sessionStorage.removeItem(KEY_STORE);
}

/** The signed-in merchant's overview; pages render only once it is loaded. */
export function overview() {
  if (!state.overview) throw new Error('not signed in');
  return state.overview;
}
