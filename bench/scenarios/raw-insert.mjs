import { randomBytes } from 'node:crypto';
import { loopLoad } from '../lib/load.mjs';

const BLOB = randomBytes(150).toString('base64'); // 200 characters, about a token row's payload

/**
 * What the database alone can do: single-row INSERTs through the same Db interface the gateway uses,
 * into a table shaped like a token row (text primary key, merchant, env, a 200-char blob, timestamptz).
 *
 * Two variants, same duration:
 *  - raw-insert-seq: one caller awaiting each INSERT before the next;
 *  - raw-insert: `connections` concurrent callers. This one is the baseline for the gateway ratio:
 *    PGlite runs one query at a time anyway (a single WASM backend behind a mutex), so concurrency
 *    buys no parallelism there, but it keeps a query queued the moment the previous one finishes,
 *    exactly as 64 HTTP connections do, and on PostgreSQL it exercises the pool like the server.
 */
export default {
  name: 'raw-insert',
  describe: 'single-row INSERTs through Db.query, sequential and concurrent',
  async run(ctx) {
    const { db, clock } = ctx.backend;
    await db.query(`CREATE TABLE bench_raw_insert (
      id text PRIMARY KEY,
      merchant_id text NOT NULL,
      env text NOT NULL,
      blob text NOT NULL,
      created_at timestamptz NOT NULL)`);
    let n = 0; // ids unique across both variants and their warm-ups
    const insert = () =>
      db.query('INSERT INTO bench_raw_insert (id, merchant_id, env, blob, created_at) VALUES ($1, $2, $3, $4, $5)', [
        `r_${n++}`,
        'mer_bench',
        'test',
        BLOB,
        clock.now(),
      ]);
    try {
      const { seconds, warmupSeconds, connections } = ctx.cfg;
      const seq = await loopLoad(insert, { seconds, warmupSeconds, concurrency: 1, name: 'raw-insert-seq' });
      const conc = await loopLoad(insert, { seconds, warmupSeconds, concurrency: connections, name: 'raw-insert' });
      return [
        { name: 'raw-insert-seq', unit: 'inserts/s', ...seq },
        { name: 'raw-insert', unit: 'inserts/s', ...conc },
      ];
    } finally {
      await db.query('DROP TABLE bench_raw_insert');
    }
  },
};
