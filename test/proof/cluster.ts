// Machinery of the fault suite (test/proof/faults*.test.ts): a private PostgreSQL cluster started
// with initdb as the `postgres` user, a private redis-server, a small tmpfs, raw HTTP exchanges over
// node:net, and the bookkeeping the fault tests share (status tallies, waiting on conditions).
//
// Everything runs on ports picked at run time and in directories made by mkdtemp. The machine's
// own PostgreSQL (5432) and Redis (6379) are never touched: every fault (restart, SIGSTOP, a full
// disk) is applied to an instance this file started. Whatever is started is registered, and
// `cleanupAll()` (afterAll, and synchronously on process exit) stops it even after a failure.
import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Reply, ServerProcess, errorShapeProblem } from './helpers.js';

const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Processes, ports, waiting

/** A free TCP port on 127.0.0.1 (bound and released: another process could take it, not 5432/6379). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The process exists and has not exited (a zombie counts as dead). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: kill(0) said it exists
  }
}

/** Children of `pid` (from /proc), for the backends of a postmaster. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The node's last warnings and errors (pino JSON on stdout), shortened: what a failure message needs. */
export function logTail(node: ServerProcess, n = 5): string[] {
  return node.stdout().split('\n').filter((l) => l.startsWith('{')).flatMap((l) => {
    try {
      const j = JSON.parse(l);
      return j.level >= 40 ? [`${j.level} ${j.msg ?? ''} ${j.err?.code ?? ''} ${String(j.err?.message ?? '').slice(0, 120)}`.trim()] : [];
    } catch {
      return [];
    }
  }).slice(-n);
}

/**
 * Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws, naming `what`
 * and the last value or error seen). Never a fixed sleep: a loaded machine only makes it slower.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  { timeoutMs = 30_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as T;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(intervalMs);
  }
}

// ---------------------------------------------------------------------------------------------
// Cleanup registry: async in afterAll, sync on exit (a killed worker still stops its cluster)

interface Cleanup {
  async(): Promise<void>;
  sync(): void;
}
const cleanups = new Set<Cleanup>();
let exitHook = false;

function register(c: Cleanup): () => void {
  cleanups.add(c);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const x of cleanups) {
        try {
          x.sync();
        } catch {
          // best effort on the way out
        }
      }
    });
  }
  return () => cleanups.delete(c);
}

/** Stops everything this file started that is still running (newest first). */
export async function cleanupAll(): Promise<void> {
  for (const c of [...cleanups].reverse()) {
    await c.async().catch((err) => console.warn(`[proof] cleanup failed: ${err}`));
    cleanups.delete(c);
  }
}

// ---------------------------------------------------------------------------------------------
// A private PostgreSQL cluster

/** PostgreSQL's binaries: PG_BIN, or the newest /usr/lib/postgresql/<version>/bin. */
export function pgBin(): string | null {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/** Why a private cluster cannot be started here (null: it can). */
export function clusterUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not root (initdb runs as the postgres user through runuser)';
  if (!pgBin()) return 'no PostgreSQL binaries (set PG_BIN, or install postgresql)';
  if (!postgresUser()) return 'no postgres OS user';
  try {
    execFileSync('which', ['runuser'], { stdio: 'ignore' });
  } catch {
    return 'no runuser';
  }
  return null;
}

export class PgCluster {
  private constructor(
    readonly dir: string,
    readonly dataDir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly logFile: string,
    private unregister: () => void = () => {},
  ) {}

