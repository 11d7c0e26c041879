// @ts-check
// The session of this tab: the private key (sessionStorage only: never localStorage, never a
// cookie) and what the gateway said about the merchant when it was signed in.

/**
 * GET /api/v1/dashboard/overview, as the OpenAPI document describes it (api-types.d.ts; npm run
 * dashboard:types), but for two fields the document does not say: `env` is one of the two
 * environments (the document: any string), and `currency`, the merchant's currency, read when a
 * gateway sends one (else USD; the document has no such field, this gateway sends none).
 * @typedef {Omit<import('./api-types').Answer<'/dashboard/overview'>, 'env'> & { env: 'test' | 'live', currency?: string }} Overview
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
