import type { Server, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

// How many sockets the gateway holds, and for how long (docs/decisions/connections-and-files.md).
// Idle keep-alive sockets are closed after keepAliveMs (a new socket that sends nothing is cut by
// Node's request timeout, 30 s, with a 408: app.ts, and test/proof/fuzz.test.ts); the process holds at most maxConnections
// (Node's server.maxConnections: a socket over it is closed as it is accepted); one address holds at
// most maxPerAddress (IPv6 by its /64, what one subscriber is given). A refused socket is closed at
// once, before any byte is read: at the cap, reading a request to answer 503 costs what the cap
// saves. Behind a proxy (TRUST_PROXY) the proxy is every socket's peer: its addresses are not capped
// per address (the proxy's own limits apply per client); the process cap still holds.

export interface ConnectionLimits {
  /** How long an idle keep-alive socket is kept, ms (TESSERA_KEEP_ALIVE_MS). */
  keepAliveMs: number;
  /** Sockets open at once in this process (TESSERA_MAX_CONNECTIONS); 0: no cap. */
  maxConnections: number;
  /** Sockets open at once from one address, IPv6 by /64 (TESSERA_MAX_CONNECTIONS_PER_ADDRESS); 0: no cap. */
  maxPerAddress: number;
}

/**
 * Keep-alive 5 s: well under the idle timeouts of the proxies and balancers in front (nginx 75 s for
 * clients, AWS ALB 60 s), which must in turn drop their upstream sockets to the gateway first.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { keepAliveMs: 5000, maxConnections: 10_000, maxPerAddress: 512 };

const LIMIT_VARS: Array<[keyof ConnectionLimits, string, number]> = [
  ['keepAliveMs', 'TESSERA_KEEP_ALIVE_MS', 100],
  ['maxConnections', 'TESSERA_MAX_CONNECTIONS', 0],
  ['maxPerAddress', 'TESSERA_MAX_CONNECTIONS_PER_ADDRESS', 0],
];

/** The limits from the environment, defaults for the unset ones; an Error naming the variable for a bad one. */
export function connectionLimitsFrom(env: NodeJS.ProcessEnv): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS };
  for (const [field, name, min] of LIMIT_VARS) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min) throw new Error(`${name} must be an integer of at least ${min}, got ${JSON.stringify(v)}`);
    limits[field] = Number(v);
  }
  return limits;
}

/** What one address's sockets are counted under: IPv4 (mapped too) as it is, other IPv6 by its /64. */
export function addressKey(peer: string): string {
  if (!ipaddr.isValid(peer)) return peer;
  const a = ipaddr.process(peer);
  if (a.kind() === 'ipv4') return a.toString();
  const parts = (a as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The socket peers the per-address cap leaves alone, from TRUST_PROXY: none without it; every peer
 * with a hop count (the operator says a proxy is always in front); the listed addresses and blocks.
 */
export function proxyPeers(trustProxy: false | number | string | undefined): (peer: string) => boolean {
  if (!trustProxy) return () => false;
  if (typeof trustProxy === 'number') return () => true;
  const nets = trustProxy.split(',').map((e) => {
    const [a, bits] = e.trim().split('/');
    const ip = ipaddr.process(a);
    return [ip, bits === undefined ? (ip.kind() === 'ipv4' ? 32 : 128) : Number(bits)] as const;
  });
  return (peer) => {
    if (!ipaddr.isValid(peer)) return false;
    const ip = ipaddr.process(peer);
    return nets.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net as never, bits));
  };
}

export type RefusedBy = 'process' | 'address';

export interface ConnectionCaps {
  /** Sockets open now per address key (those the per-address cap counts). */
  openByAddress(): ReadonlyMap<string, number>;
}

/**
 * Caps the sockets of a listening (or about to listen) server. `onRefused` hears each socket closed
 * over a cap (/metrics counts them). The keep-alive is Fastify's option (app.ts), not set here.
 */
export function capConnections(
  server: Server, limits: ConnectionLimits, opts: { exempt?: (peer: string) => boolean; onRefused?: (by: RefusedBy) => void } = {},
): ConnectionCaps {
  const open = new Map<string, number>();
  if (limits.maxConnections > 0) {
    server.maxConnections = limits.maxConnections;
    // Node closes the socket itself as it is accepted, and says so with 'drop' (Node >= 18.6).
    server.on('drop', () => opts.onRefused?.('process'));
  }
  if (limits.maxPerAddress > 0) {
    server.on('connection', (socket: Socket) => {
      const peer = socket.remoteAddress;
      if (!peer || opts.exempt?.(peer)) return;
      const key = addressKey(peer);
      const n = open.get(key) ?? 0;
      if (n >= limits.maxPerAddress) {
        socket.destroy();
        opts.onRefused?.('address');
        return;
      }
      open.set(key, n + 1);
      socket.once('close', () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      });
    });
  }
  return { openByAddress: () => open };
}
