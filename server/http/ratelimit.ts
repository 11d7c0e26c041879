import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Side } from '../domain/merchant/allowed-origins.js';
import type { KeyIdentity, Scope } from '../domain/merchant/keys.js';
import { E, GatewayError } from '../errors.js';
import { CounterStore, FAILURE_WINDOW, Hit, MINUTE } from './counters.js';
import { remember } from '../lib/remember.js';

/**
 * Per-window ceilings; 0 (or absent) switches a rule off. Refused card data is counted per client
 * (address, and key + address) and per side (`checkout`: the request's page is one of the
 * merchant's allowed_origins; `other`: any other page or none, domain/merchant/allowed-origins.ts): one
 * address that submits bad cards stops itself on that side, never the merchant's other shoppers,
 * and refusals a hostile page makes its visitors' browsers send never stop them at the merchant's
 * checkout. Merchant-wide, refusals only raise an alarm that tightens the per-address ceiling for
 * addresses that have already been refused. The refusal rules count live mode only: test mode has
 * the request ceilings (`perIp`, `perKey`) alone. The per-key ceiling is shared: past it, only the
 * addresses that used more than their share are refused. docs/decisions/card-testing.md.
 */
export interface RateLimits {
  /** Token requests per client address per minute (`ip`). */
  perIp: number;
  /**
   * Token requests per public key (merchant environment) per minute (`key`): a capacity guard on
   * the requests the key let through. Past it the key is shared: an address is refused once it
   * sent the key more than its share this minute, max(`keyFloor`, perKey / addresses that sent
   * it a request this minute); an address within its share is never refused for the key.
   */
  perKey: number;
  /** Past the key's ceiling, the token requests per minute every address keeps (`key_floor`, at least 1). */
  keyFloor?: number;
  /**
   * The card-testing alarm (`alarm`, formerly `failures`): refused card or account data of one
   * merchant environment per 10 minutes. Past it, and at each doubling, the key + address ceiling
   * halves (down to 1): an address with no refusal still gets its token.
   */
  failures: number;
  /** Refused card data per client address, merchant environment and side per 10 minutes (`key_ip_failures`). */
  keyIpFailures?: number;
  /** Refused card data per client address and side, all merchants, per 10 minutes (`ip_failures`). */
  ipFailures?: number;
  /** Failed authentications (unknown or expired keys) per client address per 10 minutes (`auth_failures`). */
  authFailures?: number;
}

export const DEFAULT_LIMITS: Readonly<Required<RateLimits>> = {
  perIp: 300, perKey: 3000, keyFloor: 10, failures: 200, keyIpFailures: 10, ipFailures: 30, authFailures: 20,
};

/** An IPv4 address (IPv4-mapped IPv6 included) as is, or the first `v6Groups` 16-bit groups of an IPv6 address as a prefix. */
function addressUnit(ip: string, v6Groups: number): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.process(ip);
  if (a.kind() === 'ipv4') return a.toString();
  return `${(a as ipaddr.IPv6).parts.slice(0, v6Groups).map((p) => p.toString(16)).join(':')}::/${v6Groups * 16}`;
}

/**
 * The unit an address is counted in: an IPv4 address (IPv4-mapped IPv6 included), or the /64 of
 * an IPv6 address, since one subscriber usually holds a whole /64 and could otherwise draw a fresh
 * address for every attempt.
 */
export const clientOf = (ip: string) => addressUnit(ip, 4);

/**
 * The unit the key's shares are counted in (past the key's ceiling, each has its share): an IPv4
 * address, or the /48 of an IPv6 address. A /64 per share would let one host with a routed /48 (a
 * free tunnel-broker allocation) be 65,536 addresses and take the floor 65,536 times a minute (an
 * outside review measured 655,360 requests through a ceiling of 3,000); a /48 is one site.
 */
export const shareUnitOf = (ip: string) => addressUnit(ip, 3);

