#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { systemClock } from './clock.js';
import { ConfigError, Config, loadConfig } from './config.js';
import { DatabaseUnavailableError, Db, openDatabase } from './db/index.js';
import { DataDirLockedError } from './db/lock.js';
import { Env, ExpireOld, KeySet, createKeySet, createMerchant, listKeys } from './domain/keys.js';
import { startTessera } from './start.js';
import { DATA_KEY_USAGE, dataKeyCommand } from './data-key-command.js';

const USAGE = `usage:
  tessera serve [--dev]                           start the gateway (PORT, DATABASE_URL, TESSERA_DATA_DIR, ...);
                                                  --dev: development mode, the demo checkout on unless TESSERA_DEMO=off
  tessera keys create [--merchant ID] [--name NAME] [--env test|live] [--expire-old now|1h|never]
                                                  new key set (a new merchant when --merchant is absent)
  tessera keys list --merchant ID                 key sets, redacted
${DATA_KEY_USAGE}`;

function open(config: Config): Promise<Db> {
  return openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir, prepare: config.preparedStatements,
  });
}

function printKeySet(merchantId: string, set: KeySet, print: (text: string) => void = console.log): void {
  print(`merchant     ${merchantId}
environment  ${set.env}
public key   ${set.public_key}
private key  ${set.private_key}
(the private key is shown only now: keep it on your server)`);
}

async function serve(config: Config, args: string[]): Promise<void> {
  let flags: { dev: boolean };
  try {
    flags = parseArgs({ args, options: { dev: { type: 'boolean', default: false } } }).values;
  } catch {
    throw new ConfigError(USAGE);
  }
  // Development mode serves the demo checkout (no key, the demo merchant's test data); production does not.
  const demo = config.demo ?? flags.dev;
  const gw = await startTessera({
    demo,
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
    notify: config.notify,
    warn: (msg) => console.warn(`warning: ${msg}`),
  });
  if (gw.merchantId && gw.publicKey && gw.privateKey) {
    // The banner goes to stderr: stdout carries the JSON log lines only.
    console.error('First start: created a demo merchant with test keys.\n');
    printKeySet(gw.merchantId, { key_set_id: '', env: 'test', public_key: gw.publicKey, private_key: gw.privateKey }, console.error);
    console.error('');
  }
  const shutdown = (signal: string) => {
    gw.app.log.info({ signal }, 'shutting down');
    void gw.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  console.error(`Tessera listening on ${gw.url}
  mode            ${flags.dev ? 'development (--dev)' : 'production (tessera serve --dev for development)'}
  demo checkout   ${demo ? `${gw.url}/` : 'off (TESSERA_DEMO=on serves it)'}
  dashboard       ${gw.url}/dashboard
  tokenizer       ${gw.tokenizerUrl}
  API             ${gw.url}/api/v1
  database        ${gw.db.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}
  email           ${config.notify.smtpUrl ? `SMTP ${new URL(config.notify.smtpUrl).host}` : 'not sent (no SMTP_URL): see GET /api/v1/outbox'}
  SMS             ${config.notify.smsWebhookUrl ? `webhook ${new URL(config.notify.smsWebhookUrl).host}` : 'not sent (no SMS_WEBHOOK_URL): see GET /api/v1/outbox'}
  rate limits     ${config.redisUrl ? `counted in Redis ${new URL(config.redisUrl).host}` : gw.db.kind === 'pg' ? 'counted in PostgreSQL' : 'counted in memory'}`);
}

async function keys(config: Config, args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      merchant: { type: 'string' },
      name: { type: 'string' },
      env: { type: 'string', default: 'test' },
      'expire-old': { type: 'string', default: 'now' },
    },
  });
  const db = await open(config);
  try {
    const now = systemClock.now();
    if (positionals[0] === 'create') {
      const env = values.env as Env;
      const expire = values['expire-old'] as ExpireOld;
      if (!['test', 'live'].includes(env)) throw new ConfigError('--env must be test or live');
      if (!['now', '1h', 'never'].includes(expire)) throw new ConfigError('--expire-old must be now, 1h or never');
      const result = await db.tx(async (q) => {
        const id = values.merchant ?? (await createMerchant(q, values.name ?? 'Merchant', now));
        return { id, set: await createKeySet(q, { merchantId: id, env }, now, expire) };
      });
      printKeySet(result.id, result.set);
    } else if (positionals[0] === 'list' && values.merchant) {
      for (const k of await listKeys(db, values.merchant)) {
        const exp = k.expires_at ? `expires ${new Date(k.expires_at).toISOString()}` : 'active';
        console.log(`${k.key_set_id}  ${k.env}  ${k.kind}  ${k.redacted}  ${exp}`);
      }
    } else {
      throw new ConfigError(USAGE);
    }
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'serve' || command === undefined) return serve(config, rest);
  if (command === 'keys') return keys(config, rest);
  if (command === 'data-key') {
    process.exitCode = await dataKeyCommand(config, rest, () => open(config));
    return;
  }
  throw new ConfigError(USAGE);
}

// Files this process creates (database files, keys, logs it may write) are its user's alone.
process.umask(0o077);

/**
 * A failed command in one line the operator can act on (the variable and the cause), no stack:
 * configuration, the data directory, the database, the port. Anything else is a bug: its stack
 * follows with LOG_LEVEL=debug.
 */
function failure(err: any): string {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError) {
    return err.message;
  }
  const line = `tessera: could not start: ${String(err?.message ?? err).split('\n')[0]}`;
  return ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '') ? `${line}\n${err?.stack ?? ''}` : line;
}

main(process.argv.slice(2)).catch((err) => {
  console.error(failure(err));
  process.exit(1);
});
