// The dashboard's Keys page (server/public/dashboard/dashboard.js) in happy-dom, over a real gateway
// (fetch answered by inject): a private key seen in a browser is flagged on its set, with a warning.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { PUBLIC_DIR } from '../../../server/paths.js';
import { Merchant, TestGateway, startGateway, visa } from '../../helpers/gateway.js';

const html = readFileSync(join(PUBLIC_DIR, 'dashboard', 'index.html'), 'utf8').replace(/<script\b[^>]*><\/script>/g, '');
const dashboardJs = readFileSync(join(PUBLIC_DIR, 'dashboard', 'dashboard.js'), 'utf8');

let gw: TestGateway;
let window: Window | undefined;
beforeAll(async () => { gw = await startGateway(); });
afterAll(() => gw.close());
afterEach(async () => {
  await window?.happyDOM.close();
  window = undefined;
});

/** Opens #/keys signed in with `key` and answers once the page has rendered. */
async function keysPage(key: string) {
  window = new Window({ url: 'http://gateway.test/dashboard#/keys', settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true } });
  const doc = window.document;
  doc.write(html);
  window.sessionStorage.setItem('tessera.dashboard.key', key);
  (window as any).fetch = async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
    const res = await gw.app.inject({ method: (init.method ?? 'GET') as 'GET', url, headers: init.headers, payload: init.body });
    return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
  };
  window.eval(dashboardJs);
  await vi.waitFor(() => expect(doc.getElementById('view')!.getAttribute('data-shows')).toBe('#/keys'), { timeout: 20_000 });
  return doc;
}

const exposeOnJsonp = (m: Merchant) => gw.app.inject({
  url: '/api/v1/tokens/jsonp',
  query: { callback: 'cb', public_api_key: m.test.private_key, ...Object.fromEntries(Object.entries(visa).map(([k, v]) => [k, String(v)])) },
});

test('no warning while no private key was exposed; after one was, the set is marked and the page says to roll it', async () => {
  const m = await gw.newMerchant();
  let doc = await keysPage(m.test.private_key);
  expect(doc.querySelectorAll('[data-testid="key-exposed"]')).toHaveLength(0);
  expect(doc.querySelector('[data-testid="keys-test"]')!.textContent).not.toContain('exposed');

  await exposeOnJsonp(m);
  await window!.happyDOM.close();
  doc = await keysPage(m.test.private_key);
  const warnings = [...doc.querySelectorAll('[data-testid="key-exposed"]')].map((e) => e.textContent);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(m.test.key_set_id);
  expect(warnings[0]).toMatch(/compromised/);
  expect(doc.querySelector('[data-testid="key-exposed"] [role="alert"]')).not.toBeNull();
  expect(doc.querySelector('[data-testid="keys-test"] .pill.bad')!.textContent).toBe('exposed');
  expect(doc.querySelector('[data-testid="keys-live"]')!.textContent).not.toContain('exposed');
  expect(doc.body.textContent).not.toContain(m.test.private_key.slice(8));
});