  /** initdb (trust auth, user postgres) in a private directory, then start on a free port. */
  static async start(): Promise<PgCluster> {
    const why = clusterUnavailable();
    if (why) throw new Error(`cannot start a private PostgreSQL: ${why}`);
    const bin = pgBin()!;
    const owner = postgresUser()!;
    const dir = mkdtempSync(join(tmpdir(), 'tessera-faults-pg-'));
    chownSync(dir, owner.uid, owner.gid); // mkdtemp makes it 0700: the postgres user must own it
    const dataDir = join(dir, 'data');
    const port = await freePort();
    const cluster = new PgCluster(dir, dataDir, port, bin, join(dir, 'postgres.log'));
    cluster.unregister = register({ async: () => cluster.destroy(), sync: () => cluster.destroySync() });
    await cluster.asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], 120_000);
    await cluster.start();
    return cluster;
  }

  private asPostgres(tool: string, args: string[], timeoutMs = 90_000) {
    return run('runuser', ['-u', 'postgres', '--', join(this.bin, tool), ...args], { cwd: this.dir, timeout: timeoutMs, encoding: 'utf8' })
      .catch((err) => {
        const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
        throw new Error(`${tool} ${args.join(' ')} failed: ${err.stderr || err.message}\n${log}`);
      });
  }

  private get options(): string {
    // fsync off: a fast shutdown still writes everything; no test here pulls the power.
    return `-c port=${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c fsync=off -c full_page_writes=off -c max_connections=200`;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', '-o', this.options, 'start']);
  }

  /** `pg_ctl stop -m <mode>` and wait until it is down. */
  async stop(mode: 'fast' | 'smart' | 'immediate' = 'fast'): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-w', '-t', '60', '-m', mode, 'stop']);
  }

  /** `pg_ctl restart -m <mode>`: returns once it accepts connections again. */
  async restart(mode: 'fast' | 'smart' | 'immediate' = 'fast'): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', '-m', mode, '-o', this.options, 'restart']);
  }

  /** The postmaster's pid, null when it is not running. */
  postmasterPid(): number | null {
    const file = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
  }

  private frozen: number[] = [];

  /** SIGSTOP to the postmaster and every process it started (backends, checkpointer, walwriter...). */
  freeze(): number[] {
    const pm = this.postmasterPid();
    if (!pm) throw new Error('PostgreSQL is not running');
    const pids = [pm, ...childPids(pm)];
    for (const p of pids) process.kill(p, 'SIGSTOP');
    // A backend forked between the listing and the postmaster's stop: stop it too.
    for (const p of childPids(pm)) if (!pids.includes(p)) {
      process.kill(p, 'SIGSTOP');
      pids.push(p);
    }
    this.frozen = pids;
    return pids;
  }

  thaw(): void {
    for (const p of this.frozen) {
      try {
        process.kill(p, 'SIGCONT');
      } catch {
        // gone
      }
    }
    this.frozen = [];
  }

  async isUp(): Promise<boolean> {
    const c = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 3000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  }

  /** Running and answering (a test that stopped or froze it and then failed leaves it usable). */
  async ensureUp(): Promise<void> {
    this.thaw();
    if (await this.isUp()) return;
    if (!this.postmasterPid()) await this.start();
    await waitFor('the private PostgreSQL to answer', () => this.isUp(), { timeoutMs: 60_000, intervalMs: 250 });
  }

  /** A plain client on one of its databases (the caller ends it). */
  async client(database = 'postgres'): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: this.url(database) });
    c.on('error', () => {});
    await c.connect();
    return c;
  }

  /** A new empty database; its URL. */
  async createDatabase(prefix = 'faults'): Promise<string> {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    const c = await this.client();
    try {
      await c.query(`CREATE DATABASE "${name}"`);
    } finally {
      await c.end();
    }
    return this.url(name);
  }

  private destroyed = false;

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.thaw();
    if (this.postmasterPid()) await this.stop('immediate').catch(() => {});
    this.finish();
  }

  destroySync(): void {
    if (this.destroyed) return;
    this.thaw();
    if (this.postmasterPid()) {
      try {
        execFileSync('runuser', ['-u', 'postgres', '--', join(this.bin, 'pg_ctl'), '-D', this.dataDir, '-w', '-t', '20', '-m', 'immediate', 'stop'], { stdio: 'ignore' });
      } catch {
        // already down
      }
    }
    this.finish();
  }

  private finish() {
    this.destroyed = true;
    rmSync(this.dir, { recursive: true, force: true });
    this.unregister();
  }

  /** The last lines of the cluster's log, for a failure message. */
  logTail(lines = 20): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n') : '';
  }
}

