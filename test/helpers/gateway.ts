import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import type { TrustProxy } from '../../server/config.js';
import { Clock, ManualClock } from '../../server/clock.js';
import { Db } from '../../server/db/index.js';
import { KeySet, createKeySet, createMerchant } from '../../server/domain/merchant/keys.js';
import { CounterStore, localCounters } from '../../server/http/counters.js';
import { RateLimits, TokenLimiter } from '../../server/http/ratelimit.js';
import { Vault } from '../../server/vault.js';
import { testDb } from './test-db.js';

export { DB_KIND, testDb } from './test-db.js';

export interface Merchant {
  id: string;
  test: KeySet;
  live: KeySet;
}

export interface TestGateway {
  app: FastifyInstance;
  db: Db;
  vault: Vault;
  clock: ManualClock;
  merchant: Merchant;
  /** Another merchant, to prove records never cross merchants. */
  other: Merchant;
  newMerchant(): Promise<Merchant>;
  close(): Promise<void>;
}

/** How a test gateway differs from the default one (the fixture's `gatewayOptions`, test/fixtures.ts). */
export interface GatewayOptions {
  clock?: ManualClock;
  /** Rate limits: none unless given. */
  limits?: RateLimits;
  /** Wraps the counter store of the limits (e.g. with Redis). */
  counters?: (local: CounterStore) => CounterStore;
  trustProxy?: TrustProxy;
}

export async function startGateway(opts: GatewayOptions = {}): Promise<TestGateway> {
  const db = await testDb();
  const clock = opts.clock ?? new ManualClock();
  const vault = new Vault(randomBytes(32));
  // As start.ts: counts in the database on PostgreSQL, in memory on PGlite; `counters` may wrap that (Redis).
  const local = localCounters(db);
  const limiter = opts.limits && new TokenLimiter(opts.counters?.(local) ?? local, opts.limits);
  const app = await buildApp({ db, vault, clock: clock as Clock, limiter }, { logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', trustProxy: opts.trustProxy });
  const newMerchant = async (): Promise<Merchant> => {
    const now = clock.now();
    const id = await createMerchant(db, 'Test merchant', now);
    return {
      id,
      test: await createKeySet(db, { merchantId: id, env: 'test' }, now),
      live: await createKeySet(db, { merchantId: id, env: 'live' }, now),
    };
  };
  return {
    app,
    db,
    vault,
    clock,
    merchant: await newMerchant(),
    other: await newMerchant(),
    newMerchant,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/** HTTP Basic with the key as username and an empty password. */
export function basic(key: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}

export const visa = {
  card_owner_name: 'Ada Lovelace',
  card_number: '4111111111111111',
  card_exp_month: 12,
  card_exp_year: 2030,
  csc: '123',
} as const;

export const bank = {
  token_type: 'bank_account',
  bank_account_number: '000123456789',
  bank_routing_number: '110000000',
  bank_account_holder_first_name: 'Grace',
  bank_account_holder_last_name: 'Hopper',
  bank_account_type: 'checking',
} as const;

/** Creates a token over POST /tokens with the merchant's test public key and returns its id. */
export async function tokenFor(gw: TestGateway, data: Record<string, unknown> = visa, key = gw.merchant.test.public_key) {
  const res = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: basic(key), payload: data });
  if (res.statusCode !== 200) throw new Error(`token creation failed: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}
