// Web pages on origins other than the gateway's, for the hosted-fields tests: a merchant's
// checkout and a hostile page. Chromium resolves every *.localhost name to loopback, so
// http://shop.localhost:PORT and http://evil.localhost:PORT are distinct sites on this machine.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  /** e.g. http://shop.localhost:41235 */
  origin: string;
  /** Serves html at path with these headers (a CSP, say) from now on. */
  set(path: string, html: string, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function pageServer(host: string): Promise<PageServer> {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const server: Server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers }).end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    set: (path, html, headers = {}) => void pages.set(path, { html, headers }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const NONCE = 'r4nd0mN0nce';

/**
 * A merchant checkout with a strict, nonce-based CSP: scripts only by nonce (fields.js included),
 * frames only from the gateway, no styles at all, nothing fetched. Its own fields (the name) stay
 * on the page and travel in `extra`. What the fields emit is kept in window.events; the token
 * response in window.result.
 */
export function checkoutPage(gateway: string, publicKey: string, opts: { timeout?: number } = {}): { html: string; headers: Record<string, string> } {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop checkout</title></head>
<body><main><h1>Checkout</h1>
<form id="pay" novalidate>
<label for="name">Name on card</label> <input id="name" autocomplete="cc-name">
<div id="card"></div>
<button type="submit">Pay</button>
</form>
<p id="out" role="status"></p>
</main>
<script nonce="${NONCE}" src="${gateway}/fields.js"></script>
<script nonce="${NONCE}">
window.events = [];
const fields = window.fields = Tessera.fields(${JSON.stringify(publicKey)}, '#card', { timeout: ${opts.timeout ?? 15000},
  style: { base: { color: '#222222', fontSize: '16px', background: 'url(https://evil.example/x.png)' }, invalid: { color: '#b00020' } } });
['ready', 'change', 'focus', 'blur', 'error', 'submit'].forEach((e) => fields.on(e, (d) => window.events.push({ e, d })));
document.getElementById('pay').addEventListener('submit', (ev) => {
  ev.preventDefault();
  fields.tokenize({ card_owner_name: document.getElementById('name').value, zip: '12345', card_number: '4000000000000002' }, (r) => {
    window.result = r;
    document.getElementById('out').textContent = r.errors ? r.errors[0].code : r.id;
  });
});
</script></body></html>`;
  const csp = [`default-src 'none'`, `script-src 'nonce-${NONCE}'`, `frame-src ${gateway}`, `base-uri 'none'`, `form-action 'none'`].join('; ');
  return { html, headers: { 'content-security-policy': csp } };
}