// ---------------------------------------------------------------------------------------------
// A private Redis

export function redisUnavailable(): string | null {
  try {
    execFileSync('which', ['redis-server'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'no redis-server';
  }
}

export class PrivateRedis {
  private constructor(readonly port: number, readonly child: ChildProcess, private readonly unregister: () => void) {}

  static async start(): Promise<PrivateRedis> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'tessera-faults-redis-'));
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.resume();
    child.stderr!.resume();
    const kill = () => {
      try {
        process.kill(child.pid!, 'SIGCONT');
        child.kill('SIGKILL');
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    };
    const unregister = register({ async: async () => kill(), sync: kill });
    const redis = new PrivateRedis(port, child, () => {
      unregister();
      kill();
    });
    await waitFor(`redis-server on ${port}`, () => redis.ping(), { timeoutMs: 20_000 });
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** One RESP command over a fresh socket, answered within `timeoutMs` (else null). */
  command(args: string[], timeoutMs = 1000): Promise<string | null> {
    return new Promise((resolve) => {
      const s = net.connect(this.port, '127.0.0.1');
      let got = '';
      const done = (v: string | null) => {
        clearTimeout(timer);
        s.destroy();
        resolve(v);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      s.on('error', () => done(null));
      s.on('data', (d) => {
        got += d.toString('utf8');
        if (got.endsWith('\r\n')) done(got);
      });
      s.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
  }

  async ping(): Promise<boolean> {
    return (await this.command(['PING'])) === '+PONG\r\n';
  }

  freeze(): void {
    process.kill(this.child.pid!, 'SIGSTOP');
  }

  thaw(): void {
    try {
      process.kill(this.child.pid!, 'SIGCONT');
    } catch {
      // gone
    }
  }

  stop(): void {
    this.unregister();
  }
}

// ---------------------------------------------------------------------------------------------
// A small tmpfs

export class Tmpfs {
  private constructor(readonly dir: string, private readonly unregister: () => void) {}

  /** mount -t tmpfs -o size=<mb>m on a fresh directory (root only). */
  static mount(mb: number): Tmpfs {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-faults-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=0700`, 'tmpfs', dir]);
    let mounted = true;
    const umount = () => {
      if (mounted) {
        try {
          execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
        } catch {
          // not mounted any more
        }
        mounted = false;
      }
      rmSync(dir, { recursive: true, force: true });
    };
    const unregister = register({ async: async () => umount(), sync: umount });
    return new Tmpfs(dir, () => {
      unregister();
      umount();
    });
  }

  /** Bytes free on it. */
  free(): number {
    const out = execFileSync('df', ['-B1', '--output=avail', this.dir], { encoding: 'utf8' });
    return Number(out.trim().split('\n').pop());
  }

  subdir(name: string): string {
    const d = join(this.dir, name);
    mkdirSync(d, { recursive: true });
    return d;
  }

  umount(): void {
    this.unregister();
  }
}

export function tmpfsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not root (mount -t tmpfs)';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Answers: tallies and the rules every fault test applies to them

/** Counts by status (and `transport` for no answer at all), with examples of the unexpected. */
export class Tally {
  readonly byStatus: Record<string, number> = {};
  readonly codes: Record<string, number> = {};
  readonly problems: string[] = [];
  private examples = 0;

  add(label: string, r: Reply | Error): void {
    if (r instanceof Error) {
      this.byStatus.transport = (this.byStatus.transport ?? 0) + 1;
      this.problem(`${label}: no answer (${r.message})`);
      return;
    }
    this.byStatus[r.status] = (this.byStatus[r.status] ?? 0) + 1;
    if (r.status >= 400) {
      let code = '?';
      try {
        code = r.json().errors?.[0]?.code ?? '?';
      } catch {
        // not JSON
      }
      this.codes[`${r.status} ${code}`] = (this.codes[`${r.status} ${code}`] ?? 0) + 1;
    }
    const bad = unavailableProblem(r);
    if (bad) this.problem(`${label}: ${bad}`);
  }

  private problem(p: string) {
    // Keep a handful of examples; the counts say how many.
    if (this.examples++ < 12) this.problems.push(p);
  }

  count(status: number | 'transport'): number {
    return this.byStatus[status] ?? 0;
  }

  /** Answers of status >= 500. */
  serverErrors(): number {
    return Object.entries(this.byStatus).filter(([s]) => /^\d+$/.test(s) && Number(s) >= 500).reduce((n, [, v]) => n + v, 0);
  }
}

/**
 * The rule for an answer while a dependency is away: a 5xx is only ever a 503 carrying
 * Retry-After and an error code (`{errors:[{code, message}]}`), never a 500 or another 5xx.
 */
export function unavailableProblem(r: Reply): string | null {
  if (r.status < 500) return null;
  const head = `${r.status} ${r.body.slice(0, 160)}`;
  if (r.status !== 503) return `answered ${head}`;
  if (!/^\d+$/.test(String(r.headers['retry-after'] ?? ''))) return `503 without a Retry-After of seconds: ${head}`;
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    return `503 whose body is not JSON: ${head}`;
  }
  const shape = errorShapeProblem(body);
  return shape ? `503 body ${shape}: ${head}` : null;
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP over node:net

export interface RawStep {
  /** Bytes to write. */
  write?: Buffer | string;
  /** Pause before the next step. */
  pauseMs?: number;
  /** End the exchange: `end` half-closes (FIN), `destroy` closes, `reset` sends a TCP RST. */
  close?: 'end' | 'destroy' | 'reset';
}

export interface RawResult {
  /** Status codes of the responses read, in order. */
  statuses: number[];
  /** The first bytes received (for a failure message). */
  head: string;
  error?: string;
  timedOut: boolean;
}

/**
 * Writes `steps` on a fresh connection and reads whatever comes back until the server closes, the
 * exchange goes quiet after `expect` responses, or `timeoutMs` passes. The server's answer (or its
 * silence) is the result; a reset by the server is recorded, not thrown.
 */
export function rawExchange(port: number, steps: RawStep[], { timeoutMs = 10_000, expect = 1 } = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let settled = false;
    let closedByUs = false;
    const statuses = () => [...Buffer.concat(chunks).toString('latin1').matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
    const finish = (extra: Partial<RawResult> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      socket.destroy();
      const buf = Buffer.concat(chunks);
      resolve({ statuses: statuses(), head: buf.subarray(0, 200).toString('latin1'), timedOut: false, ...extra });
    };
    const timer = setTimeout(() => finish({ timedOut: !closedByUs }), timeoutMs);
    let quiet: NodeJS.Timeout | undefined;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      // Enough responses: allow a moment for a trailing body, then stop waiting for a close.
      if (statuses().length >= expect) {
        clearTimeout(quiet);
        quiet = setTimeout(() => finish(), 300);
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish({ error: e.code ?? e.message }));
    socket.on('close', () => finish());
    socket.on('connect', async () => {
      for (const step of steps) {
        if (settled) return;
        if (step.write !== undefined) socket.write(step.write);
        if (step.pauseMs) await sleep(step.pauseMs);
        if (step.close) {
          closedByUs = true;
          if (step.close === 'end') socket.end();
          else if (step.close === 'reset') socket.resetAndDestroy();
          else socket.destroy();
          if (step.close !== 'end') return finish();
        }
      }
    });
  });
}
