#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, UsageError, parseCommand } from './cli-args.js';
import { ConfigError, Config, loadConfig } from './config.js';
import { DatabaseUnavailableError, type Db, openDatabase } from './db/index.js';
import { DataDirLockedError } from './db/lock.js';
import { CommandError } from './control-file.js';
import { startFailureLine } from './lib/describe-error.js';
import { ROOT } from './paths.js';
import type { RunningTessera } from './start.js';

// A command loads only what it runs: the server (Fastify, every route) for serve, the database
// for the key and processor commands, nothing more for help, a version or a usage mistake.

function open(config: Config): Promise<Db> {
  return openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir, prepare: config.preparedStatements,
  });
}

async function serve(config: Config, dev: boolean): Promise<void> {
  // Development mode makes the demo merchant on an empty database and prints its keys, serves the
  // demo checkout and lets test mode call loopback; production does none of it, unless configured
  // (docs/decisions/production-defaults.md).
  const demo = config.demo ?? dev;
  const testLoopback = config.testLoopback ?? dev;
  const [{ startTessera }, { formatKeySet }, { demoMerchantId }] = await Promise.all([
    import('./start.js'), import('./keys-command.js'), import('./domain/merchant/keys.js'),
  ]);
  const gw = await startTessera({
    demo,
    demoMerchant: dev,
    port: config.port,
    host: config.host,
    storage: 'disk',
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    dataKey: config.dataKey,
    retiredDataKeys: config.retiredDataKeys,
    logLevel: config.logLevel,
    rateLimits: config.rateLimits,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    trustProxy: config.trustProxy,
    testLoopback,
    outboundAllow: config.outboundAllow,
    notify: config.notify,
    schedulerIntervalMs: config.schedulerIntervalMs,
    reconcileIntervalMs: config.reconcileIntervalMs,
    reconcileNotFoundMs: config.reconcileNotFoundMs,
    warn: (msg) => console.warn(`warning: ${msg}`),
  });
  if (gw.merchantId && gw.publicKey && gw.privateKey) {
    // The banner goes to stderr: stdout carries the JSON log lines only.
    console.error('First start: created a demo merchant with test keys.\n');
    console.error(formatKeySet(gw.merchantId, { key_set_id: '', env: 'test', public_key: gw.publicKey, private_key: gw.privateKey }));
    console.error('');
  }
  const noMerchant = !dev && (await gw.db.query('SELECT 1 FROM merchants LIMIT 1')).length === 0;
  // A database first started in development mode (or by a version that made it on every first
  // start) keeps its demo merchant, whose test keys were printed: say so at each production start.
  const demoLeft = dev ? null : await demoMerchantId(gw.db);
  if (demoLeft) {
    console.warn(`warning: the demo merchant ${demoLeft} of a development start is in this database, and its test keys were printed at that start; roll its keys (dashboard, Keys) or stop using it`);
  }
  const shutdown = (signal: string) => {
    gw.app.log.info({ signal }, 'shutting down');
    void gw.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  guardProcess(gw);
  console.error(`Tessera listening on ${gw.url}
  version         ${versionLine()}
  mode            ${dev ? 'development (--dev)' : 'production (tessera serve --dev for development)'}
  demo checkout   ${demo ? `${gw.url}/` : 'off (TESSERA_DEMO=on serves it)'}${noMerchant ? `
  merchants       none yet: tessera keys create --name NAME makes one and prints its keys once` : ''}
  test loopback   ${testLoopback ? 'on: test-mode webhooks may call this host (TESSERA_TEST_LOOPBACK=off)' : 'off (TESSERA_TEST_LOOPBACK=on allows it)'}
  dashboard       ${gw.url}/dashboard
  tokenizer       ${gw.tokenizerUrl}
  API             ${gw.url}/api/v1
  database        ${gw.db.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}
  email           ${config.notify.smtpUrl ? `SMTP ${new URL(config.notify.smtpUrl).host}` : 'not sent (no SMTP_URL): see GET /api/v1/outbox'}
  SMS             ${config.notify.smsWebhookUrl ? `webhook ${new URL(config.notify.smsWebhookUrl).host}` : 'not sent (no SMS_WEBHOOK_URL): see GET /api/v1/outbox'}
  rate limits     ${config.redisUrl ? `counted in Redis ${new URL(config.redisUrl).host}` : gw.db.kind === 'pg' ? 'counted in PostgreSQL' : 'counted in memory'}`);
}

/** How long an exit after an uncaught exception waits for in-flight requests before it goes anyway. */
const FATAL_CLOSE_MS = 10_000;

/**
 * The last owner of an error. Every stream, socket and driver error has an owner of its own (a
 * request, a pool, a job), so what reaches here is a bug. A rejected promise nobody awaited is
 * logged and the node goes on: the request or job it belonged to has already failed on its own.
 * An uncaught exception left a stack unwound half-way through unknown code: the node logs it,
 * stops taking requests, lets those in flight finish (at most FATAL_CLOSE_MS) and exits 1 for its
 * supervisor to restart it; what it acknowledged is committed, what it did not is not.
 */
function guardProcess(gw: RunningTessera): void {
  process.on('unhandledRejection', (reason) => {
    gw.app.log.error({ err: reason }, 'unhandled promise rejection (a bug; the node goes on)');
    gw.app.metrics.inc('tessera_unhandled_rejections_total', 'Promise rejections no code handled (bugs; the process went on).');
  });
  let exiting = false;
  process.on('uncaughtException', (err, origin) => {
    gw.app.log.fatal({ err, origin }, 'uncaught exception: closing and exiting (a bug; a supervisor should restart the node)');
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(1), FATAL_CLOSE_MS).unref();
    void gw.close().catch(() => {}).finally(() => process.exit(1));
  });
}

