import { ProcessorRegistry, builtInRegistry } from './processor/processor.js';
import type { TrustProxy } from './config.js';
import Fastify, { FastifyInstance } from 'fastify';
import { Clock } from './clock.js';
import { Db } from './db/index.js';
import { registerAuth } from './http/auth.js';
import { registerBodyParsers } from './http/body.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './http/errors.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerTx } from './http/tx.js';
import { registerRequestId, requestId, withRequestId } from './http/request-id.js';
import { registerHeaders } from './http/headers.js';
import { registerDeadline } from './http/deadline.js';
import { TokenLimiter } from './http/ratelimit.js';
import { ConnectionLimits, capConnections, connectionLimitsFrom, proxyPeers } from './http/connections.js';
import { Metrics } from './metrics.js';
import { collectRoutes } from './openapi.js';
import { readFieldTables } from './http/input.js';
import { sharedCompilers } from './http/compilers.js';
import demoRoutes from './routes/demo.js';
import fieldsRoutes from './routes/fields.js';
import dashboardRoutes from './routes/dashboard.js';
import dashboardReportRoutes from './routes/dashboard-reports.js';
import docsRoutes from './routes/docs.js';
import chargeRoutes from './routes/charges.js';
import healthRoutes, { ReadinessCheck } from './routes/health.js';
import settingsRoutes from './routes/settings.js';
import customerRoutes from './routes/customers.js';
import methodRoutes from './routes/methods.js';
import staticRoutes from './routes/static.js';
import tokenRoutes from './routes/tokens.js';
import testHelperRoutes from './routes/test-helpers.js';
import outboxRoutes from './routes/outbox.js';
import receiptRoutes from './routes/receipts.js';
import templateRoutes from './routes/templates.js';
import webhookRoutes from './routes/webhooks.js';
import planRoutes from './routes/plans.js';
import subscriptionRoutes from './routes/subscriptions.js';
import billingRoutes from './routes/billings.js';
import scheduledRoutes from './routes/scheduled.js';
import clockRoutes from './routes/clock.js';
import invoiceRoutes from './routes/invoices.js';
import updaterRoutes from './routes/updater.js';
import type { Notifier } from './notify/outbox.js';
import type { SettleWorkers } from './jobs/settle.js';
import { KeyCache, type Scope } from './domain/merchant/keys.js';
import { Vault } from './vault.js';

export interface Services {
  db: Db;
  vault: Vault;
  clock: Clock;
  /** Card-testing defence of the public token endpoints; absent means no limits. */
  limiter?: TokenLimiter;
  /** Key lookups, cached briefly in production (start.ts); absent means no cache. */
  keys?: KeyCache;
  /** The outbox worker (start.ts): kicked after a request queues a message; absent, messages wait for the next round. */
  notify?: Notifier;
  /** The recurring-billing scheduler (start.ts): kicked when a request queued a callback (its deliverer claims it). */
  scheduler?: Notifier;
  /**
   * The delivery wake (start.ts, jobs/dispatch.ts): kicked after every private-key request that may
   * have written events, whose deliveries are queued with them (with its scope: nothing where no
   * rule listens); told when rules or strategies change.
   */
  events?: { kick(scope?: Scope): void; rulesChanged?(scope: Scope): void };
  /** The process's workers POST /test_helpers/settle drives (start.ts); absent, it delivers without them. */
  settler?: SettleWorkers;
  /** Dependencies /readyz asks about besides the database, by name (start.ts: redis; the data key). */
  readiness?: Record<string, ReadinessCheck>;
  /** The processor connectors by name (start.ts); the simulator is test mode's. */
  processors: ProcessorRegistry;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    metrics: Metrics;
  }
}

export interface AppOptions {
  logLevel?: string;
  bodyLimit?: number;
  /** Take the client address from X-Forwarded-For (behind a proxy). */
  trustProxy?: TrustProxy;
  /** Serve the demo checkout at / and /demo/* (TESSERA_DEMO; `tessera serve --dev`). Default off. */
  demo?: boolean;
  /** The request deadline (REQUEST_DEADLINE_MS); tests shorten it. */
  requestDeadlineMs?: number;
  /**
   * Keep-alive and the socket caps (http/connections.ts); absent, TESSERA_KEEP_ALIVE_MS,
   * TESSERA_MAX_CONNECTIONS and TESSERA_MAX_CONNECTIONS_PER_ADDRESS of the environment, or their defaults.
   */
  connections?: ConnectionLimits;
}

/** Field names whose values never reach a log line. */
export const REDACT = [
  'req.headers.authorization',
  '*.card_number', '*.csc', '*.cvv', '*.bank_account_number', '*.public_api_key',
];

/** How long a request may take from its arrival to its answer (http/deadline.ts; routes that wait longer say so: settle). */
export const REQUEST_DEADLINE_MS = 30_000;

const hopsOf = (n: number) => (_address: string, hop: number) => hop < n;

