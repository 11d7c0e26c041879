// Shared machinery of the proof suite (test/proof): real server processes (`node dist/server/main.js
// serve`), a bounded HTTP client, throwaway PostgreSQL databases, row snapshots and the ledger
// invariants every crash and scale-out test checks. Nothing here is mocked.
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, WriteStream } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { Queryable } from '../../server/db/index.js';
import { MIGRATIONS_DIR, ROOT } from '../../server/paths.js';

export const MAIN = join(ROOT, 'dist', 'server', 'main.js');
/** PostgreSQL variants run only when this is set (as in CI: .ci/run). */
export const PG_URL = process.env.TEST_DATABASE_URL || undefined;
/** PROOF_FULL=1: the heavy variants (more fuzz cases, more crash cycles). */
export const FULL = process.env.PROOF_FULL === '1' || process.env.PROOF_FULL === 'true';

/** Figures are printed as one line each, `[proof] name: value`, so CI logs and the report can quote them. */
export function figure(name: string, value: unknown): void {
  console.log(`[proof] ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

export function basic(key: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}

// ---------------------------------------------------------------------------------------------
// Server processes

export interface ServerOptions {
  dataDir?: string;
  databaseUrl?: string;
  dataKey?: string;
  logLevel?: string;
  /** Everything the process prints (pino JSON on stdout, warnings on stderr) is appended here too. */
  logFile?: string;
  rateLimits?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Called with the pid as soon as the process exists (to kill it before it listens). */
  onSpawn?: (pid: number) => void;
  /**
   * `serve --dev` (default true) for the demo merchant's keys on an empty database, with the demo
   * checkout off (TESSERA_DEMO=off unless env says otherwise); false runs plain `tessera serve`,
   * which makes no merchant (docs/decisions/production-defaults.md).
   */
  dev?: boolean;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** The demo merchant's test keys, printed on the first start of an empty database only. */
  merchantId: string | null;
  publicKey: string | null;
  privateKey: string | null;
  output(): string;
  /** What the process wrote to stdout alone (JSON log lines). */
  stdout(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9: no shutdown hook runs, the data-dir lock and PGlite's files stay as they are. */
  crash(): Promise<void>;
  /** SIGTERM: graceful close (in-flight requests finish, the database and its lock are released). */
  stop(): Promise<void>;
}

const LISTENING = /Tessera listening on (https?:\/\/\S+)/;

export async function spawnServer(opts: ServerOptions = {}): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: opts.logLevel ?? 'warn',
    TESSERA_RATE_LIMITS: opts.rateLimits ?? 'off',
    DATABASE_URL: opts.databaseUrl ?? '',
    TESSERA_DATA_DIR: opts.dataDir ?? '',
    TESSERA_DATA_KEY: opts.dataKey ?? '',
    OUTBOX_INTERVAL_MS: '60000',
    TESSERA_DEMO: 'off',
    ...opts.env,
  };
  delete env.TESSERA_DATA_KEYS_RETIRED;
  if (!opts.dataDir) delete env.TESSERA_DATA_DIR;
  const args = opts.dev === false ? [MAIN, 'serve'] : [MAIN, 'serve', '--dev'];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  opts.onSpawn?.(child.pid!);
  let out = '';
  let stdout = '';
  const log: WriteStream | null = opts.logFile ? createWriteStream(opts.logFile, { flags: 'a' }) : null;
  const onData = (s: string) => {
    out += s;
    log?.write(s);
  };
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stdout!.on('data', onData);
  child.stderr!.setEncoding('utf8').on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      // Let the pipes drain into the log file before anyone reads it.
      setTimeout(() => (log ? log.end(() => resolve({ code, signal })) : resolve({ code, signal })), 20);
    }),
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const running = () => child.exitCode === null && child.signalCode === null;
  const crash = async () => {
    process.removeListener('exit', killOnExit);
    if (running()) child.kill('SIGKILL');
    await exited;
  };
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (running()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    } else {
      await exited;
    }
  };
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    // At info level and below, Fastify's own "Server listening" line ends what stdout says of the
    // start (the migrations before it): the banner's pipe can be read first, on a loaded machine.
    const logsStart = ['info', 'debug', 'trace'].includes(env.LOG_LEVEL!);
    const check = () => {
      const m = LISTENING.exec(out);
      if (m && (!logsStart || stdout.includes('"msg":"Server listening at '))) done(null, m[1]);
    };
    const done = (err: Error | null, u?: string) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      if (err) reject(err);
      else resolve(u!);
    };
    // The banner is on stderr (stdout carries JSON logs only).
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then(({ code, signal }) => done(new Error(`server exited (${code ?? signal}) before listening:\n${out}`)));
    check();
  }).catch(async (err) => {
    await crash();
    throw err;
  });
  return {
    url: url.replace(/\/+$/, ''),
    pid: child.pid!,
    merchantId: /^merchant\s+(mer_[0-9a-f]+)\s*$/m.exec(out)?.[1] ?? null,
    publicKey: /^public key\s+(test_pk_[0-9a-f]+)\s*$/m.exec(out)?.[1] ?? null,
    privateKey: /^private key\s+(test_sk_[0-9a-f]+)\s*$/m.exec(out)?.[1] ?? null,
    output: () => out,
    stdout: () => stdout,
    exited,
    crash,
    stop,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP client: node:http with a keep-alive agent whose maxSockets bounds the requests in flight

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

export interface RequestSpec {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is (set the content type yourself). */
  body?: unknown;
  timeoutMs?: number;
}

export class Client {
  readonly agent: http.Agent;
  private readonly base: URL;
  /** Requests issued and not answered (including those queued in the agent for a socket). */
  inFlight = 0;
  /** Requests holding a socket now (bounded by maxSockets), and the most seen at once. */
  active = 0;
  maxActive = 0;
  constructor(baseUrl: string, maxSockets = 200) {
    this.base = new URL(baseUrl);
    // A socket timeout, so Node honours the gateway's `Keep-Alive: timeout=5` and drops an idle
    // socket a second before the gateway closes it. With none (0), Node keeps idle sockets without
    // limit, and a request sent on one just as the gateway closed it fails "socket hang up" (seen
    // once in scale-out, after a test that left the clients idle for about 5 s). Each request
    // still sets its own timeout (timeoutMs).
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: 60_000 });
  }
  request(spec: RequestSpec): Promise<Reply> {
    const headers: Record<string, string> = { ...spec.headers };
    let payload: Buffer | undefined;
    if (spec.body !== undefined) {
      if (typeof spec.body === 'string' || Buffer.isBuffer(spec.body)) {
        payload = Buffer.from(spec.body as string);
      } else {
        payload = Buffer.from(JSON.stringify(spec.body));
        headers['content-type'] ??= 'application/json';
      }
      headers['content-length'] = String(payload.length);
    }
    return new Promise<Reply>((resolve, reject) => {
      let settled = false;
      let onSocket = false;
      const finish = (err: Error | null, reply?: Reply) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        if (onSocket) this.active--;
        if (err) reject(err);
        else resolve(reply!);
      };
      const req = http.request(
        { host: this.base.hostname, port: this.base.port, method: spec.method ?? 'GET', path: spec.path, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            finish(null, { status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
          });
          res.on('error', (e) => finish(e));
        },
      );
      this.inFlight++;
      req.once('socket', () => {
        if (settled) return;
        onSocket = true;
        this.active++;
        this.maxActive = Math.max(this.maxActive, this.active);
      });
      req.setTimeout(spec.timeoutMs ?? 60_000, () => req.destroy(new Error('client timeout')));
      req.on('error', (e) => finish(e));
      if (payload) req.write(payload);
      req.end();
    });
  }
  close(): void {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a database of its own per test file, dropped afterwards

export interface PgDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function freshPgDatabase(prefix = 'proof'): Promise<PgDatabase> {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A plain pg pool on a database (for reading what the servers wrote). */
export function pgQueryable(url: string): Queryable & { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return {
    async query(sql: string, params?: unknown[]) {
      return (await pool.query(sql, params as any[])).rows;
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// Write probes: "nothing written" means no row of any table was inserted, updated or deleted

/** The write log's own table, left out of the tables it watches. */
const WRITE_LOG = 'proof_writes';

export async function tableNames(q: Queryable): Promise<string[]> {
  const rows = await q.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> $1 ORDER BY tablename`, [WRITE_LOG],
  );
  return rows.map((r) => r.tablename as string);
}

