// A tiny merchant: one checkout page and the server side of a payment, with node:http only.
//
// The page mounts the gateway's hosted card fields (fields.js: a frame from the gateway holding the
// card inputs) and turns the card into a one-time token in the browser; the card never reaches
// this page's script, nor this server. POST /pay then charges the token with the private
// key, which never leaves this server. The tests start it with startShop(); by hand:
//
//   TESSERA_URL=http://localhost:8080 TESSERA_PUBLIC_KEY=test_pk_... TESSERA_PRIVATE_KEY=test_sk_... node shop.mjs
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PAGE = readFileSync(new URL('./checkout.html', import.meta.url), 'utf8');

/**
 * @param {{ url: string, publicKey: string, privateKey: string, port?: number }} gateway
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startShop(gateway) {
  const gatewayUrl = gateway.url.replace(/\/+$/, '');
  /** Orders are priced here, on the server: the page never decides what it pays. */
  const orders = new Map();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    try {
      if (req.method === 'GET' && url.pathname === '/') {
        const amount = Number(url.searchParams.get('amount') ?? 1999);
        const order = { id: randomUUID().slice(0, 8), amount: Number.isSafeInteger(amount) && amount > 0 ? amount : 1999 };
        orders.set(order.id, order);
        const html = PAGE.replaceAll('{{FIELDS_URL}}', `${gatewayUrl}/fields.js`)
          .replaceAll('{{PUBLIC_KEY}}', gateway.publicKey)
          .replaceAll('{{ORDER_ID}}', order.id)
          .replaceAll('{{AMOUNT}}', `$${(order.amount / 100).toFixed(2)}`);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/pay') {
        const { order: orderId, token, email } = JSON.parse(await body(req));
        const order = orders.get(orderId);
        if (!order || typeof token !== 'string') return json(res, 400, { paid: false, message: 'unknown order or no token' });
        // The merchant's server side of a payment: the token and the amount, with the private key.
        const charge = await fetch(`${gatewayUrl}/api/v1/charge`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${gateway.privateKey}:`).toString('base64')}`,
            'content-type': 'application/json',
            'idempotency-key': `order-${order.id}-${token}`,
          },
          body: JSON.stringify({
            token,
            amount: order.amount,
            description: `Order ${order.id}`,
            ...(email ? { send_receipt: true, email_address: email } : {}),
          }),
        });
        const answer = await charge.json();
        if (charge.ok && answer.successful) {
          orders.delete(order.id);
          return json(res, 200, { paid: true, transaction_id: answer.id, amount: order.amount });
        }
        const error = answer.errors?.[0] ?? { code: answer.status, message: answer.error_message };
        return json(res, 200, { paid: false, code: error.code, message: error.message, transaction_id: error.transaction_id ?? answer.id ?? null });
      }
      json(res, 404, { message: 'not found' });
    } catch (err) {
      json(res, 500, { paid: false, message: String(err) });
    }
  });

  await new Promise((resolve) => server.listen(gateway.port ?? 0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}

function body(req) {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8').on('data', (c) => (s += c)).on('end', () => resolve(s)).on('error', reject);
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

// `node shop.mjs`: against a gateway started with `npm start` in the repository root.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { TESSERA_URL = 'http://localhost:8080', TESSERA_PUBLIC_KEY, TESSERA_PRIVATE_KEY, PORT = '3000' } = process.env;
  if (!TESSERA_PUBLIC_KEY || !TESSERA_PRIVATE_KEY) {
    console.error('set TESSERA_PUBLIC_KEY and TESSERA_PRIVATE_KEY (printed by `npm start` on its first run)');
    process.exit(1);
  }
  const shop = await startShop({ url: TESSERA_URL, publicKey: TESSERA_PUBLIC_KEY, privateKey: TESSERA_PRIVATE_KEY, port: Number(PORT) });
  console.log(`shop on ${shop.url}`);
}