/** Builds the gateway without listening: tests drive it with inject(), main.ts with listen(). */
export async function buildApp(
  services: Omit<Services, 'processors'> & { processors?: ProcessorRegistry }, opts: AppOptions = {},
): Promise<FastifyInstance> {
  // `tessera serve` checked them already (config.ts: a bad one is a ConfigError before anything opens).
  const connections = opts.connections ?? connectionLimitsFrom(process.env);
  const app = Fastify({
    logger: {
      level: opts.logLevel ?? 'silent',
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // Query strings carry card data on the JSONP route: log paths only. The client's address
        // is req.ip: the socket's peer, or what X-Forwarded-For says as far as TRUST_PROXY trusts it.
        req: (req) => ({ method: req.method, url: req.url.split('?')[0], reqId: req.id, remoteAddress: req.ip }),
      },
    },
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    // A hop count as Fastify does it for numbers: the socket's peer (hop 0) and the next n - 1 are proxies.
    trustProxy: typeof opts.trustProxy === 'number' ? hopsOf(opts.trustProxy) : (opts.trustProxy ?? false),
    // `/api/v1//receipts/templates` (an official README example) is `/api/v1/receipts/templates`.
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    requestTimeout: 30_000,
    // X-Request-Id: kept when the caller sends a sane one, else a random UUID (http/request-id.ts).
    genReqId: requestId,
    requestIdHeader: false,
    // Node checks requestTimeout only every connectionsCheckingInterval (30 s by default), which let a
    // slow-loris connection live 60 to 90 s; checked each second, it is cut at 30 s.
    http: { connectionsCheckingInterval: 1_000 },
    // Fastify's default keeps an idle keep-alive socket 72 s; the gateway drops it sooner (5 s by
    // default), before the proxies in front do (docs/decisions/connections-and-files.md).
    keepAliveTimeout: connections.keepAliveMs,
    frameworkErrors: withRequestId(frameworkErrorHandler),
    clientErrorHandler,
    // Scalars only: 'array' coercion unwrapped ["x"] into "x", so a list passed for a string field.
    ajv: { customOptions: { coerceTypes: true, removeAdditional: true, useDefaults: true, allowUnionTypes: true } },
    // Each route's validator and serializer compiled once per process, not once per app (http/compilers.ts).
    schemaController: { compilersFactory: sharedCompilers },
  });
  app.decorate('services', { ...services, keys: services.keys ?? new KeyCache(0), processors: services.processors ?? builtInRegistry() });
  app.decorate('metrics', new Metrics());
  // Sockets over the process's or one address's cap are closed as they are accepted (http/connections.ts).
  capConnections(app.server, connections, {
    exempt: proxyPeers(opts.trustProxy),
    onRefused: (by) => app.metrics.inc('tessera_connections_refused_total',
      'Sockets closed as they were accepted: over the process cap (TESSERA_MAX_CONNECTIONS) or one address\'s (TESSERA_MAX_CONNECTIONS_PER_ADDRESS).', { by }),
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    app.metrics.inc('http_requests_total', 'Requests by route and status.', { method: req.method, route, status: String(reply.statusCode) });
    app.metrics.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    // Events and their deliveries are written in the transaction of a change, by many routes: after
    // any private-key request that could change something, in either environment, the delivery
    // loops claim at once instead of at their next round, so a webhook follows its event within
    // milliseconds. The kick names the merchant environment: nothing happens where no rule listens
    // (jobs/dispatch.ts, DeliveryWake; docs/decisions/webhook-delivery.md).
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.identity?.kind === 'sk' && reply.statusCode < 500) {
      if (route.startsWith('/api/v1/webhooks/')) services.events?.rulesChanged?.(req.identity);
      services.events?.kick(req.identity);
    }
  });
  registerRequestId(app);
  registerDeadline(app, opts.requestDeadlineMs ?? REQUEST_DEADLINE_MS);
  registerBodyParsers(app);
  registerErrorHandler(app);
  registerAuth(app);
  registerIdempotency(app, { secretFields: REDACT });
  registerTx(app);
  registerHeaders(app);

  const openapi = collectRoutes(app);
  readFieldTables(app);
  await app.register(staticRoutes);
  await app.register(fieldsRoutes);
  await app.register(healthRoutes);
  await app.register(demoRoutes, { enabled: opts.demo ?? false });
  await app.register(
    async (api) => {
      await api.register(tokenRoutes);
      await api.register(customerRoutes);
      await api.register(methodRoutes);
      await api.register(chargeRoutes);
      await api.register(settingsRoutes);
      await api.register(testHelperRoutes);
      await api.register(templateRoutes);
      await api.register(receiptRoutes);
      await api.register(outboxRoutes);
      await api.register(webhookRoutes);
      await api.register(planRoutes);
      await api.register(subscriptionRoutes);
      await api.register(billingRoutes);
      await api.register(scheduledRoutes);
      await api.register(clockRoutes);
      await api.register(invoiceRoutes);
      await api.register(updaterRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(dashboardRoutes);
  await app.register(dashboardReportRoutes);
  await app.register(docsRoutes, { openapi });
  return app;
}