/**
 * A probe cheap enough for every request, whatever the tables hold: a write log. Each watched
 * table has a counter row in proof_writes, bumped by a trigger for every row inserted, updated or
 * deleted (and for a TRUNCATE) in the writing transaction itself, so a write that rolls back
 * bumps nothing. A table was written since a probe when its counter moved. It sees a row written
 * and written back, which row counts do not. Installed on a database the first time it is probed
 * (test databases only); the counts of every table that it replaced cost the fuzz files ~20 s of
 * PGlite CPU, growing with the tables.
 */
export interface WriteProbe {
  counts: number[];
}

const watched = new WeakMap<Queryable, Promise<void>>();

function watchWrites(q: Queryable, tables: string[]): Promise<void> {
  let installed = watched.get(q);
  if (!installed) {
    installed = q.exec(`
      CREATE TABLE ${WRITE_LOG} (tbl text PRIMARY KEY, n bigint NOT NULL DEFAULT 0);
      CREATE FUNCTION ${WRITE_LOG}_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE ${WRITE_LOG} SET n = n + 1 WHERE tbl = TG_TABLE_NAME; RETURN NULL; END $$;
      ${tables.map((t) => `INSERT INTO ${WRITE_LOG} (tbl) VALUES ('${t}');
      CREATE TRIGGER ${WRITE_LOG}_row AFTER INSERT OR UPDATE OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION ${WRITE_LOG}_bump();
      CREATE TRIGGER ${WRITE_LOG}_truncate AFTER TRUNCATE ON "${t}" FOR EACH STATEMENT EXECUTE FUNCTION ${WRITE_LOG}_bump();`).join('\n')}`);
    watched.set(q, installed);
  }
  return installed;
}

