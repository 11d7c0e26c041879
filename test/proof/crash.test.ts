// Crash safety: drive charges and refunds against a real `tessera serve`, kill -9 it mid-load,
// restart it on the same data, and prove that nothing acknowledged was lost and nothing was
// half-written. Embedded PGlite always; PostgreSQL too when TEST_DATABASE_URL is set.
//
// PGlite runs with fsync off: a killed process loses nothing (its writes are in the OS page cache),
// a power loss can. Power loss is out of scope here, as the README says.
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { migratedTempDir } from '../helpers/data-template.js';
import {
  Client, FULL, PG_URL, PgDatabase, ServerProcess, basic, checkLedger, figure, freshPgDatabase, pgQueryable, sleep, spawnServer,
} from './helpers.js';

const CYCLES = FULL ? 10 : 3;
const WORKERS = 24;
const CARD = { card_owner_name: 'Crash Test', card_number: '4242424242424242', card_exp_month: 12, card_exp_year: 2099, csc: '123' };

interface Acked {
  id: string;
  amount: number;
  status: string;
  refunded: number;
}

interface Backend {
  name: 'pglite' | 'postgres';
  dataDir?: string;
  db?: PgDatabase;
  dataKey?: string;
  start(): Promise<ServerProcess>;
  cleanup(): Promise<void>;
}

