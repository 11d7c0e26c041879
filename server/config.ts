import ipaddr from 'ipaddr.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RateLimits, parseLimits } from './http/ratelimit.js';
import type { NotifyConfig } from './notify/index.js';
import { parseTestDeliveryTo } from './notify/test-delivery.js';
import { parseAllowList } from './net/addresses.js';
import { ConnectionLimits, connectionLimitsFrom } from './http/connections.js';

/** Every environment variable Tessera reads, in one typed place. */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PostgreSQL named prepared statements; off behind a pooler that cannot keep them. */
  preparedStatements: boolean;
  /** PGlite data directory; undefined with storage 'memory'. */
  dataDir?: string;
  dataKey?: string;
  retiredDataKeys?: string;
  logLevel: string;
  rateLimits: RateLimits;
  /** Rate-limit counters in Redis instead of the database (optional). */
  redisUrl?: string;
  redisKeyPrefix?: string;
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY): false, a number of proxy hops in
   * front (`true` is 1), or the proxies' addresses and CIDR blocks. Never "every hop": the
   * leftmost entries are whatever the client wrote.
   */
  trustProxy: TrustProxy;
  /** Email and SMS transports of the outbox; absent ones leave messages queued (GET /api/v1/outbox). */
  notify: NotifyConfig;
  /**
   * TESSERA_OUTBOUND_ALLOW: private targets merchants' webhook and callback URLs may name anyway
   * (CIDR blocks, addresses, host names, `*.suffix`), e.g. `10.0.0.0/8,hooks.internal`.
   */
  /** TESSERA_TEST_LOOPBACK: test mode may call loopback (QA receivers); undefined follows the mode (on with `serve --dev` only). */
  testLoopback?: boolean;
  outboundAllow: string[];
  /** TESSERA_DEMO: the demo checkout at / and /demo/*; undefined follows the mode (on with `serve --dev` only). */
  demo?: boolean;
  /** SCHEDULER_INTERVAL_MS: how often the recurring-billing loop looks for due runs (default 5000; tests use less). */
  schedulerIntervalMs: number;
  /** RECONCILE_INTERVAL_MS: how often each node reconciles live charges whose outcome is unknown (default 30000). */
  reconcileIntervalMs: number;
  /** RECONCILE_NOT_FOUND_MS: how long after it was sent an operation its processor has no record of counts as never made (default 600000). */
  reconcileNotFoundMs: number;
  /** TESSERA_KEEP_ALIVE_MS, TESSERA_MAX_CONNECTIONS, TESSERA_MAX_CONNECTIONS_PER_ADDRESS (http/connections.ts). */
  connections: ConnectionLimits;
}

export class ConfigError extends Error {}

/** Settings that carry a password or a signing secret: each may come from NAME_FILE too (secretOf). */
const SECRET_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'SMS_WEBHOOK_SECRET'];

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const env: NodeJS.ProcessEnv = { ...environment };
  for (const name of SECRET_SETTINGS) if (env[`${name}_FILE`]) env[name] = secretOf(environment, name);
  const port = Number(env.PORT || 8080);
  if (!/^\d*$/.test(env.PORT ?? '') || port > 65535) throw new ConfigError(`PORT must be a port number 0-65535, got ${JSON.stringify(env.PORT)}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: urlOf(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    preparedStatements: onOff(env, 'DATABASE_PREPARED_STATEMENTS'),
    dataDir: resolve(env.TESSERA_DATA_DIR ?? '.tessera'),
    dataKey: secretOf(env, 'TESSERA_DATA_KEY'),
    retiredDataKeys: secretOf(env, 'TESSERA_DATA_KEYS_RETIRED'),
    logLevel: logLevel(env.LOG_LEVEL),
    rateLimits: limits(env.TESSERA_RATE_LIMITS),
    redisUrl: urlOf(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || undefined,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    notify: notifyConfig(env),
    outboundAllow: outboundAllowFrom(env),
    testLoopback: testLoopbackFrom(env),
    demo: env.TESSERA_DEMO ? onOff(env, 'TESSERA_DEMO') : undefined,
    schedulerIntervalMs: intervalOf(env, 'SCHEDULER_INTERVAL_MS', 5000),
    reconcileIntervalMs: intervalOf(env, 'RECONCILE_INTERVAL_MS', 30_000),
    reconcileNotFoundMs: intervalOf(env, 'RECONCILE_NOT_FOUND_MS', 600_000),
    connections: connectionLimitsOf(env),
  };
}

function intervalOf(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const n = Number(env[name] ?? dflt);
  if (!Number.isInteger(n) || n < 100) throw new ConfigError(`${name} must be an integer of at least 100`);
  return n;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(v: string | undefined): string {
  if (v === undefined || v === '') return 'info';
  if (!LOG_LEVELS.includes(v)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(v)}`);
  return v;
}