async function writeCounts(q: Queryable, tables: string[]): Promise<number[]> {
  await watchWrites(q, tables);
  const n = new Map((await q.query(`SELECT tbl, n::text AS n FROM ${WRITE_LOG}`)).map((r) => [r.tbl as string, Number(r.n)]));
  return tables.map((t) => {
    const count = n.get(t);
    if (count === undefined) throw new Error(`the write log does not watch table ${t} (made after the first probe?)`);
    return count;
  });
}

export async function probe(q: Queryable, tables: string[]): Promise<WriteProbe> {
  return { counts: await writeCounts(q, tables) };
}

export async function writtenSince(q: Queryable, tables: string[], before: WriteProbe): Promise<string[]> {
  const now = await writeCounts(q, tables);
  return tables.filter((_, i) => now[i] !== before.counts[i]);
}

// ---------------------------------------------------------------------------------------------
// Ledger invariants: what a crash or a race must never leave behind

export interface LedgerReport {
  transactions: number;
  refunds: number;
  tokensUsed: number;
  violations: string[];
}

/**
 * `tokensOnlyForCharges`: in a workload where only charges consume tokens, a used token without
 * its transaction is a half-written charge.
 */
export async function checkLedger(q: Queryable, opts: { tokensOnlyForCharges?: boolean } = {}): Promise<LedgerReport> {
  const violations: string[] = [];
  const bad = async (what: string, sql: string) => {
    const rows = await q.query(sql);
    if (rows.length) violations.push(`${what}: ${JSON.stringify(rows.slice(0, 5))}${rows.length > 5 ? ` (+${rows.length - 5})` : ''}`);
  };
  await bad('token consumed by more than one transaction',
    `SELECT token_id, count(*)::int AS n FROM transactions WHERE token_id IS NOT NULL GROUP BY token_id HAVING count(*) > 1`);
  await bad('transaction whose token is not marked used (or kept its CVV)',
    `SELECT t.id, t.token_id FROM transactions t LEFT JOIN tokens k ON k.id = t.token_id
      WHERE t.token_id IS NOT NULL AND (k.id IS NULL OR k.used_at IS NULL OR k.csc_enc IS NOT NULL)`);
  if (opts.tokensOnlyForCharges) {
    await bad('token used without a transaction (half-written charge)',
      `SELECT k.id FROM tokens k WHERE k.used_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.token_id = k.id)`);
  }
  await bad('transaction without exactly one created/failed event',
    `SELECT t.id, (SELECT count(*)::int FROM events e WHERE e.data->>'id' = t.id AND e.type IN ('transaction.created', 'transaction.failed')) AS n
       FROM transactions t
      WHERE (SELECT count(*) FROM events e WHERE e.data->>'id' = t.id AND e.type IN ('transaction.created', 'transaction.failed')) <> 1`);
  await bad('amount_refunded differs from the sum of refunds',
    `SELECT t.id, t.amount_refunded, coalesce(sum(r.amount), 0)::int AS refunds FROM transactions t
       LEFT JOIN refunds r ON r.transaction_id = t.id GROUP BY t.id, t.amount_refunded
      HAVING t.amount_refunded <> coalesce(sum(r.amount), 0)`);
  await bad('refund events differ from refund rows',
    `SELECT t.id FROM transactions t
      WHERE (SELECT count(*) FROM refunds r WHERE r.transaction_id = t.id)
         <> (SELECT count(*) FROM events e WHERE e.data->>'id' = t.id AND e.type = 'transaction.refunded')`);
  await bad('refunded more than settled, or refunded flag wrong',
    `SELECT id FROM transactions WHERE amount_refunded > amount_settled
        OR refunded <> (amount_refunded = amount_settled AND amount_settled > 0)`);
  await bad('status and amounts disagree',
    `SELECT id, status FROM transactions
      WHERE (status = 'SETTLED' AND NOT (successful AND settled AND amount_settled > 0 AND amount_failed = 0))
         OR (status = 'DECLINED' AND (successful OR amount_settled <> 0 OR amount_failed <= 0))`);
  await bad('idempotency key naming a charge that does not exist',
    `SELECT endpoint, key, resource_id FROM idempotency_keys i
      WHERE resource_id IS NOT NULL AND (endpoint = '/api/v1/charge' OR endpoint LIKE '%/cancel')
        AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = i.resource_id)`);
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
  const applied = (await q.query('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
  if (JSON.stringify(applied) !== JSON.stringify(files)) violations.push(`migrations: applied ${applied.join(',')} of ${files.join(',')}`);
  const [{ n: transactions }] = await q.query('SELECT count(*)::int AS n FROM transactions');
  const [{ n: refunds }] = await q.query('SELECT count(*)::int AS n FROM refunds');
  const [{ n: tokensUsed }] = await q.query('SELECT count(*)::int AS n FROM tokens WHERE used_at IS NOT NULL');
  return { transactions, refunds, tokensUsed, violations };
}

// ---------------------------------------------------------------------------------------------
// Error bodies

/** Exactly `{errors: [{code, message, ...}]}`: one key, a non-empty array of items with string code and message. */
export function errorShapeProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'not an object';
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'errors') return `top-level keys ${keys.join(',')}`;
  const errors = (body as any).errors;
  if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty array';
  for (const e of errors) {
    if (!e || typeof e !== 'object') return 'error item is not an object';
    if (typeof e.code !== 'string' || !e.code) return 'code is not a string';
    if (typeof e.message !== 'string' || !e.message) return 'message is not a string';
  }
  return null;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
