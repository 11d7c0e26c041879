// Receiving ends and a DNS stand-in for the outbound tests (server/net/outbound.ts and the
// deliveries that use it): a node:http server on 127.0.0.1 whose answer each test scripts, that
// counts TCP connections and can hold requests until released; a resolver the test controls.
import { IncomingHttpHeaders, IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import type { ResolvedAddress, Resolver } from '../../../server/net/outbound.js';

export interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** TCP connections accepted (a blocked request never opens one). */
  connections: number;
  /** Sockets that were closed (by either side). */
  closed: number;
  requests: Seen[];
  /** How to answer; default 200 `{"ok":true}`. `hold` keeps the request open until release(). */
  handler: (req: Seen, res: ServerResponse) => void | 'hold';
  /** Requests being held, in arrival order. */
  held: Array<{ req: Seen; res: ServerResponse }>;
  /** Resolves when `n` requests have arrived in all. */
  arrived(n: number): Promise<void>;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

export async function startScripted(): Promise<ScriptedServer> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const sockets = new Set<Socket>();
  const state = {
    connections: 0, closed: 0, requests: [] as Seen[], held: [] as ScriptedServer['held'],
    handler: ((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }) as ScriptedServer['handler'],
  };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.requests.push(seen);
      for (const w of waiters.filter((x) => state.requests.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (state.handler(seen, res) === 'hold') state.held.push({ req: seen, res });
    });
  });
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => {
      state.closed++;
      sockets.delete(s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    port,
    origin: `http://127.0.0.1:${port}`,
    arrived: (n: number) => new Promise<void>((resolve) => {
      if (state.requests.length >= n) resolve();
      else waiters.push({ n, resolve });
    }),
    release(status = 200) {
      for (const { res } of state.held.splice(0)) {
        if (!res.destroyed) res.writeHead(status).end('{}');
      }
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  });
}

/** Answers `status` and then writes the body forever (until the client goes away). */
export function endless(status: number) {
  return (_req: Seen, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  };
}

export interface FakeDns {
  resolve: Resolver;
  /** name -> addresses; a name not here does not resolve (ENOTFOUND). */
  names: Map<string, string[]>;
  /** Names asked, in order. */
  asked: string[];
  /** While set, answers wait for it. */
  gate: Promise<void> | null;
}

export function fakeDns(entries: Record<string, string[]> = {}): FakeDns {
  const dns: FakeDns = {
    names: new Map(Object.entries(entries)),
    asked: [],
    gate: null,
    resolve: async (host: string): Promise<ResolvedAddress[]> => {
      dns.asked.push(host);
      if (dns.gate) await dns.gate;
      const found = dns.names.get(host.toLowerCase());
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
  return dns;
}

/** A promise and the function that settles it. */
export function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