export type TrustProxy = false | number | string;

/**
 * TRUST_PROXY: unset/false/0, true (one proxy in front: the address it saw is the client's), a
 * number of proxy hops, or a comma-separated list of the proxies' addresses or CIDR blocks.
 */
export function trustProxyOf(v: string | undefined): TrustProxy {
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  const address = (a: string) => ipaddr.IPv4.isValidFourPartDecimal(a) || ipaddr.IPv6.isValid(a);
  const valid = (e: string) => {
    const [a, bits, ...rest] = e.split('/');
    if (bits === undefined) return address(a);
    const max = a.includes(':') ? 128 : 32;
    return rest.length === 0 && address(a) && /^\d{1,3}$/.test(bits) && Number(bits) <= max;
  };
  if (entries.length && entries.every(valid)) return entries.join(',');
  throw new ConfigError(`TRUST_PROXY must be true or false, a number of proxies in front, or their addresses/CIDR blocks, got ${JSON.stringify(v)}`);
}

function onOff(env: NodeJS.ProcessEnv, name: string, dflt = true): boolean {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got ${v}`);
}

function urlOf(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const v = env[name];
  if (!v) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (!protocols.includes(u.protocol)) throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  return v;
}

function notifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const url = (name: string, protocols: string[]) => urlOf(env, name, protocols);
  const interval = Number(env.OUTBOX_INTERVAL_MS ?? 5000);
  if (!Number.isInteger(interval) || interval < 100) throw new ConfigError('OUTBOX_INTERVAL_MS must be an integer of at least 100');
  return {
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: env.SMTP_FROM || undefined,
    smsWebhookUrl: url('SMS_WEBHOOK_URL', ['http:', 'https:']),
    smsWebhookSecret: env.SMS_WEBHOOK_SECRET || undefined,
    intervalMs: interval,
    testDeliveryTo: testDeliveryToFrom(env),
  };
}

function limits(spec: string | undefined): RateLimits {
  try {
    return parseLimits(spec);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** TESSERA_TEST_DELIVERY_TO, checked: test-mode recipients really sent to; an entry that is none of *, @domain, an address or a phone number is a ConfigError. */
export function testDeliveryToFrom(env: NodeJS.ProcessEnv): string[] {
  try {
    return parseTestDeliveryTo(env.TESSERA_TEST_DELIVERY_TO);
  } catch (err) {
    throw new ConfigError(`TESSERA_TEST_DELIVERY_TO: ${(err as Error).message}`);
  }
}

/**
 * TESSERA_TEST_LOOPBACK (on/off): may test-mode webhooks and callbacks call loopback addresses.
 * Unset is undefined: `tessera serve` then follows the mode (on with --dev only), startTessera
 * (the QA kit) says on.
 */
export function testLoopbackFrom(env: NodeJS.ProcessEnv): boolean | undefined {
  return env.TESSERA_TEST_LOOPBACK ? onOff(env, 'TESSERA_TEST_LOOPBACK') : undefined;
}

/**
 * A secret from NAME, or from the file NAME_FILE names (a Docker or Kubernetes secret, a file the
 * operator made once): its content, trimmed. Both set, or a file that cannot be read, is a ConfigError.
 */
export function secretOf(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  if (!file) return env[name] || undefined;
  if (env[name]) throw new ConfigError(`${name} and ${name}_FILE are both set: keep one`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!text) throw new ConfigError(`${name}_FILE: ${file} is empty`);
  return text;
}

/** TESSERA_OUTBOUND_ALLOW, checked: an entry that is not an address, CIDR block or host name is a ConfigError. */
export function outboundAllowFrom(env: NodeJS.ProcessEnv): string[] {
  try {
    return parseAllowList(env.TESSERA_OUTBOUND_ALLOW);
  } catch (err) {
    throw new ConfigError(`TESSERA_OUTBOUND_ALLOW: ${(err as Error).message}`);
  }
}

/** Keep-alive and socket caps (http/connections.ts), checked: a bad value is a ConfigError naming its variable. */
export function connectionLimitsOf(env: NodeJS.ProcessEnv): ConnectionLimits {
  try {
    return connectionLimitsFrom(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