/**
 * Addresses are counted, not stored: buckets hold a hash of their unit. Remembered for the last
 * HASHED_MAX addresses (every token request asks; parsing and hashing cost 5-12 µs); an attacker
 * drawing fresh addresses only pushes older ones out.
 */
const HASHED_MAX = 4096;
function unitHasher(unitOf: (ip: string) => string): (ip: string) => string {
  const hashed = new Map<string, string>();
  return (ip) => {
    let h = hashed.get(ip);
    if (h === undefined) {
      h = createHash('sha256').update(unitOf(ip)).digest('hex').slice(0, 16);
      remember(hashed, ip, h, HASHED_MAX);
    }
    return h;
  };
}
const hashClient = unitHasher(clientOf);
const hashShare = unitHasher(shareUnitOf);

/** Codes that mean "this card or account data was refused": what card testing produces. */
const REFUSALS = new Set<string>([E.CARD_NUMBER_INVALID, E.VISA_INVALID, E.MASTERCARD_INVALID, E.AMEX_INVALID, E.DINERS_INVALID,
  E.DISCOVER_INVALID, E.CSC_INVALID, E.ACCOUNT_UNVERIFIABLE, E.TOKEN_AMOUNT_INVALID, E.REAL_CARD_IN_TEST]);

/** Where the limiter reports what operators should see: warnings, and counters for /metrics. */
export interface LimiterEvents {
  warn(obj: Record<string, unknown>, msg: string): void;
  count(name: string, help: string, labels?: Record<string, string>): void;
}

/** The alarm level of a merchant-wide refusal count: 0 below the threshold, then +1 at each doubling. */
export function alarmLevel(count: number, threshold: number): number {
  if (!threshold || count < threshold) return 0;
  let level = 1;
  for (let t = threshold * 2; t <= count; t *= 2) level++;
  return level;
}

/**
 * Past the key's ceiling, what one address may send the key in the minute: perKey shared evenly
 * among the addresses that sent it a request (at least the one asking), and never below the floor.
 */
export const keyShare = (perKey: number, floor: number, addresses: number) => Math.max(floor, Math.floor(perKey / Math.max(1, addresses)));

/**
 * The side part of an address's all-merchants buckets (`ip:`, `fail-ip:`): every merchant's
 * `other` side together, but each merchant environment's `checkout` side on its own. Another
 * merchant of this gateway can list its own hostile page as its checkout, so a checkout side shared
 * across merchants would let that page lock its visitors out of every other merchant's checkout.
 */
const acrossMerchants = (side: Side, scope: string) => (side === 'checkout' ? `checkout:${scope}` : 'other');

/** The key + address ceiling at an alarm level: halved per level, never below 1. */
export const tightened = (ceiling: number, level: number) => Math.max(1, Math.floor(ceiling / 2 ** level));

const BLOCKED_MAX = 10_000;

/** The refusal ceilings of test mode: none (a QA suite sends refused cards on purpose). */
const NO_REFUSAL_LIMITS = { failures: 0, keyIpFailures: 0, ipFailures: 0 } as const;

/**
 * The limits of the public token endpoints (card testing) and of authentication (key guessing).
 * Counts live in the shared CounterStore; an address found past the failed-authentication
 * ceiling is also remembered by this node until its window ends, so its next attempts cost no key
 * lookup at all.
 */
export class TokenLimiter {
  /** Set once the app exists (registerAuth). */
  events?: LimiterEvents;
  private blocked = new Map<string, number>();
  private readonly limits: Required<RateLimits>;

  constructor(
    private store: CounterStore,
    limits: RateLimits = DEFAULT_LIMITS,
  ) {
    this.limits = { keyIpFailures: 0, ipFailures: 0, authFailures: 0, ...limits, keyFloor: Math.max(1, limits.keyFloor ?? DEFAULT_LIMITS.keyFloor) };
  }

