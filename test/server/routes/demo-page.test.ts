// The demo page's script (server/public/demo.js) in happy-dom, with a stand-in tokenizer that records
// what the page asks it: nothing in the page's URL may choose where the card goes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterEach, expect, test } from 'vitest';
import { PUBLIC_DIR } from '../../../server/paths.js';

const html = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8')
  .replaceAll('{{PUBLIC_KEY}}', 'test_pk_' + '0'.repeat(55))
  .replace(/<script\b[^>]*><\/script>/g, ''); // loaded by hand below
const demoJs = readFileSync(join(PUBLIC_DIR, 'demo.js'), 'utf8');

let window: Window | undefined;
afterEach(async () => {
  await window?.happyDOM.close();
  window = undefined;
});

/**
 * Opens the page at `url`, submits the bank form, and returns the options the page gave
 * generateToken; the card fields were mounted with the same options.
 */
async function optionsAfterSubmit(url: string): Promise<Record<string, unknown>> {
  window = new Window({ url, settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true } });
  const doc = window.document;
  doc.write(html);
  const calls: Record<string, unknown>[] = [];
  const mounted: Record<string, unknown>[] = [];
  const handle = { on: () => handle, destroy: () => {}, tokenize: () => {} };
  (window as any).Tessera = {
    generateToken: (_key: string, _data: unknown, _cb: unknown, opts: Record<string, unknown>) => calls.push(opts),
    fields: (_key: string, _container: unknown, opts: Record<string, unknown>) => (mounted.push(opts), handle),
  };
  window.eval(demoJs);
  (doc.getElementById('bank-account') as any).value = '000123456789';
  doc.getElementById('bank-form')!.dispatchEvent(new window.Event('submit', { cancelable: true }));
  expect(calls).toHaveLength(1);
  expect(mounted).toEqual([calls[0]]);
  return calls[0];
}

test('a base_url (or baseUrl) in the link is ignored: the tokenizer keeps the gateway that served the page', async () => {
  const opts = await optionsAfterSubmit('http://gateway.test/?base_url=https://evil.example&baseUrl=https://evil.example');
  expect(opts).toEqual({});
  expect(opts).not.toHaveProperty('baseUrl');
  expect(window!.document.getElementById('base-url')).toBeNull(); // no "Gateway URL" field to prefill either
});

test('a timeout in the link still reaches the tokenizer', async () => {
  expect(await optionsAfterSubmit('http://gateway.test/?timeout=500&base_url=https://evil.example')).toEqual({ timeout: 500 });
});
