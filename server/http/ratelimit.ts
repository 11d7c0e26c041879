import { createHash } from 'node:crypto';
import type { KeyIdentity } from '../domain/keys.js';
import { GatewayError } from '../errors.js';
import { CounterStore, FAILURE_WINDOW, MINUTE } from './counters.js';

/** Per-window ceilings; 0 switches a rule off. */
export interface RateLimits {
  /** Token requests per client IP per minute. */
  perIp: number;
  /** Token requests per public key per minute. */
  perKey: number;
  /** Refused card or account data per merchant environment per 10 minutes (card testing). */
  failures: number;
}

export const DEFAULT_LIMITS: RateLimits = { perIp: 300, perKey: 3000, failures: 200 };
/** Addresses are counted, not stored: buckets hold a hash. */
const hashIp = (ip: string) => createHash('sha256').update(ip).digest('hex').slice(0, 16);

/** Codes that mean "this card or account data was refused": what card testing produces. */
const REFUSALS = new Set(['11112', '11301', '11302', '11303', '11305', '11306', '234722', '91703', '38501', 'TEST01']);

function limited(windowMs: number, now: Date, what: string): GatewayError {
  const retry = Math.ceil((Math.floor(now.getTime() / windowMs) * windowMs + windowMs - now.getTime()) / 1000);
  return new GatewayError('RATE01', `too many ${what}; retry in ${retry} s`, { retry_after: String(retry) });
}

/**
 * The card-testing defence of the public token endpoints: per-IP and per-key request ceilings,
 * and a velocity rule that stops a merchant environment's tokenization for the rest of a
 * 10-minute window once too much card data has been refused.
 */
export class TokenLimiter {
  constructor(
    private store: CounterStore,
    private limits: RateLimits = DEFAULT_LIMITS,
  ) {}

  async checkIp(ip: string, now: Date): Promise<void> {
    if (this.limits.perIp && (await this.store.hit(`ip:${hashIp(ip)}`, MINUTE, now)) > this.limits.perIp) {
      throw limited(MINUTE, now, 'token requests from this address');
    }
  }

  async checkKey(id: KeyIdentity, now: Date): Promise<void> {
    const scope = `${id.merchantId}:${id.env}`;
    if (this.limits.perKey && (await this.store.hit(`key:${scope}`, MINUTE, now)) > this.limits.perKey) {
      throw limited(MINUTE, now, 'token requests for this key');
    }
    if (this.limits.failures && (await this.store.hit(`fail:${scope}`, FAILURE_WINDOW, now, 0)) >= this.limits.failures) {
      throw limited(FAILURE_WINDOW, now, 'refused cards for this key (card-testing defence)');
    }
  }

  /** Counts a refusal towards the velocity rule. */
  async noteFailure(id: KeyIdentity | null, err: GatewayError, now: Date): Promise<void> {
    if (id && this.limits.failures && REFUSALS.has(err.code)) {
      await this.store.hit(`fail:${id.merchantId}:${id.env}`, FAILURE_WINDOW, now);
    }
  }
}

/** TESSERA_RATE_LIMITS: "off", or "ip=300,key=3000,failures=200" (any subset). */
export function parseLimits(spec: string | undefined): RateLimits {
  if (!spec) return DEFAULT_LIMITS;
  if (spec.trim() === 'off') return { perIp: 0, perKey: 0, failures: 0 };
  const out = { ...DEFAULT_LIMITS };
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`TESSERA_RATE_LIMITS: ${part} is not name=non-negative integer`);
    if (k === 'ip') out.perIp = n;
    else if (k === 'key') out.perKey = n;
    else if (k === 'failures') out.failures = n;
    else throw new Error(`TESSERA_RATE_LIMITS: unknown limit ${k} (ip, key, failures)`);
  }
  return out;
}

