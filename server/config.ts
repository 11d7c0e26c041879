import { resolve } from 'node:path';
import { RateLimits, parseLimits } from './http/ratelimit.js';

/** Every environment variable Tessera reads, in one typed place. */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data directory; undefined with storage 'memory'. */
  dataDir?: string;
  dataKey?: string;
  retiredDataKeys?: string;
  logLevel: string;
  rateLimits: RateLimits;
  trustProxy: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0-65535, got ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.TESSERA_DATA_DIR ?? '.tessera'),
    dataKey: env.TESSERA_DATA_KEY || undefined,
    retiredDataKeys: env.TESSERA_DATA_KEYS_RETIRED || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimits: limits(env.TESSERA_RATE_LIMITS),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
  };
}

function limits(spec: string | undefined): RateLimits {
  try {
    return parseLimits(spec);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
