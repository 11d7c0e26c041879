import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  chargeCustomers, generateKeySet, merchantKeys, merchantOverview, testCards,
} from '../domain/dashboard/dashboard.js';
import { describeConnections } from '../domain/merchant/processor-connections.js';
import { listTransactions } from '../domain/payments/transactions.js';
import { presentTransaction } from '../schemas/transactions.js';
import { E, badRequest } from '../errors.js';
import { listEnvelope } from '../http/paging.js';
import { List } from '../schemas/common.js';
import {
  DashboardTransactionSchema, KeysSchema, NewKeySetBody, NewKeySetSchema, OverviewSchema, ProcessorSchema, TestCardsSchema, TransactionsQuery, transactionFilterOf,
} from '../schemas/dashboard.js';
import { PUBLIC_DIR } from '../paths.js';

// The page's modules and styles: the .js and .css files of public/dashboard and public/dashboard/pages,
// listed once at start (nothing else under public/ is served by accident), and uPlot's browser build
// from its package (the home page's chart; no CDN).
const TYPES = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' } as const;
function dashboardAssets(): [url: string, path: string, type: string][] {
  const dir = join(PUBLIC_DIR, 'dashboard');
  const own = ['', 'pages/'].flatMap((sub) => readdirSync(join(dir, sub))
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .map((f): [string, string, string] => [`/dashboard/${sub}${f}`, join(dir, sub, f), TYPES[extname(f) as keyof typeof TYPES]]));
  const uplot = dirname(createRequire(import.meta.url).resolve('uplot'));
  return [...own,
    ['/dashboard/vendor/uPlot.iife.min.js', join(uplot, 'uPlot.iife.min.js'), TYPES['.js']],
    ['/dashboard/vendor/uPlot.min.css', join(uplot, 'uPlot.min.css'), TYPES['.css']]];
}

/**
 * The merchant dashboard (spec 5.5): a static page at /dashboard that calls the JSON API with the
 * private key the merchant signs in with, plus the few endpoints the API lacks, under
 * /api/v1/dashboard (private key; a public key is 403 like everywhere else).
 */
export default async function dashboardRoutes(app: FastifyInstance) {
  const { db, clock } = app.services;
  const page = { config: { access: 'none' as const } };
  // The page holds a private key (in sessionStorage): it loads nothing but its own files, runs no
  // inline script and cannot be framed, by the pages' CSP that http/headers.ts sets on every answer.

  const html = readFileSync(join(PUBLIC_DIR, 'dashboard', 'index.html'));
  // Also /dashboard/: the router ignores a trailing slash.
  app.get('/dashboard', page, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    reply.type('text/html; charset=utf-8');
    return html;
  });
  for (const [url, path, type] of dashboardAssets()) {
    const body = readFileSync(path);
    app.get(url, page, async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      reply.type(type);
      return body;
    });
  }

  app.get('/api/v1/dashboard/overview', { schema: { summary: 'Dashboard: the merchant, environment, test key and clock', response: { 200: OverviewSchema } } }, async (req) => ({
    class: 'dashboard_overview',
    ...(await merchantOverview(db, req.identity, clock.now(), req.now)),
  }));

  app.get('/api/v1/dashboard/keys', { schema: { summary: 'Dashboard: the key sets, redacted', response: { 200: KeysSchema } } }, async (req) => ({
    class: 'key_sets',
    ...(await merchantKeys(db, req.identity.merchantId, clock.now())),
  }));

  app.post<{ Body: { env?: 'test' | 'live'; expire_old?: 'now' | '1h' } }>(
    '/api/v1/dashboard/keys',
    {
      config: { errors: [E.TEST_KEY_CANNOT_MAKE_LIVE], idempotency: false },
      schema: { summary: 'Dashboard: make a new key set (its private key is shown once)', body: NewKeySetBody, response: { 200: NewKeySetSchema } },
      // Replaying this answer would mean storing the private key: refuse before the idempotency hook claims the key.
      onRequest: async (req) => {
        if (req.headers['idempotency-key'] !== undefined) {
          throw badRequest('Idempotency-Key is not accepted here: a new private key is shown once and never stored');
        }
      },
    },
    async (req, reply) => {
      const body = req.body ?? {};
      const set = await req.tx((q) =>
        generateKeySet(q, req.identity, body.env ?? req.identity.env, body.expire_old ?? 'now', clock.now()),
      );
      // Keys changed: this process's key-lookup cache must not keep an expired key alive.
      app.services.keys?.forget(req.identity.merchantId);
      reply.header('cache-control', 'no-store');
      return { class: 'key_set', ...set };
    },
  );

  // Read-only: the operator sets a connection (`tessera processor set`); its secrets never leave the vault.
  app.get('/api/v1/dashboard/processor', { schema: { summary: 'Dashboard: the processor connection of each environment (no secret)', response: { 200: ProcessorSchema } } }, async (req) => {
    const [test, live] = await describeConnections(db, req.identity.merchantId);
    return { class: 'processor_connections', test, live };
  });

  app.get('/api/v1/dashboard/test-cards', { schema: { summary: 'Dashboard: the test cards and their outcomes', response: { 200: TestCardsSchema } } }, async () => testCards());

  // GET /transactions with filters, plus who each charge was for (the list's Customer and Email columns);
  // the filtering itself is listTransactions' (domain/payments/transactions.ts).
  app.get('/api/v1/dashboard/transactions', {
    config: { errors: [E.PAGE_INVALID] },
    schema: {
      summary: 'Dashboard: transactions with filters, each with its customer\'s name and email',
      querystring: TransactionsQuery,
      response: { 200: List(DashboardTransactionSchema) },
    },
  }, async (req) => {
    const { limit, offset, ...filter } = TransactionsQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listTransactions(db, req.identity, page, transactionFilterOf(filter));
    const who = await chargeCustomers(db, req.identity, list);
    return listEnvelope(list.map((t, i) => ({ ...presentTransaction(t), ...who[i] })), page, total);
  });
}
