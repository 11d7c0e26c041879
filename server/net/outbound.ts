import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AllowList, classifyIp, isLocalhostName, parseIp } from './addresses.js';

// Every HTTP request Tessera makes on its own goes out here: webhook deliveries and billing
// callbacks (jobs/callbacks.ts, to URLs a merchant gave) and the SMS webhook (notify/sms.ts, to
// the operator's URL). For a merchant's URL the host is checked when the URL is saved (vetUrl) and
// again when connecting: the name is resolved, every address is checked, and the socket connects
// to the address that was checked, so a name that resolved public when saved and private later
// (DNS rebinding) is refused. Every request has one deadline for all of it (DNS, connect, TLS,
// headers, body) and reads at most a few KiB of the answer.

/** The environment whose rules apply: a merchant's test or live mode, or `operator` (no address rules). */
export type Caller = 'test' | 'live' | 'operator';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (injectable: tests play DNS). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** The operator's private targets (TESSERA_OUTBOUND_ALLOW). */
  allow: AllowList;
  /** Test mode may call loopback (QA receivers live there); TESSERA_TEST_LOOPBACK=off takes that away. */
  testLoopback: boolean;
  resolve: Resolver;
}

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

let current: OutboundPolicy = { allow: new AllowList(), testLoopback: true, resolve: systemResolver };

/**
 * The process's policy (start.ts sets the allow-list from the configuration; tests may swap the
 * resolver). Returns the previous one, so a caller can put it back.
 */
export function configureOutbound(p: { allow?: readonly string[]; testLoopback?: boolean; resolve?: Resolver }): OutboundPolicy {
  const previous = current;
  current = {
    allow: p.allow ? new AllowList(p.allow) : current.allow,
    testLoopback: p.testLoopback ?? current.testLoopback,
    resolve: p.resolve ?? current.resolve,
  };
  return previous;
}

export function restoreOutbound(p: OutboundPolicy): void {
  current = p;
}

export const outboundPolicy = (): OutboundPolicy => current;

/** Public addresses always; loopback in test mode (QA receivers live there) unless switched off; anything the operator allowed. */
function addressAllowed(policy: OutboundPolicy, caller: Caller, ip: string): boolean {
  if (caller === 'operator') return true;
  const c = classifyIp(ip);
  return c === 'public' || (c === 'loopback' && caller === 'test' && policy.testLoopback) || policy.allow.allowsIp(ip);
}

const bareHost = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, '$1');

/** How long saving a URL waits for DNS before accepting it (the connect-time check still applies). */
const VET_RESOLVE_MS = 2000;

/**
 * Saving a merchant's URL: null when its host may be called, else why not. A literal address is
 * judged as it is (new URL() has already turned `2130706433` or `0x7f.1` into `127.0.0.1`); a name
 * is resolved and every address must pass. A name that does not resolve (yet) is accepted: nothing
 * can be reached through it, and each delivery checks again.
 */
export async function vetUrl(url: string, caller: Caller, policy: OutboundPolicy = current): Promise<string | null> {
  if (caller === 'operator') return null;
  const u = new URL(url);
  const host = bareHost(u);
  if (parseIp(host)) {
    return addressAllowed(policy, caller, host) ? null : `${u.hostname} is not a public address`;
  }
  if (policy.allow.allowsName(host)) return null;
  if (isLocalhostName(host)) return caller === 'test' && policy.testLoopback ? null : `${host} is a loopback name`;
  let addresses: ResolvedAddress[];
  try {
    addresses = await withDeadline(policy.resolve(host), VET_RESOLVE_MS);
  } catch {
    return null;
  }
  return addresses.every((a) => addressAllowed(policy, caller, a.address)) ? null : `${host} resolves to an address that is not public`;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('resolver deadline')), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Why a request got no HTTP answer. `detail` is for the operator's log only. */
export class OutboundError extends Error {
  constructor(readonly kind: 'blocked' | 'network' | 'timeout', readonly detail: string) {
    super(OutboundError.PUBLIC_MESSAGE);
  }

  /**
   * What a merchant is shown for every kind: telling a refused port from a filtered one or a
   * blocked address would map the operator's network for whoever names the URL.
   */
  static readonly PUBLIC_MESSAGE = 'no HTTP answer: the connection failed, was refused or blocked, or timed out';
}

/**
 * A node `lookup` that resolves with the policy's resolver and fails unless every address passes;
 * the socket then connects to one of exactly these addresses.
 */