  /** The refusal ceilings that apply to this key: live mode's, none in test mode. */
  private refusalLimits(id: Scope): Pick<Required<RateLimits>, 'failures' | 'keyIpFailures' | 'ipFailures'> {
    return id.env === 'live' ? this.limits : NO_REFUSAL_LIMITS;
  }

  /**
   * True when this key's refusals are counted (live mode, a refusal rule on): only then does a
   * request's side matter, so only then need the caller look up the merchant's allowed origins.
   */
  countsRefusals(id: Scope): boolean {
    const { failures, keyIpFailures, ipFailures } = this.refusalLimits(id);
    return !!(failures || keyIpFailures || ipFailures);
  }

  /**
   * True when a request's side matters for this key: its refusals are counted, or a request
   * ceiling is on (the per-address and per-key request counts are kept per side too, in test mode
   * as well, so a hostile page's flood of script tags never uses up its visitors' checkout).
   */
  countsSides(id: Scope): boolean {
    return !!(this.limits.perIp || this.limits.perKey) || this.countsRefusals(id);
  }

  /**
   * A token request of this client for this key, from a page on `side`: the per-address ceiling,
   * the key's ceiling (shared, below), then the refusal ceilings of this client on that side
   * (tightened while the merchant's alarm is raised; live mode only). Every count it needs is
   * taken in one `hits` (one statement on PostgreSQL); what it writes besides is not awaited.
   *
   * The key's count (`key:`) is of the requests it let through: one this limiter refuses, for
   * whatever rule, is taken back. Past the ceiling, a request is refused only when its address
   * sent this key more than its share this minute (`key-ip:`, every request counted, refused or
   * not): max(keyFloor, perKey / `key-addrs:`, the addresses that sent the key a request this
   * minute, each counted once, by its first request). A crowd costs the crowd: its refused
   * requests do not fill the key, and once the key is full its own shares are what run out.
   */
  async checkKey(id: KeyIdentity, ip: string, now: Date, side: Side = 'other'): Promise<void> {
    const { perIp, perKey } = this.limits;
    const { ipFailures, keyIpFailures, failures } = this.refusalLimits(id);
    const scope = `${id.merchantId}:${id.env}`;
    const client = hashClient(ip);
    const across = acrossMerchants(side, scope);
    const want: Hit[] = [];
    const at = (h: Hit | false) => (h ? want.push(h) - 1 : -1);
    const ipAt = at(!!perIp && { bucket: `ip:${client}:${across}`, windowMs: MINUTE, add: 1 });
    const keyAt = at(!!perKey && { bucket: `key:${scope}`, windowMs: MINUTE, add: 1 });
    const usedAt = at(!!perKey && { bucket: `key-ip:${scope}:${hashShare(ip)}:${side}`, windowMs: MINUTE, add: 1 });
    const addrsAt = at(!!perKey && { bucket: `key-addrs:${scope}`, windowMs: MINUTE, add: 0 });
    const failIpAt = at(!!ipFailures && { bucket: `fail-ip:${client}:${across}`, windowMs: FAILURE_WINDOW, add: 0 });
    const mineAt = at(!!(keyIpFailures || failures) && { bucket: `fail-key-ip:${scope}:${client}:${side}`, windowMs: FAILURE_WINDOW, add: 0 });
    const alarmAt = at(!!failures && { bucket: `fail:${scope}`, windowMs: FAILURE_WINDOW, add: 0 });
    if (!want.length) return;
    const n = await this.store.hits(want, now);
    // Exactly one request per address, key and minute sees 1: that one counts the address.
    if (usedAt >= 0 && n[usedAt] === 1) this.background(this.store.hit(`key-addrs:${scope}`, MINUTE, now, 1));
    const refused = this.refusal(n, { ipAt, keyAt, usedAt, addrsAt, failIpAt, mineAt, alarmAt }, { ...this.limits, ...this.refusalLimits(id) }, now);
    if (!refused) return;
    if (keyAt >= 0) this.background(this.store.hit(`key:${scope}`, MINUTE, now, -1));
    throw refused;
  }

