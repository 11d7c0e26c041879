import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError } from './config.js';
import type { ReadinessCheck } from './routes/health.js';
import { Clock, systemClock } from './clock.js';
import { pino } from 'pino';
import { Db, Queryable, openDatabase } from './db/index.js';
import type { MigrationLog } from './db/migrate.js';
import { ensurePrivateDir } from './db/private-dir.js';
import { maintain } from './db/maintenance.js';
import { Loop } from './lib/loop.js';
import { KeyCache, KeySet, createKeySet, createMerchant } from './domain/merchant/keys.js';
import { MerchantSettings, updateSettings } from './domain/merchant/settings.js';
import { purgeIdempotencyKeys } from './http/idempotency.js';
import { wipeExpiredTokens } from './domain/instruments/tokens.js';
import { RedisCounters, connectRedis, localCounters } from './http/counters.js';
import { DEFAULT_LIMITS, RateLimits, TokenLimiter } from './http/ratelimit.js';
import { loadVault } from './vault.js';
import { checkDataKey } from './vault-canary.js';
import { hasFreeSpace } from './db/disk.js';
import { watchDataKey } from './vault-cluster.js';
import { NotifyConfig, OutboxWorker, createTransports } from './notify/index.js';
import { Scheduler } from './jobs/scheduler.js';
import { DeliveryWake } from './jobs/dispatch.js';
import type { CallbackDeliverer } from './jobs/deliverer.js';
import { completeDueReviews, sweepDueReceipts } from './jobs/sweeps.js';
import { configureOutbound } from './net/outbound.js';
import { TrustProxy, outboundAllowFrom, testLoopbackFrom } from './config.js';
import adminRoutes from './routes/admin.js';
import { builtInRegistry } from './processor/processor.js';
import { Reconciler } from './jobs/reconciler.js';
import { sendChargeReceipt } from './domain/documents/receipts.js';
import { resolveRuns } from './domain/billing/run-outcome.js';
import { loopbackUrl, newAdminToken, writeControlFile } from './control-file.js';

export interface StartOptions {
  /** 0 picks a free port. Default 8080. */
  port?: number;
  host?: string;
  /** 'memory': PGlite in memory, no data dir, no lock, a fresh merchant and keys every start. */
  storage?: 'memory' | 'disk';
  dataDir?: string;
  databaseUrl?: string;
  /** PostgreSQL named prepared statements (DATABASE_PREPARED_STATEMENTS); default on. */
  preparedStatements?: boolean;
  dataKey?: string;
  retiredDataKeys?: string;
  logLevel?: string;
  /** The gateway's clock starts here and runs at real speed (QA: fixed dates on receipts, expiries). */
  clockStart?: Date | string;
  /** Card-testing defence of the public token endpoints (TESSERA_RATE_LIMITS); defaults apply when absent. */
  rateLimits?: RateLimits;
  /** Keep the rate-limit counters in this Redis (REDIS_URL) instead of the database; optional. */
  redisUrl?: string;
  /** Prefix of Tessera's Redis keys (REDIS_KEY_PREFIX), for several gateways on one Redis. Default `tessera:`. */
  redisKeyPrefix?: string;
  /** Honour X-Forwarded-For from a proxy in front (TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /**
   * Private targets merchants' webhook and callback URLs may name (TESSERA_OUTBOUND_ALLOW, read from
   * the environment when absent). The setting is the process's: every gateway of it shares one.
   */
  outboundAllow?: string[];
  /**
   * Test mode may call loopback (TESSERA_TEST_LOOPBACK; read from the environment when absent, on
   * when that is unset too: the QA kit's receivers live there). `tessera serve` passes it: on with
   * --dev only (docs/decisions/production-defaults.md).
   */
  testLoopback?: boolean;
  /**
   * On an empty database, create the demo merchant with test keys (returned as merchantId,
   * publicKey, privateKey). Default true (tests, the QA kit); `tessera serve` passes it with --dev
   * only: a production gateway makes no merchant and holds no key nobody asked for.
   */
  demoMerchant?: boolean;
  /** Serve the demo checkout at / and /demo/* (TESSERA_DEMO; on with `tessera serve --dev`). Default off. */
  demo?: boolean;
  /** The demo merchant's test-environment verification switches. */
  settings?: Partial<MerchantSettings>;
  /** Email (SMTP_URL) and SMS (SMS_WEBHOOK_URL) transports; without them messages stay in the outbox. */
  notify?: NotifyConfig;
  /** Pause between rounds of the recurring-billing scheduler (billings, scheduled transactions, callbacks). Default 5 s. */
  schedulerIntervalMs?: number;
  /** How often this node reconciles live charges and refunds whose outcome is unknown (jobs/reconciler.ts). */
  reconcileIntervalMs?: number;
  /** How long an operation its processor has no record of may still be on its way (domain/payments/reconcile.ts). */
  reconcileNotFoundMs?: number;
  /** Embedded database only: pause between checks for tables due a VACUUM ANALYZE and WAL due a CHECKPOINT (db/maintenance.ts). Default 60 s. */
  maintenanceIntervalMs?: number;
  warn?: (msg: string) => void;
}

