import { randomBytes } from 'node:crypto';
import { Socket, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../../server/app.js';
import type { TrustProxy } from '../../../server/config.js';
import { ManualClock } from '../../../server/clock.js';
import { ConnectionLimits, DEFAULT_CONNECTION_LIMITS, addressKey, connectionLimitsFrom, proxyPeers } from '../../../server/http/connections.js';
import { Vault } from '../../../server/vault.js';
import { testDb } from '../../helpers/gateway.js';

// Keep-alive and the socket caps (http/connections.ts, docs/decisions/connections-and-files.md),
// with real sockets against a gateway listening on a free port. 127.0.0.2 and 127.0.0.3 are other
// loopback sources (Linux routes all of 127/8 to lo): another address to the gateway.

const opened: Socket[] = [];
const apps: FastifyInstance[] = [];
// One database for the file: each test builds its own gateway on it (GET /healthz reads nothing).
let db: Awaited<ReturnType<typeof testDb>>;
beforeAll(async () => {
  db = await testDb();
});
afterAll(() => db.drop());
afterEach(async () => {
  opened.splice(0).forEach((s) => s.destroy());
  for (const app of apps.splice(0)) await app.close();
});

const build = (opts: Parameters<typeof buildApp>[1] = {}) => buildApp({ db, vault: new Vault(randomBytes(32)), clock: new ManualClock() }, opts);

async function gateway(
  connections: Partial<ConnectionLimits>, trustProxy: TrustProxy = false, routes?: (app: FastifyInstance) => void,
): Promise<{ app: FastifyInstance; port: number }> {
  const app = await build({ trustProxy, connections: { ...DEFAULT_CONNECTION_LIMITS, ...connections } });
  apps.push(app);
  routes?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, port: typeof addr === 'object' && addr ? addr.port : 0 };
}

interface Client {
  socket: Socket;
  /** Resolves with the time it closed (Date.now()). */
  closed: Promise<number>;
  /** Sends GET /healthz and resolves with the status code; null when the socket closed without an answer. */
  get(): Promise<number | null>;
}

/** A socket from `from`, connected; the server may still refuse it (then `get` gives null). */
async function client(port: number, from = '127.0.0.1'): Promise<Client> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  opened.push(socket);
  socket.on('error', () => {}); // a refused socket may be reset: `closed` says so
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const get = () => new Promise<number | null>((resolve) => {
    let answer = '';
    const onData = (d: Buffer) => {
      answer += d.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})[^]*\r\n\r\n[^]*\{[^]*\}/.exec(answer);
      if (status) {
        socket.off('data', onData);
        resolve(Number(status[1]));
      }
    };
    socket.on('data', onData);
    void closed.then(() => resolve(null));
    if (!socket.destroyed) socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
  });
  return { socket, closed, get };
}

/** `n` sockets from `from`, each answered once (so the server has accepted and counted it). */
async function served(port: number, n: number, from = '127.0.0.1'): Promise<Client[]> {
  const list: Client[] = [];
  for (let i = 0; i < n; i++) {
    const c = await client(port, from);
    expect(await c.get()).toBe(200);
    list.push(c);
  }
  return list;
}

const refused = (app: FastifyInstance, by: string) =>
  Number(new RegExp(`^tessera_connections_refused_total\\{by="${by}"\\} (\\d+)$`, 'm').exec(app.metrics.render())?.[1] ?? 0);

describe('keep-alive', () => {
  test('an idle keep-alive socket is closed by the gateway after TESSERA_KEEP_ALIVE_MS, not 72 s', async () => {
    const { port } = await gateway({ keepAliveMs: 400 });
    const c = await client(port);
    expect(await c.get()).toBe(200);
    const answered = Date.now();
    // Closed after the 400 ms set, not the 72 s default: the upper bound is loose so that a
    // loaded machine's late timers cannot fail it, and still far below 72 s.
    const closedAt = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    expect(closedAt).not.toBe(-1);
    expect(closedAt - answered).toBeGreaterThanOrEqual(300);
    expect(closedAt - answered).toBeLessThan(10_000);
  });

  test('a request slower than the keep-alive is not cut: the idle clock runs only between requests', async () => {
    const { port } = await gateway({ keepAliveMs: 300 }, false, (app) => app.get('/slow', { config: { access: 'none' } }, async () => {
      await new Promise((r) => setTimeout(r, 800));
      return { slow: true };
    }));
    const c = await client(port);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      c.socket.on('data', (d) => {
        text += d.toString('latin1');
        if (text.includes('{"slow":true}')) resolve(text);
      });
      void c.closed.then(() => resolve(text));
    });
    c.socket.write('GET /slow HTTP/1.1\r\nHost: gateway\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200[^]*\{"slow":true\}$/);
  });

  test('a socket in use stays: each request restarts the idle clock', async () => {
    const { port } = await gateway({ keepAliveMs: 400 });
    const c = await client(port);
    for (let i = 0; i < 4; i++) {
      expect(await c.get()).toBe(200);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(c.socket.destroyed).toBe(false);
  });

  test('by default 5 s (the environment unset), and the server has it', async () => {
    expect(DEFAULT_CONNECTION_LIMITS.keepAliveMs).toBe(5000);
    const app = await build();
    apps.push(app);
    expect(app.server.keepAliveTimeout).toBe(5000);
    expect(app.server.maxConnections).toBe(DEFAULT_CONNECTION_LIMITS.maxConnections);
  });
});