  /** The first rule of checkKey's counts `n` this request is past, as the RATE01 to send; null if none. */
  private refusal(n: number[], i: Record<'ipAt' | 'keyAt' | 'usedAt' | 'addrsAt' | 'failIpAt' | 'mineAt' | 'alarmAt', number>,
    limits: Required<RateLimits>, now: Date): GatewayError | null {
    const { perIp, perKey, keyFloor, ipFailures, keyIpFailures, failures } = limits;
    if (i.ipAt >= 0 && n[i.ipAt] > perIp) return this.limited('ip', MINUTE, now, 'token requests from this address');
    if (i.keyAt >= 0 && n[i.keyAt] > perKey && n[i.usedAt] > keyShare(perKey, keyFloor, n[i.addrsAt])) {
      return this.limited('key', MINUTE, now, 'token requests for this key from this address (the key is past its ceiling: each address has its share)');
    }
    if (i.failIpAt >= 0 && n[i.failIpAt] >= ipFailures) {
      return this.limited('ip_failures', FAILURE_WINDOW, now, 'refused cards from this address (card-testing defence)');
    }
    const mine = i.mineAt >= 0 ? n[i.mineAt] : 0;
    if (mine === 0) return null; // an address never refused (on this side) is never held back, alarm or not
    let ceiling = keyIpFailures || Infinity;
    if (i.alarmAt >= 0) {
      const level = alarmLevel(n[i.alarmAt], failures);
      if (level) ceiling = tightened(keyIpFailures || DEFAULT_LIMITS.keyIpFailures, level);
    }
    if (mine >= ceiling) {
      return this.limited('key_ip_failures', FAILURE_WINDOW, now, 'refused cards from this address for this key (card-testing defence)');
    }
    return null;
  }

  /** A counter write the request does not wait for (on PostgreSQL it goes with the next batch). */
  private background(write: Promise<unknown>): void {
    write.catch((err: unknown) => this.events?.warn({ err }, 'rate-limit counters: a write failed'));
  }

  /**
   * Counts a refusal (live mode) for this client on `side`, for this client and key on `side`, and
   * towards the merchant's alarm (both sides together).
   */
  async noteFailure(id: KeyIdentity | null, ip: string, err: GatewayError, now: Date, side: Side = 'other'): Promise<void> {
    if (!id || !REFUSALS.has(err.code)) return;
    const { ipFailures, keyIpFailures, failures } = this.refusalLimits(id);
    if (!ipFailures && !keyIpFailures && !failures) return;
    const scope = `${id.merchantId}:${id.env}`;
    const client = hashClient(ip);
    const add: Hit[] = [];
    if (ipFailures) add.push({ bucket: `fail-ip:${client}:${acrossMerchants(side, scope)}`, windowMs: FAILURE_WINDOW, add: 1 });
    if (keyIpFailures || failures) add.push({ bucket: `fail-key-ip:${scope}:${client}:${side}`, windowMs: FAILURE_WINDOW, add: 1 });
    if (failures) add.push({ bucket: `fail:${scope}`, windowMs: FAILURE_WINDOW, add: 1 });
    const counts = await this.store.hits(add, now);
    if (!failures) return;
    const n = counts[counts.length - 1];
    const level = alarmLevel(n, failures);
    // The store answers each hit with its own count, so exactly one request sees each threshold.
    if (level && n === failures * 2 ** (level - 1)) {
      const ceiling = tightened(keyIpFailures || DEFAULT_LIMITS.keyIpFailures, level);
      this.events?.warn({ merchant_id: id.merchantId, env: id.env, refused: n, level, per_address_ceiling: ceiling },
        'card-testing alarm: many refused cards for this merchant; addresses already refused are now held to a lower ceiling');
      this.events?.count('tessera_card_testing_alarms_total',
        'Card-testing alarms raised or escalated (a merchant environment\'s refused cards passed the alarm threshold or doubled it).', { env: id.env });
    }
  }

