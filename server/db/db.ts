import { createHash } from 'node:crypto';

export type Row = Record<string, any>;

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface TxOptions {
  /**
   * PostgreSQL: how long the whole transaction may take before its caller is answered with a
   * DatabaseTimeoutError (default DEADLINES.txMs in pg.ts); null for none, with the server's
   * statement and lock timeouts lifted too (migrations, which wait for each other's lock).
   */
  deadlineMs?: number | null;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** Runs fn inside one transaction; rolls back when fn throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>, opts?: TxOptions): Promise<T>;
  /** A database fault (faults.ts) one of this process's statements met in the last few seconds, or null: /readyz. */
  recentFault?(): string | null;
  /**
   * For statements whose loss in a crash is harmless (the rate-limit counters): on PostgreSQL,
   * connections of their own that commit without waiting for the WAL flush, so a hot row (a
   * merchant's per-key counter) is not held for a disk write on every request. Absent: use the Db.
   */
  readonly relaxed?: Queryable;
  close(): Promise<void>;
}

/**
 * `pg` converts Dates, objects and bigints itself; PGlite does not. Both adapters pass
 * parameters through here so the same call means the same thing on both.
 */
export function normaliseParams(params: unknown[] = []): unknown[] {
  return params.map((p) => {
    if (p === undefined) return null;
    if (p instanceof Date) return p.toISOString();
    if (typeof p === 'bigint') return p.toString();
    if (Buffer.isBuffer(p) || p instanceof Uint8Array) return p;
    if (p !== null && typeof p === 'object') return JSON.stringify(p);
    return p;
  });
}

/** int8 (bigint) columns hold cents and counts; they fit in a JS number. */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;

/**
 * `LIMIT $n OFFSET $m` for a list whose other parameters are `params`: the caller appends
 * page.limit and page.offset. As parameters, every page of a list is one statement text.
 */
export function pageSql(params: unknown[]): string {
  return `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
}

/**
 * One page of a list and the number of rows in the whole list, the one way every list reads:
 * `rows` is the list's query up to its ORDER BY, `countFrom` what follows `SELECT count(*) FROM`
 * (the table and the same WHERE), both over `params`. A null limit is every row from the offset.
 */
export async function pagedQuery<T extends Row>(
  q: Queryable, page: { limit: number | null; offset: number }, rows: string, countFrom: string, params: unknown[],
): Promise<{ list: T[]; total: number }> {
  const [{ total }] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${countFrom}`, params);
  const list = await q.query<T>(`${rows} ${pageSql(params)}`, [...params, page.limit, page.offset]);
  return { list, total };
}

/**
 * Statements are prepared once per connection under a name derived from their text, so the
 * database parses and plans them once instead of on every call (both adapters). Which ones:
 *  - not a text with `*` in it (`SELECT *`, `RETURNING t.*`): a migration that adds a column while
 *    this node runs would change its result and PostgreSQL would refuse the cached plan (0A000)
 *    on every later call; texts that name their columns are re-planned silently instead;
 *  - only the first MAX_PREPARED texts: a prepared statement lives as long as its connection and
 *    some texts depend on the request (an update names the fields it was given);
 *  - never again, a text PostgreSQL refused the cached plan of (a column type changed under it).
 */
export const MAX_PREPARED = 200;
export const CACHED_PLAN_CHANGED = '0A000';
/** `SELECT *`, `t.*`, `RETURNING *`: a result whose columns a migration can change (count(*) cannot). */
const selectsStar = (sql: string) => sql.replace(/count\(\*\)/gi, '').includes('*');

export class StatementNames {
  private names = new Map<string, string | null>();
  private named = 0;
  /** The name to prepare `sql` under, or undefined: send it unnamed. */
  nameOf(sql: string): string | undefined {
    // A known text first: one Map lookup, no pass over the text (only named texts are kept).
    const known = this.names.get(sql);
    if (known !== undefined) return known ?? undefined;
    if (selectsStar(sql) || this.named >= MAX_PREPARED) return undefined;
    const name = 't' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    this.names.set(sql, name);
    this.named++;
    return name;
  }
  /** After an error of a named statement: a refused cached plan means never naming it again. */
  failed(sql: string, err: unknown): void {
    if ((err as { code?: string }).code === CACHED_PLAN_CHANGED) this.names.set(sql, null);
  }
}