describe('the per-address cap', () => {
  test('the N+1th socket of one address is closed at once, another address still connects; a closed socket frees its place', async () => {
    const { app, port } = await gateway({ maxPerAddress: 3 });
    const first = await served(port, 3);
    const over = await client(port);
    expect(await over.get()).toBeNull();
    expect(refused(app, 'address')).toBe(1);
    // Another address is not that one's crowd.
    expect(await (await client(port, '127.0.0.2')).get()).toBe(200);
    // The three first ones still work, and one closing lets a new one in.
    for (const c of first) expect(await c.get()).toBe(200);
    first[0].socket.destroy();
    await first[0].closed;
    await new Promise((r) => setTimeout(r, 50)); // the server sees the close
    expect(await (await client(port)).get()).toBe(200);
    expect(refused(app, 'address')).toBe(1);
    expect(app.metrics.render()).toContain('# TYPE tessera_connections_refused_total counter');
  });

  test('behind a proxy (TRUST_PROXY lists it) the proxy is not capped per address; other peers are', async () => {
    const { app, port } = await gateway({ maxPerAddress: 2 }, '127.0.0.1');
    await served(port, 4, '127.0.0.1');
    await served(port, 2, '127.0.0.2');
    expect(await (await client(port, '127.0.0.2')).get()).toBeNull();
    expect(refused(app, 'address')).toBe(1);
  });

  test('TRUST_PROXY as a hop count: every peer is a proxy, none is capped per address', async () => {
    const { app, port } = await gateway({ maxPerAddress: 2 }, 1);
    await served(port, 4, '127.0.0.2');
    expect(refused(app, 'address')).toBe(0);
  });

  test('0 turns it off', async () => {
    const { port } = await gateway({ maxPerAddress: 0 });
    await served(port, 6);
  });
});

describe('the process cap', () => {
  test('over TESSERA_MAX_CONNECTIONS a socket from any address is closed at once and counted; a free place serves again', async () => {
    const { app, port } = await gateway({ maxConnections: 4, maxPerAddress: 0 });
    const held = [...await served(port, 2, '127.0.0.1'), ...await served(port, 2, '127.0.0.2')];
    expect(await (await client(port, '127.0.0.3')).get()).toBeNull();
    expect(refused(app, 'process')).toBe(1);
    held[0].socket.destroy();
    await held[0].closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(await (await client(port, '127.0.0.3')).get()).toBe(200);
  });
});

describe('settings', () => {
  test('TESSERA_KEEP_ALIVE_MS, TESSERA_MAX_CONNECTIONS, TESSERA_MAX_CONNECTIONS_PER_ADDRESS: defaults, values, and an error naming a bad one', () => {
    expect(connectionLimitsFrom({})).toEqual({ keepAliveMs: 5000, maxConnections: 10_000, maxPerAddress: 512 });
    expect(connectionLimitsFrom({ TESSERA_KEEP_ALIVE_MS: '30000', TESSERA_MAX_CONNECTIONS: '0', TESSERA_MAX_CONNECTIONS_PER_ADDRESS: '64' }))
      .toEqual({ keepAliveMs: 30_000, maxConnections: 0, maxPerAddress: 64 });
    for (const [name, value] of [['TESSERA_KEEP_ALIVE_MS', '50'], ['TESSERA_KEEP_ALIVE_MS', '5s'], ['TESSERA_MAX_CONNECTIONS', '-1'], ['TESSERA_MAX_CONNECTIONS_PER_ADDRESS', '1.5']]) {
      expect(() => connectionLimitsFrom({ [name]: value })).toThrow(name);
    }
  });

  test('an address is counted as itself (IPv4, IPv4-mapped the same), an IPv6 one by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff::9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });

  test('which peers are proxies, from TRUST_PROXY', () => {
    expect(proxyPeers(false)('10.0.0.1')).toBe(false);
    expect(proxyPeers(2)('203.0.113.7')).toBe(true);
    const listed = proxyPeers('10.0.0.0/8,192.0.2.1,2001:db8::/32');
    expect(['10.1.2.3', '::ffff:10.1.2.3', '192.0.2.1', '2001:db8::5'].map(listed)).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.0.2.2', '2001:db9::5', 'not-an-ip'].map(listed)).toEqual([false, false, false, false]);
  });
});
