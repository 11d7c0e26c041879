// @ts-check
// Tessera merchant dashboard: a small single-page app over the JSON API, no framework, no build:
// ES modules by concern (api, dom, format, tables, nav, router, session, search) and one per page
// (pages/*.js), checked by tsc (jsconfig.json). The private key the merchant signs in with lives in
// sessionStorage only and goes out as HTTP Basic, exactly like a merchant's server.
import { $ } from './dom.js';
import { route } from './router.js';
import { showSignIn, signIn, signOut, start } from './session.js';
import { state } from './state.js';

function boot() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => signOut());
  window.addEventListener('hashchange', () => void route());
  if (state.key) void start();
  else showSignIn();
}

// A module runs after the document is parsed.
boot();
