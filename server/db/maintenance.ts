import { Db, Queryable } from './db.js';

/**
 * Autovacuum for the embedded database. PGlite runs PostgreSQL in single-user mode: no autovacuum
 * launcher, so nothing ever ANALYZEs a table or VACUUMs its dead rows. Without statistics a
 * prepared statement keeps the plan it got while the tables were tiny (a generic plan is only
 * replanned when something invalidates it, and ANALYZE is what does): a charge of a stored customer
 * read the merchant's customers through `customers_by_day` and filtered them by id, 4 ms a charge
 * with one customer, 11.9 ms with 20,000, 2.8 ms once analyzed (docs/decisions/database.md,
 * "Embedded maintenance"). And rows that are updated (tokens consumed, events dispatched) leave dead versions
 * that only VACUUM makes reusable.
 *
 * The statistics collector's counters are not kept up to date in single-user mode, so a table is
 * judged by its size on disk against the size its last VACUUM or ANALYZE recorded (`relpages`):
 * due when it was never analyzed and holds data, or has grown by a fifth and one page since,
 * the rule autovacuum applies to changed rows, here to pages. PostgreSQL servers run their own
 * autovacuum: this is for PGlite only.
 *
 * Nor is there a checkpointer: WAL is only recycled by a checkpoint, so an embedded database never
 * dropped any (an in-memory one held 86 segments, 90 MB, after 120,000 inserted rows, past its
 * max_wal_size of 64 MB, and grew on; a crash would have replayed all of it). A round also takes a
 * CHECKPOINT when the WAL written since the last one reaches half of max_wal_size (when
 * PostgreSQL's checkpointer would start one), or more than 1 MB of it is older than checkpoint_timeout.
 */

/** Growth past the last recorded size that makes a table due: 20% (autovacuum_vacuum_scale_factor) and one page. */
const SCALE = 0.2;

export interface TableSize {
  name: string;
  /** Pages at the last VACUUM or ANALYZE. */
  recorded: number;
  /** -1 when the table was never analyzed or vacuumed. */
  tuples: number;
  /** Pages now. */
  pages: number;
}

/** Whether a table needs VACUUM ANALYZE. */
export function isDue(t: TableSize): boolean {
  if (t.pages === 0) return false;
  return t.tuples < 0 || t.pages > t.recorded * (1 + SCALE) + 1;
}

/** The application's tables (schema public) with their recorded and present sizes. */
export function tableSizes(q: Queryable): Promise<TableSize[]> {
  return q.query<TableSize>(
    `SELECT c.relname AS name, c.relpages AS recorded, c.reltuples::float8 AS tuples,
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages
       FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
      ORDER BY c.relname`,
  );
}

export interface WalState {
  /** Bytes of WAL written since the last checkpoint's redo point. */
  since: number;
  /** Seconds since the last checkpoint. */
  age: number;
  /** max_wal_size and checkpoint_timeout, in bytes and seconds. */
  max: number;
  timeout: number;
}

/** Whether the WAL calls for a checkpoint. */
export function checkpointDue(w: WalState): boolean {
  return w.since >= w.max / 2 || (w.age >= w.timeout && w.since > 1024 * 1024);
}

export async function walState(q: Queryable): Promise<WalState> {
  const [w] = await q.query<WalState>(
    `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 AS since,
            extract(epoch FROM now() - checkpoint_time)::float8 AS age,
            pg_size_bytes(current_setting('max_wal_size'))::float8 AS max,
            extract(epoch FROM current_setting('checkpoint_timeout')::interval)::float8 AS timeout
       FROM pg_control_checkpoint()`,
  );
  return w;
}

/** VACUUM ANALYZE of every due table, one at a time, then a CHECKPOINT when due. */
export async function maintain(db: Db): Promise<{ tables: string[]; checkpoint: boolean }> {
  const tables = (await tableSizes(db)).filter(isDue).map((t) => t.name);
  // Names come from pg_class; quoted all the same.
  for (const name of tables) await db.exec(`VACUUM (ANALYZE) "${name.replace(/"/g, '""')}"`);
  const checkpoint = checkpointDue(await walState(db));
  if (checkpoint) await db.exec('CHECKPOINT');
  return { tables, checkpoint };
}