export interface RunningTessera {
  url: string;
  tokenizerUrl: string;
  merchantId: string | null;
  /** The demo merchant's test keys; null when the database already had merchants (keys were shown then) or with `demoMerchant: false`. */
  publicKey: string | null;
  privateKey: string | null;
  app: FastifyInstance;
  db: Db;
  /** Delivers queued email and SMS every few seconds; `outbox.drain()` delivers what is due now. */
  outbox: OutboxWorker;
  /** Runs due billings and scheduled transactions and delivers billing callbacks; `scheduler.tick()` runs a round now. */
  scheduler: Scheduler;
  /** Sends webhook deliveries and billing callbacks (the scheduler's deliverer): claims as requests end, when kicked, and every second. */
  webhooks: CallbackDeliverer;
  close(): Promise<void>;
}

/** A clock that starts at `start` and then runs at real speed. */
export function clockFrom(start: Date | string): Clock {
  const offset = new Date(start).getTime() - Date.now();
  if (Number.isNaN(offset)) throw new Error(`clockStart is not a date: ${String(start)}`);
  return { now: () => new Date(Date.now() + offset) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How long a node may keep using a key lookup: a revoked key stops working within this. */
const KEY_CACHE_MS = 1000;

/** Listens, or says in one line which setting is wrong: PORT taken or privileged, HOST not an address of this machine. */
async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (err: any) {
    await app.close().catch(() => {});
    const code = String(err?.code ?? '');
    if (code === 'EADDRINUSE') throw new ConfigError(`PORT ${port}: ${host}:${port} is already in use by another process (EADDRINUSE)`);
    if (code === 'EACCES') throw new ConfigError(`PORT ${port}: not allowed to listen on ${host}:${port} (EACCES; ports below 1024 need privileges)`);
    if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME'].includes(code)) {
      throw new ConfigError(`HOST ${host}: not an address of this machine (${code})`);
    }
    throw err;
  }
}

/**
 * Opens storage, creates the demo merchant with test keys on an empty database (unless
 * `demoMerchant: false`, as `tessera serve` without --dev), and listens.
 * `tessera serve` and test suites (one gateway per worker) both start here.
 */