async function pgliteBackend(): Promise<Backend> {
  // A copy of the migrated template (test/helpers/data-template.ts): these tests crash a running
  // node; the first start itself is proven by 'a kill -9 during the first start' below.
  const dataDir = await migratedTempDir('tessera-crash-');
  return {
    name: 'pglite',
    dataDir,
    // No TESSERA_DATA_KEY: the embedded mode's generated data.key must survive the crashes too (the
    // first start makes it: the directory starts as a copy of the migrated template, no key in it).
    start: () => spawnServer({ dataDir }),
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function pgBackend(): Promise<Backend> {
  const db = await freshPgDatabase('proof_crash');
  const dataKey = randomBytes(32).toString('base64');
  return {
    name: 'postgres',
    db,
    dataKey,
    start: () => spawnServer({ databaseUrl: db.url, dataKey }),
    cleanup: () => db.drop(),
  };
}

/**
 * Workers create a token, charge it (a few with an Idempotency-Key, a few twice at once, some at a
 * declining amount) and refund part of some charges, until the server dies. Every 2xx is recorded.
 */
async function load(client: Client, keys: { pk: string; sk: string }, acked: Map<string, Acked>, stop: { dead: boolean }) {
  let requests = 0;
  let failures = 0;
  const worker = async () => {
    while (!stop.dead) {
      try {
        const tok = await client.request({ method: 'POST', path: '/api/v1/tokens', headers: basic(keys.pk), body: CARD });
        requests++;
        if (tok.status !== 200) throw new Error(`token ${tok.status} ${tok.body}`);
        const token = tok.json().id as string;
        const decline = randomInt(10) === 0;
        const amount = decline ? 80 : randomInt(100, 100_000);
        const headers = { ...basic(keys.sk), ...(randomInt(3) === 0 ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}) };
        const twice = randomInt(8) === 0;
        const attempts = await Promise.allSettled(
          Array.from({ length: twice ? 2 : 1 }, () =>
            client.request({ method: 'POST', path: '/api/v1/charge', headers, body: { token, amount, description: 'crash proof' } })),
        );
        for (const a of attempts) {
          if (a.status !== 'fulfilled') throw a.reason;
          requests++;
          const res = a.value;
          if (res.status === 200) {
            const t = res.json();
            acked.set(t.id, { id: t.id, amount, status: t.status, refunded: 0 });
          } else if (res.status === 402) {
            const id = res.json().errors[0].transaction_id as string;
            acked.set(id, { id, amount, status: 'DECLINED', refunded: 0 });
          } else if (![400, 409].includes(res.status)) {
            throw new Error(`charge ${res.status} ${res.body}`);
          }
        }
        const settled = [...acked.values()].filter((a) => a.status === 'SETTLED' && a.refunded < a.amount);
        if (settled.length && randomInt(3) === 0) {
          const target = settled[randomInt(settled.length)];
          const part = Math.min(target.amount - target.refunded, randomInt(1, 500));
          const res = await client.request({
            method: 'POST', path: `/api/v1/charge/${target.id}/cancel`, headers: basic(keys.sk), body: { amount: part },
          });
          requests++;
          if (res.status === 200) target.refunded += part;
          else if (res.status !== 400) throw new Error(`refund ${res.status} ${res.body}`);
        }
      } catch (err) {
        if (stop.dead) return; // the connection died with the server: the outcome is unknown, so nothing is claimed
        failures++;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return { requests, failures };
}

/** Every acknowledged charge is there with its amount, and at least the refunds that were acknowledged. */
async function verifyAcked(client: Client, sk: string, acked: Map<string, Acked>): Promise<string[]> {
  const problems: string[] = [];
  const list = [...acked.values()];
  for (let i = 0; i < list.length; i += 50) {
    await Promise.all(list.slice(i, i + 50).map(async (a) => {
      const res = await client.request({ path: `/api/v1/charge/${a.id}`, headers: basic(sk) });
      if (res.status !== 200) return problems.push(`${a.id}: ${res.status} ${res.body}`);
      const t = res.json();
      const amount = a.status === 'DECLINED' ? t.amount_failed : t.amount_settled;
      if (t.status !== a.status || amount !== a.amount) problems.push(`${a.id}: ${t.status} ${amount}, acknowledged ${a.status} ${a.amount}`);
      // A refund whose answer was lost in the crash may be there too: at least, never less.
      if (t.amount_refunded < a.refunded) problems.push(`${a.id}: refunded ${t.amount_refunded}, acknowledged ${a.refunded}`);
      a.refunded = t.amount_refunded;
    }));
  }
  return problems;
}

const backends: (() => Backend | Promise<Backend>)[] = [pgliteBackend, ...(PG_URL ? [pgBackend] : [])];
if (!PG_URL) console.log('[proof] crash: TEST_DATABASE_URL not set, PostgreSQL variant skipped (embedded PGlite only)');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => {});
});

describe.each(backends.map((make) => [make.name === 'pgliteBackend' ? 'pglite' : 'postgres', make] as const))('kill -9 on %s', (name, make) => {
  test(`${CYCLES} crashes mid-load lose no acknowledged charge and leave no half-written one`, async () => {
    const backend = await make();
    let server: ServerProcess | null = null;
    cleanups.push(async () => {
      await server?.crash();
      await backend.cleanup();
    });
    const acked = new Map<string, Acked>();
    const t0 = Date.now();
    server = await backend.start();
    const keys = { pk: server.publicKey!, sk: server.privateKey! };
    expect(keys.pk && keys.sk, 'a fresh database prints demo keys').toBeTruthy();
    let totalRequests = 0;
    let inFlightAtKill = 0;
    const ackedPerCycle: number[] = [];

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle > 0) {
        if (backend.dataDir) {
          // The killed process left its lock file behind: the restart must take it over.
          const lock = join(backend.dataDir, 'tessera.lock');
          expect(existsSync(lock), 'a kill -9 leaves the lock file').toBe(true);
        }
        const restartAt = Date.now();
        server = await backend.start();
        figure(`crash ${name} restart ${cycle} ms`, Date.now() - restartAt);
        if (backend.dataDir) expect(readFileSync(join(backend.dataDir, 'tessera.lock'), 'utf8')).toBe(String(server.pid));
        const client = new Client(server.url, 50);
        expect(await verifyAcked(client, keys.sk, acked)).toEqual([]);
        client.close();
      }
      const client = new Client(server.url, WORKERS * 2);
      const stop = { dead: false };
      const before = acked.size;
      const running = load(client, keys, acked, stop);
      // Kill once a random number of charges has been acknowledged in this cycle, mid-stream.
      const target = before + randomInt(30, 120);
      const deadline = Date.now() + 20_000;
      while (acked.size < target && Date.now() < deadline) await sleep(randomInt(5, 40));
      inFlightAtKill += client.inFlight;
      stop.dead = true;
      await server.crash();
      const { requests, failures } = await running;
      client.close();
      totalRequests += requests;
      expect(failures).toBe(0);
      expect(acked.size, 'the load made progress before the kill').toBeGreaterThan(before);
      ackedPerCycle.push(acked.size - before);
    }

    // Final restart: everything acknowledged is there, then the ledger itself is checked in SQL.
    server = await backend.start();
    const client = new Client(server.url, 50);
    expect(await verifyAcked(client, keys.sk, acked)).toEqual([]);
    const list = await client.request({ path: '/api/v1/transactions?limit=1', headers: basic(keys.sk) });
    expect(list.json().meta.total_results).toBeGreaterThanOrEqual(acked.size);
    client.close();
    await server.stop();
    server = null;

    const db = backend.dataDir ? await openDatabase({ dataDir: backend.dataDir }) : pgQueryable(backend.db!.url);
    try {
      const report = await checkLedger(db, { tokensOnlyForCharges: true });
      expect(report.violations).toEqual([]);
      expect(report.transactions).toBeGreaterThanOrEqual(acked.size);
      figure(`crash ${name}`, {
        crashes: CYCLES, acknowledged_charges: acked.size, per_cycle: ackedPerCycle,
        acknowledged_refund_cents: [...acked.values()].reduce((s, a) => s + a.refunded, 0),
        transactions: report.transactions, refunds: report.refunds, tokens_used: report.tokensUsed,
        requests: totalRequests, in_flight_at_kills: inFlightAtKill, seconds: (Date.now() - t0) / 1000,
      });
    } finally {
      await db.close();
    }
  }, 180_000);
});