/** `tessera 0.1.0 (commit 1a2b3c4d5e6f)`: the commit scripts/build-info.mjs wrote at build time, else unknown. */
function versionLine(): string {
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  let commit = 'unknown';
  try {
    const info = JSON.parse(readFileSync(join(ROOT, 'dist', 'build-info.json'), 'utf8'));
    if (typeof info.commit === 'string' && info.commit) commit = info.commit;
  } catch { /* built without npm run build (tsc alone): no build-info.json */ }
  return `tessera ${version} (commit ${commit})`;
}

/** The embedded database's directory, once the configuration names it: a storage failure's line names it. */
let dataDir: string | undefined;

async function main(argv: string[]): Promise<void> {
  // The arguments first: help, a version or a usage mistake must not create or open anything.
  const cmd: Command = parseCommand(argv);
  if (cmd.kind === 'help') return void process.stdout.write(cmd.text);
  if (cmd.kind === 'version') return void console.log(versionLine());
  const config = loadConfig();
  dataDir = config.databaseUrl ? undefined : config.dataDir;
  if (cmd.kind === 'serve') return serve(config, cmd.dev);
  if (cmd.kind === 'data-key reencrypt') {
    const { dataKeyCommand } = await import('./data-key-command.js');
    process.exitCode = await dataKeyCommand(config, cmd.args, () => open(config));
    return;
  }
  const lines = cmd.kind === 'keys create' || cmd.kind === 'keys list'
    ? await (await import('./keys-command.js')).keysCommand(config, cmd, () => open(config))
    : await (await import('./processor-command.js')).processorCommand(config, cmd, () => open(config));
  for (const line of lines) console.log(line);
}

// Files this process creates (database files, keys, logs it may write) are its user's alone.
process.umask(0o077);

/**
 * A failed command in one line the operator can act on (the variable and the cause), no stack:
 * usage (exit 2), configuration, the data directory, the database, the port, an unknown merchant,
 * a gateway that does not answer (exit 1). Anything else is a bug: its stack follows with
 * LOG_LEVEL=debug.
 */
function failure(err: any): string {
  if (err instanceof UsageError) return `tessera: ${err.message}`;
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError || err instanceof CommandError) {
    return err.message;
  }
  // Not String(err.message): PGlite throws objects without one (a full disk was "[object Object]").
  const line = `tessera: could not start: ${startFailureLine(err, dataDir)}`;
  return ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '') ? `${line}\n${err?.stack ?? ''}` : line;
}

main(process.argv.slice(2)).catch((err) => {
  console.error(failure(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