export async function startTessera(opts: StartOptions = {}): Promise<RunningTessera> {
  const memory = opts.storage === 'memory' && !opts.databaseUrl;
  const dataDir = memory || opts.databaseUrl ? undefined : (opts.dataDir ?? '.tessera');
  if (opts.databaseUrl && !opts.dataKey) {
    throw new ConfigError('TESSERA_DATA_KEY is required with DATABASE_URL (openssl rand -base64 32)');
  }
  if (dataDir) ensurePrivateDir(dataDir, opts.warn); // before anything writes into it
  configureOutbound({ allow: opts.outboundAllow ?? outboundAllowFrom(process.env), testLoopback: opts.testLoopback ?? testLoopbackFrom(process.env) ?? true });
  const vault = loadVault({ dataKey: opts.dataKey, retiredKeys: opts.retiredDataKeys, dataDir, warn: opts.warn });
  const clock = opts.clockStart ? clockFrom(opts.clockStart) : systemClock;
  let demo = null as { id: string; set: KeySet } | null; // set by setup (a closure: TS cannot see it)
  // First start: the demo merchant, inside the migrations' transaction and lock, so nodes starting
  // together on an empty PostgreSQL make one, not one each.
  const setup = async (q: Queryable) => {
    if (opts.demoMerchant === false) return;
    const [{ n }] = await q.query('SELECT count(*)::int AS n FROM merchants');
    if (n > 0) return;
    const id = await createMerchant(q, 'Demo merchant', clock.now(), { demo: true });
    const set = await createKeySet(q, { merchantId: id, env: 'test' }, clock.now());
    if (opts.settings) await updateSettings(q, { merchantId: id, env: 'test' }, opts.settings);
    demo = { id, set };
  };
  // A line per migration as it is applied (the app's logger does not exist yet: the same JSON lines, same level).
  const bootLog = pino({ level: opts.logLevel ?? 'silent' });
  const onMigration: MigrationLog = (m) => bootLog.info(m, `database migration applied: ${m.migration}`);
  const db = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir, prepare: opts.preparedStatements, setup, onMigration });
  let redis: ReturnType<typeof connectRedis> | null = null;
  try {
    // The data key must read what is stored (vault_canary): else refuse to start (DataKeyError).
    await checkDataKey(db, vault, clock.now(), opts.warn);
    // Counts in Redis when there is one; the local store (memory or PostgreSQL) stands in for it.
    const local = localCounters(db);
    redis = opts.redisUrl ? connectRedis(opts.redisUrl) : null;
    if (redis && !(await redis.ready)) {
      opts.warn?.(`REDIS_URL does not answer yet: rate limits are counted in ${db.kind === 'pg' ? 'PostgreSQL' : 'memory'} until it does`);
    }
    const counters = redis ? new RedisCounters(redis, local, { prefix: opts.redisKeyPrefix }) : local;
    const limiter = new TokenLimiter(counters, opts.rateLimits ?? DEFAULT_LIMITS);
    const outbox = new OutboxWorker({
      db, clock, transports: createTransports(opts.notify),
      // Each round also completes the account-updater reviews that fell due (server/domain/instruments/updater.ts).
      tasks: [(now) => sweepDueReceipts(db, now), (now) => completeDueReviews(db, now)],
    });
    const keys = new KeyCache(KEY_CACHE_MS);
    // The processor connectors, built once: test mode's simulator and every live connector by name.
    const processors = builtInRegistry();
    // Runs write events, whose email and SMS deliveries the outbox sends (the scheduler kicks its deliverer itself).
    const reconciler = new Reconciler({
      db, vault, clock, processors, notFoundAfterMs: opts.reconcileNotFoundMs, resolveRuns, sendReceipt: sendChargeReceipt,
    });
    const scheduler = new Scheduler({ db, vault, clock, processors, notify: outbox }, { intervalMs: opts.schedulerIntervalMs, onRan: () => outbox.kick() });
    // An event's deliveries are queued with it: webhook ones ride the scheduler's deliverer, email and SMS ones the outbox.
    const wake = new DeliveryWake({
      db,
      onQueued: (r) => {
        if (r.webhooks) scheduler.kick();
        if (r.messages) outbox.kick();
      },
    });
    // /readyz: Redis only reports (rate limits fall back to the database without it).
    const readiness: Record<string, ReadinessCheck> = {};
    if (redis) {
      const r = redis;
      readiness.redis = { critical: false, check: async () => String(await r.sendCommand(['PING'])) === 'PONG' };
    }
    // /readyz: an embedded data directory's disk (critical: PGlite cannot write without room).
    if (dataDir) readiness.disk = { critical: true, check: () => hasFreeSpace(dataDir) };
    // /readyz: the data key (critical). A node left behind on a retired key is 503 and writes nothing (vault-cluster.ts).
    const dataKey = await watchDataKey(db, vault, readiness);
    const app = await buildApp({ db, vault, clock, processors, limiter, keys, notify: outbox, scheduler, events: wake, settler: { outbox }, readiness }, { logLevel: opts.logLevel ?? 'silent', trustProxy: opts.trustProxy, demo: opts.demo });
    // An embedded data directory takes one process: `tessera keys` asks this one (control-file.ts).
    const adminToken = dataDir ? newAdminToken() : null;
    if (adminToken) await app.register(adminRoutes, { token: adminToken });
    const address = await listen(app, opts.port ?? 8080, opts.host ?? '127.0.0.1');
    const url = address;
    const removeControl = dataDir && adminToken
      ? writeControlFile(dataDir, { pid: process.pid, url: loopbackUrl(app.server.address()), listen: address, token: adminToken })
      : () => {};
    // Hourly: idempotency keys past their 24 hours, and the card data of tokens that expired unused.
    const purge = setInterval(() => {
      void purgeIdempotencyKeys(db, clock.now()).catch(() => {});
      void wipeExpiredTokens(db, clock.now()).catch((err) => app.log.error({ err }, 'wiping expired tokens failed; next hour'));
    }, HOUR);
    purge.unref();
    // PGlite has no autovacuum and no checkpointer (single-user mode): without them, plans made
    // while the tables were tiny are kept however large they grow, and WAL is never recycled.
    const maintenance = db.kind === 'pglite'
      ? new Loop(async () => {
        const done = await maintain(db);
        // Tables analyzed are worth a line (a plan may change); a checkpoint alone is routine.
        if (done.tables.length) app.log.info(done, 'embedded database: tables vacuumed and analyzed');
        else if (done.checkpoint) app.log.debug('embedded database: WAL checkpointed');
      }, (err) => app.log.error({ err }, 'embedded database maintenance failed; next round'))
      : null;
    const maintenanceMs = opts.maintenanceIntervalMs ?? MINUTE;
    maintenance?.start(maintenanceMs, maintenanceMs); // not at start: a test gateway's first minute is its whole life
    outbox.log = app.log;
    dataKey.start(app.log);
    vault.onUnreadable = (info) => app.log.error({ vault: info }, info.reason === 'unknown_key'
      ? 'stored payment data is encrypted with a data key this node does not hold (VAULT01): check TESSERA_DATA_KEY and TESSERA_DATA_KEYS_RETIRED'
      : 'stored payment data fails its integrity check (VAULT02): altered, or copied from another row');
    outbox.start(opts.notify?.intervalMs);
    scheduler.deps.log = app.log;
    reconciler.log = app.log;
    scheduler.start();
    reconciler.start(opts.reconcileIntervalMs);
    if (counters instanceof RedisCounters) {
      counters.log = app.log;
      counters.onFallback = () => app.metrics.inc('tessera_rate_limit_fallback_total',
        'Rate-limit hits counted in PostgreSQL or memory because Redis (REDIS_URL) did not answer.');
    }
    let closed: Promise<void> | null = null;
    return {
      url,
      tokenizerUrl: `${url}/tokenizer.js`,
      merchantId: demo?.id ?? null,
      publicKey: demo?.set.public_key ?? null,
      privateKey: demo?.set.private_key ?? null,
      app,
      db,
      outbox,
      scheduler,
      webhooks: scheduler.callbacks,
      close() {
        // Stop accepting, let in-flight requests finish, then release the database and its lock.
        closed ??= (async () => {
          removeControl();
          clearInterval(purge);
          await app.close();
          await maintenance?.stop();
          await scheduler.stop();
          await reconciler.stop();
          await outbox.stop();
          await dataKey.stop();
          await redis?.close();
          await db.close();
        })();
        return closed;
      },
    };
  } catch (err) {
    await redis?.close();
    await db.close();
    throw err;
  }
}