describe('embedded data directory', () => {
  test('a kill -9 during the first start (initdb, migrations) never leaves a directory that cannot start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-crash-init-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // Kill at increasing points of the first start; each restart continues where the last one died.
    const kills: number[] = [];
    for (const delay of FULL ? [100, 250, 500, 800, 1200, 1600, 2000, 2500, 3000] : [300, 900, 1800]) {
      let pid = 0;
      const s = spawnServer({ dataDir, onSpawn: (p) => (pid = p) });
      const outcome = await Promise.race([s.then(() => 'listening', () => 'failed'), sleep(delay).then(() => 'killed')]);
      if (outcome === 'killed') {
        process.kill(pid, 'SIGKILL');
        kills.push(delay);
      }
      const srv = await s.catch(() => null);
      await srv?.crash();
    }
    const server = await spawnServer({ dataDir });
    const client = new Client(server.url, 4);
    const ready = await client.request({ path: '/readyz' });
    expect(ready.status).toBe(200);
    client.close();
    await server.stop();
    const db = await openDatabase({ dataDir });
    try {
      expect((await checkLedger(db)).violations).toEqual([]);
      const [{ n }] = await db.query('SELECT count(*)::int AS n FROM merchants');
      expect(n).toBeGreaterThanOrEqual(1);
    } finally {
      await db.close();
    }
    figure('crash pglite kills during first start (ms after spawn)', kills);
  }, 180_000);

  test('a second process on a live data directory is refused; the lock outlives no one', async () => {
    const dataDir = await migratedTempDir('tessera-crash-lock-'); // the lock is proven here, not the first start
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const first = await spawnServer({ dataDir });
    await expect(spawnServer({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${first.pid}`));
    await first.stop();
    expect(existsSync(join(dataDir, 'tessera.lock')), 'a graceful stop removes the lock').toBe(false);
    const again = await spawnServer({ dataDir });
    await again.stop();
  }, 120_000);
});

// Issue 15.6: a node that dies after a charge committed but before its answer was stored. The
// test-only failpoint TESSERA_FAILPOINT=after-commit-before-answer kills the process (SIGKILL) at
// exactly that point; the retry with the same Idempotency-Key must answer 200 with that charge.
describe.each(backends.map((make) => [make.name === 'pgliteBackend' ? 'pglite' : 'postgres', make] as const))('killed between commit and answer on %s', (name, make) => {
  test('the Idempotency-Key retry replays the committed transaction with 200, once', async () => {
    const backend = await make();
    let server: ServerProcess | null = null;
    cleanups.push(async () => {
      await server?.crash();
      await backend.cleanup();
    });
    const failing = () => (backend.dataDir
      ? spawnServer({ dataDir: backend.dataDir, env: { TESSERA_FAILPOINT: 'after-commit-before-answer' } })
      : spawnServer({ databaseUrl: backend.db!.url, dataKey: backend.dataKey, env: { TESSERA_FAILPOINT: 'after-commit-before-answer' } }));
    server = await failing();
    const keys = { pk: server.publicKey!, sk: server.privateKey! };
    let client = new Client(server.url, 4);
    const tok = await client.request({ method: 'POST', path: '/api/v1/tokens', headers: basic(keys.pk), body: CARD });
    expect(tok.status).toBe(200);
    const request = {
      method: 'POST', path: '/api/v1/charge', body: { token: tok.json().id, amount: 4321, description: 'lost answer' },
      headers: { ...basic(keys.sk), 'idempotency-key': `lost-${randomBytes(6).toString('hex')}` },
    };
    // Without a key the failpoint has nothing to lose: this charge answers.
    const tok2 = await client.request({ method: 'POST', path: '/api/v1/tokens', headers: basic(keys.pk), body: CARD });
    const plain = await client.request({ method: 'POST', path: '/api/v1/charge', headers: basic(keys.sk), body: { token: tok2.json().id, amount: 1000 } });
    expect(plain.status).toBe(200);
    await expect(client.request(request)).rejects.toThrow();
    expect((await server.exited).signal).toBe('SIGKILL');
    client.close();

    server = await backend.start();
    client = new Client(server.url, 4);
    const list = async () => (await client.request({ path: '/api/v1/transactions?limit=100', headers: basic(keys.sk) })).json().list
      .filter((t: { description: string }) => t.description === 'lost answer');
    const committed = await list();
    expect(committed, 'the charge committed before the kill').toHaveLength(1);
    if (backend.db) {
      // On PostgreSQL another node may still be answering: its claim is trusted for LEASE_MS (30 s)
      // of the database's clock (claimed_at).
      const early = await client.request(request);
      expect({ status: early.status, code: early.json().errors?.[0]?.code }).toEqual({ status: 409, code: 'IDEM03' });
      const q = pgQueryable(backend.db.url);
      await q.query("UPDATE idempotency_keys SET claimed_at = claimed_at - interval '31 seconds'");
      await q.close();
    }
    const retry = await client.request(request);
    expect(retry.status).toBe(200);
    expect(retry.json()).toMatchObject({ id: committed[0].id, amount_settled: 4321, status: 'SETTLED' });
    const again = await client.request(request);
    expect({ status: again.status, id: again.json().id, replayed: again.headers['idempotent-replayed'] })
      .toEqual({ status: 200, id: committed[0].id, replayed: 'true' });
    expect(await list(), 'the retries charged nothing').toHaveLength(1);
    figure(`crash ${name} between commit and answer`, { replayed: committed[0].id });
    client.close();
    await server.stop();
    server = null;
  }, 120_000);
});