function guardedLookup(policy: OutboundPolicy, caller: Caller, onBlocked: (detail: string) => void): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    policy.resolve(hostname).then((found) => {
      let list = found;
      if (options.family === 4 || options.family === 6) list = list.filter((a) => a.family === options.family);
      if (list.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
      const bad = list.find((a) => !addressAllowed(policy, caller, a.address));
      if (bad) {
        onBlocked(`${hostname} resolved to ${bad.address}`);
        throw Object.assign(new Error(`${hostname} resolves to an address that may not be called`), { code: 'EBLOCKED' });
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    }).catch((err) => callback(err));
  }) as LookupFunction;
}

export interface PostOptions {
  /** Whose rules apply: the merchant environment of the URL, or `operator` for the operator's own endpoints. */
  caller: Caller;
  headers: Record<string, string>;
  body: string;
  /** Made when the connection is ready, right before the request is written (a signature's timestamp). */
  lateHeaders?: () => Record<string, string>;
  /** The deadline of the whole exchange: DNS, connect, TLS, answer and the part of its body that is read. */
  timeoutMs: number;
  /** Bytes of the answer's body kept; the connection is dropped after that. Default 4096. */
  maxBodyBytes?: number;
  policy?: OutboundPolicy;
}

export interface PostResult {
  status: number;
  /** At most maxBodyBytes of the answer, as UTF-8. */
  body: string;
  /** The answer went on past maxBodyBytes (or past the deadline) and was cut. */
  truncated: boolean;
}

export const MAX_ANSWER_BYTES = 4096;

/**
 * POSTs `body` to `url` (http or https, no redirects followed, a new connection each time).
 * Resolves with the status as soon as it is known and the body read (up to the cap or the
 * deadline); rejects with OutboundError when no HTTP answer came.
 */
export function post(url: string, opts: PostOptions): Promise<PostResult> {
  const policy = opts.policy ?? current;
  const cap = opts.maxBodyBytes ?? MAX_ANSWER_BYTES;
  const u = new URL(url);
  const host = bareHost(u);
  if (opts.caller !== 'operator' && parseIp(host) && !addressAllowed(policy, opts.caller, host)) {
    // A literal address never reaches `lookup`: check it here.
    return Promise.reject(new OutboundError('blocked', `${host} is not a public address`));
  }
  const trusted = opts.caller === 'operator' || policy.allow.allowsName(host);
  return new Promise<PostResult>((resolve, reject) => {
    let settled = false;
    let blocked: string | null = null;
    let timer: NodeJS.Timeout | undefined;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request({
      protocol: u.protocol,
      hostname: host,
      port: u.port || undefined,
      path: `${u.pathname}${u.search}`,
      method: 'POST',
      agent: false,
      headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
      lookup: trusted ? guardedLookup(policy, 'operator', () => {}) : guardedLookup(policy, opts.caller, (d) => (blocked = d)),
    });
    let status = 0;
    const chunks: Buffer[] = [];
    let kept = 0;
    const answer = (truncated: boolean) => finish(() => {
      req.destroy();
      resolve({ status, body: Buffer.concat(chunks).toString('utf8'), truncated });
    });
    timer = setTimeout(() => {
      if (status) return answer(true);
      finish(() => {
        req.destroy();
        reject(new OutboundError('timeout', `no answer within ${opts.timeoutMs} ms`));
      });
    }, opts.timeoutMs);
    req.on('error', (err: Error & { code?: string }) => finish(() => {
      req.destroy();
      if (status) return resolve({ status, body: Buffer.concat(chunks).toString('utf8'), truncated: true });
      reject(new OutboundError(blocked ? 'blocked' : 'network', blocked ?? `${err.code ?? err.name}: ${err.message}`));
    }));
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (c: Buffer) => {
        if (settled) return;
        const room = cap - kept;
        chunks.push(room < c.length ? c.subarray(0, room) : c);
        kept += Math.min(room, c.length);
        if (kept >= cap) answer(true);
      });
      res.on('end', () => answer(false));
      res.on('error', () => answer(true));
    });
    // Late headers: written once the connection (and TLS) is up, so a signature's time is the send time.
    req.on('socket', (socket) => {
      const send = () => {
        if (settled) return;
        try {
          for (const [k, v] of Object.entries(opts.lateHeaders?.() ?? {})) req.setHeader(k, v);
        } catch (err) {
          req.destroy(err as Error);
          return;
        }
        req.end(opts.body);
      };
      if (!socket.connecting && !('encrypted' in socket && socket.encrypted)) send();
      else socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', send);
    });
  });
}