  /** True while this node knows the address is past the failed-authentication ceiling (no lookup needed). */
  authBlocked(ip: string, now: Date): GatewayError | null {
    // Every authenticated request asks: with no address blocked, the answer needs no hash.
    if (!this.limits.authFailures || this.blocked.size === 0) return null;
    const client = hashClient(ip);
    const until = this.blocked.get(client);
    if (until === undefined) return null;
    if (until <= now.getTime()) {
      this.blocked.delete(client);
      return null;
    }
    return this.limited('auth_failures', FAILURE_WINDOW, now, 'failed authentications from this address');
  }

  /**
   * Counts a failed authentication of this address; answers the RATE01 to send instead of AUTH01
   * once the address is past its ceiling. Logged at warn with the key's kind prefix only.
   */
  async noteAuthFailure(ip: string, key: string, now: Date): Promise<GatewayError | null> {
    if (!this.limits.authFailures) return null;
    const client = hashClient(ip);
    const n = await this.store.hit(`auth-fail:${client}`, FAILURE_WINDOW, now);
    if (n <= this.limits.authFailures) {
      this.events?.warn({ address: clientOf(ip), key_prefix: keyPrefix(key), failures: n },
        n === this.limits.authFailures
          ? 'authentication failed; this address is now refused (429) for the rest of the window'
          : 'authentication failed: unknown or expired key');
    }
    if (n < this.limits.authFailures) return null;
    if (this.blocked.size >= BLOCKED_MAX) this.blocked.delete(this.blocked.keys().next().value!);
    this.blocked.set(client, windowEnd(FAILURE_WINDOW, now));
    return n > this.limits.authFailures ? this.limited('auth_failures', FAILURE_WINDOW, now, 'failed authentications from this address') : null;
  }

  private limited(rule: string, windowMs: number, now: Date, what: string): GatewayError {
    this.events?.count('tessera_rate_limited_total', 'Requests refused with 429 RATE01, by rule.', { rule });
    const retry = Math.ceil((windowEnd(windowMs, now) - now.getTime()) / 1000);
    return new GatewayError(E.RATE_LIMITED, `too many ${what}; retry in ${retry} s`, { retry_after: String(retry) });
  }
}

const windowEnd = (windowMs: number, now: Date) => Math.floor(now.getTime() / windowMs) * windowMs + windowMs;

/** What may be logged of a presented key: its `<env>_<kind>_` prefix (8 characters), never more. */
export function keyPrefix(key: string): string {
  const m = /^(test|live)_(pk|sk)_/.exec(key);
  return m ? m[0] : `(not a key, ${key.length} characters)`;
}

const NAMES: Record<string, keyof RateLimits> = {
  ip: 'perIp', key: 'perKey', key_floor: 'keyFloor', alarm: 'failures', failures: 'failures',
  key_ip_failures: 'keyIpFailures', ip_failures: 'ipFailures', auth_failures: 'authFailures',
};

/**
 * TESSERA_RATE_LIMITS: "off", or any subset of
 * "ip=300,key=3000,key_floor=10,key_ip_failures=10,ip_failures=30,alarm=200,auth_failures=20"
 * (`failures` is the old name of `alarm` and still accepted).
 */
export function parseLimits(spec: string | undefined): Required<RateLimits> {
  if (!spec) return { ...DEFAULT_LIMITS };
  if (spec.trim() === 'off') return { perIp: 0, perKey: 0, keyFloor: DEFAULT_LIMITS.keyFloor, failures: 0, keyIpFailures: 0, ipFailures: 0, authFailures: 0 };
  const out = { ...DEFAULT_LIMITS };
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`TESSERA_RATE_LIMITS: ${part} is not name=non-negative integer`);
    const name = Object.hasOwn(NAMES, k) ? NAMES[k] : undefined;
    if (!name) throw new Error(`TESSERA_RATE_LIMITS: unknown limit ${k} (${Object.keys(NAMES).join(', ')})`);
    out[name] = n;
  }
  return out;
}
