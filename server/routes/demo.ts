import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readChargeInput } from '../domain/payments/charge-input.js';
import { createCharge } from '../domain/payments/charges.js';
import { createCustomer } from '../domain/instruments/customers.js';
import { readCustomerInput } from '../domain/instruments/customer-input.js';
import { Scope, demoMerchantId, demoPublicKey } from '../domain/merchant/keys.js';
import { TransactionSchema, presentTransaction, ChargeFields } from '../schemas/transactions.js';
import { CustomerCreateFields } from '../schemas/customers.js';
import { E, GatewayError } from '../errors.js';
import { PUBLIC_DIR } from '../paths.js';

export interface DemoOptions {
  /** Serve the demo checkout (TESSERA_DEMO, on by default only with `tessera serve --dev`). */
  enabled: boolean;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The demo checkout: the page at /, its two assets, and its "merchant server" POST /demo/charge.
 * Off (production), / is a short page pointing to /docs and /dashboard, and nothing else exists.
 */
export default async function demoRoutes(app: FastifyInstance, opts: DemoOptions) {
  const options = { config: { access: 'none' as const } };
  const html = 'text/html; charset=utf-8';
  if (!opts.enabled) {
    const home = readFileSync(join(PUBLIC_DIR, 'home.html'));
    app.get('/', options, async (_req, reply) => reply.type(html).send(home));
    return;
  }

  // The page's own assets: a fixed list, so nothing else under public/ is served by accident.
  for (const [file, type] of [['demo.css', 'text/css; charset=utf-8'], ['demo.js', 'application/javascript; charset=utf-8']] as const) {
    const body = readFileSync(join(PUBLIC_DIR, file));
    app.get(`/${file}`, options, async (_req, reply) => reply.type(type).header('cache-control', 'no-cache').send(body));
  }
  const page = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8');
  app.get('/', options, async (_req, reply) => {
    const key = (await demoPublicKey(app.services.db, app.services.clock.now())) ?? '';
    return reply.type(html).send(page.replaceAll('{{PUBLIC_KEY}}', escapeHtml(key)));
  });

  demoCharge(app);
}

/**
 * Only the page this gateway served may call the demo merchant server. A browser names the
 * requesting site (Sec-Fetch-Site, Origin): anything but this origin is refused. A plain form
 * (urlencoded, multipart or text/plain, which the body parsers would otherwise read as JSON) is
 * refused by its type, so a cross-site page is left with a CORS-preflighted request, which this
 * gateway never allows. Clients without those headers are not browsers and carry no one's cookies.
 */
async function sameOriginJson(req: FastifyRequest): Promise<void> {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site !== undefined && site !== 'same-origin') throw new GatewayError(E.DEMO_CROSS_SITE);
  if (origin !== undefined && !sameHost(origin, req.host ?? '')) throw new GatewayError(E.DEMO_CROSS_SITE);
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new GatewayError(E.DEMO_JSON_ONLY);
}

/** Origin `https://pay.example.com` and Host `pay.example.com` (or `:443`) name the same server. */
function sameHost(origin: string, host: string): boolean {
  try {
    const o = new URL(origin);
    return o.host === new URL(`${o.protocol}//${host}`).host;
  } catch {
    return false; // "null" (a sandboxed or opaque origin), or garbage
  }
}

/**
 * The demo page's "merchant server": what a merchant's backend does with a token, done here for
 * the demo merchant's TEST environment only, so the page never holds a private key. Real
 * merchants call POST /api/v1/charge (and /customers) from their own server.
 */
function demoCharge(app: FastifyInstance): void {
  const { db, vault, clock } = app.services;
  const body = {
    type: 'object',
    properties: { token: { type: 'string' }, amount: {}, save_customer: { type: 'boolean' } },
  };
  const response = {
    type: 'object',
    properties: { customer_id: { type: ['string', 'null'] }, transaction: TransactionSchema },
  };
  const route = { config: { access: 'none' as const }, onRequest: sameOriginJson, schema: { body, response: { 200: response } } };

  app.post('/demo/charge', route, async (req) => {
    const merchantId = await demoMerchantId(db);
    if (!merchantId) throw new GatewayError(E.NO_ENDPOINT, 'this gateway has no demo merchant');
    const scope: Scope = { merchantId, env: 'test' };
    const { token, amount, save_customer } = req.body as { token?: string; amount?: unknown; save_customer?: boolean };
    let customerId: string | null = null;
    let charge: Record<string, unknown> = { token, amount, description: 'Demo checkout' };
    if (save_customer) {
      if (!token) throw new GatewayError(E.TOKEN_NOT_FOR_MERCHANT);
      const customer = await req.tx((q) => createCustomer(q, vault, scope, readCustomerInput(CustomerCreateFields.read({ token }), 'create'), clock.now()));
      customerId = customer.id as string;
      charge = { customer_id: customerId, amount, description: 'Demo checkout (saved customer)' };
    }
    const now = clock.now();
    const input = readChargeInput(scope, ChargeFields.read(charge), now);
    const { txn, failure } = await req.tx((q) => createCharge(q, { vault, connector: app.services.processors.simulator }, scope, input, now));
    if (failure) throw failure;
    return { customer_id: customerId, transaction: presentTransaction(txn) };
  });
}
