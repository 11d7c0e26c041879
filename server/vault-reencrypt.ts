import type { Db } from './db/index.js';
import { GatewayError } from './errors.js';
import type { Vault } from './vault.js';
import { ENCRYPTED_COLUMNS, EncryptedColumn, homeOf } from './vault-homes.js';
import { recordCurrentKey } from './vault-cluster.js';

// `tessera data-key reencrypt`: every stored blob becomes v2 (bound to its row) under the current
// data key, so retired keys (TESSERA_DATA_KEYS_RETIRED) can be dropped. Safe while gateways run on
// the same PostgreSQL: rows are read in pages by primary key and each is rewritten by its own
// statement, `WHERE <column> = <the blob read>`, so a blob changed meanwhile (a token used, a
// method replaced, a secret rotated) is left to its writer and never overwritten with stale data.
// Idempotent: a blob already v2 under the current key is not touched; a second run finds nothing.
// Before anything is rewritten, its key is recorded as the cluster's and every other one as retired
// (vault-cluster.ts): nodes still writing under another key stop within DATA_KEY_CHECK_MS. On
// PostgreSQL the count that says whether retired keys can be dropped waits until that time has
// passed since the record changed, and re-encrypts again first what was written meanwhile.

export interface ColumnReport {
  table: string;
  column: string;
  /** Rewritten by this run. */
  reencrypted: number;
  /** Already v2 under the current key when the run ended (this run's work included). */
  current: number;
  /** Changed by someone else between the read and the rewrite: left as the writer made it. */
  changed: number;
  /** Could not be decrypted (VAULT01: a key this node lacks; VAULT02: altered or moved); left as is. */
  unreadable: number;
}

export interface ReencryptReport {
  columns: ColumnReport[];
  /** Blobs still not v2 under the current key after the run (unreadable ones, or rewritten meanwhile by a node with another key). */
  remaining: number;
  /** Canary rows of other keys removed because no stored blob needs those keys any more. */
  retiredCanaries: number;
}

export interface ReencryptOptions {
  batchSize?: number;
  /** How long nodes may take to notice a retirement (DATA_KEY_SETTLE_MS for the command; 0 by default). */
  settleMs?: number;
  /** Waits `ms` (a timer by default); the second pass and the count follow. */
  settle?: (ms: number) => Promise<void>;
}

export async function reencryptAll(db: Db, vault: Vault, opts: ReencryptOptions = {}): Promise<ReencryptReport> {
  const batch = opts.batchSize ?? 500;
  const now = () => new Date();
  const currentPrefix = `v2.${vault.currentKeyId}.%`; // key ids are hex: no LIKE wildcard inside
  const changedAt = await db.tx((q) => recordCurrentKey(q, vault, now()));
  const columns = ENCRYPTED_COLUMNS.map((c) => ({ table: c.table, column: c.column, reencrypted: 0, current: 0, changed: 0, unreadable: 0 }));
  const pass = async () => {
    for (const [i, c] of ENCRYPTED_COLUMNS.entries()) {
      columns[i].unreadable = 0; // a second pass meets the same unreadable blobs again
      await rewrite(db, vault, c, batch, currentPrefix, columns[i]);
    }
  };
  await pass();
  // Embedded: the gateway is stopped (its lock), so nobody else writes; on PostgreSQL nodes do.
  const settleMs = opts.settleMs ?? 0;
  const wait = db.kind === 'pg' || opts.settle ? Math.min(settleMs, changedAt.getTime() + settleMs - now().getTime()) : 0;
  if (wait > 0) {
    await (opts.settle ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
    await pass(); // what a node wrote under a retired key before it noticed
  }
  let remaining = 0;
  for (const [i, c] of ENCRYPTED_COLUMNS.entries()) {
    const [counts] = await db.query<{ current: number; other: number }>(
      `SELECT count(*) FILTER (WHERE ${c.column} LIKE $1)::int AS current,
              count(*) FILTER (WHERE ${c.column} NOT LIKE $1)::int AS other
         FROM ${c.table} WHERE ${c.column} IS NOT NULL AND ${c.column} <> ${c.emptySql}`,
      [currentPrefix],
    );
    columns[i].current = counts.current;
    remaining += counts.other;
  }
  let retiredCanaries = 0;
  if (remaining === 0) {
    // Nothing stored needs another key: a node started with only a retired key must now refuse.
    retiredCanaries = (await db.query('DELETE FROM vault_canary WHERE key_id <> $1 RETURNING key_id', [vault.currentKeyId])).length;
  }
  return { columns, remaining, retiredCanaries };
}

/** Rewrites the blobs of column c that are not v2 under the current key, a page at a time. */
async function rewrite(db: Db, vault: Vault, c: EncryptedColumn, batch: number, currentPrefix: string, report: ColumnReport): Promise<void> {
  let after: unknown[] | null = null;
  for (;;) {
    const rows: Row[] = await db.query<Row>(pageSql(c, after !== null), [currentPrefix, batch, ...(after ?? [])]);
    for (const row of rows) {
      let fresh: string;
      try {
        fresh = vault.encrypt(vault.decrypt(row.blob, homeOf(c, row)), homeOf(c, row));
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        report.unreadable++;
        continue;
      }
      const keys = c.key.map((_, i) => row[`k${i}`]);
      const done = await db.query(updateSql(c), [fresh, row.blob, ...keys]);
      if (done.length === 1) report.reencrypted++;
      else report.changed++;
    }
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = c.key.map((_, i) => last[`k${i}`]);
  }
}

interface Row { merchant_id: string; env: string; home_id: string; blob: string; [k: `k${number}`]: unknown }

/** One page of the blobs of column c that are not v2 under the current key ($1), in primary-key order after $3... */
function pageSql(c: EncryptedColumn, paged: boolean): string {
  const keys = c.key.join(', ');
  const after = paged ? `AND (${keys}) > (${c.key.map((_, i) => `$${i + 3}`).join(', ')})` : '';
  return `SELECT merchant_id, env, ${c.idSql} AS home_id, ${c.column} AS blob, ${c.key.map((k, i) => `${k} AS k${i}`).join(', ')}
            FROM ${c.table}
           WHERE ${c.column} IS NOT NULL AND ${c.column} <> ${c.emptySql} AND ${c.column} NOT LIKE $1 ${after}
           ORDER BY ${keys} LIMIT $2`;
}

/** Rewrites one row's blob only if it is still the one that was read ($2). */
function updateSql(c: EncryptedColumn): string {
  return `UPDATE ${c.table} SET ${c.column} = $1
           WHERE ${c.column} = $2 AND ${c.key.map((k, i) => `${k} = $${i + 3}`).join(' AND ')} RETURNING 1 AS done`;
}

/** The command's report, one line per column and a verdict. */
export function formatReport(r: ReencryptReport, vault: Vault): string[] {
  const lines = r.columns.map((c) =>
    `${`${c.table}.${c.column}`.padEnd(36)} ${c.reencrypted} re-encrypted, ${c.current} current, ${c.changed} changed meanwhile, ${c.unreadable} unreadable`);
  lines.push(r.remaining === 0
    ? `all stored payment data is v2 under data key ${vault.currentKeyId}; retired keys can be dropped from TESSERA_DATA_KEYS_RETIRED` +
      (r.retiredCanaries ? ` (${r.retiredCanaries} canary row${r.retiredCanaries === 1 ? '' : 's'} of retired keys removed)` : '')
    : `${r.remaining} stored blob${r.remaining === 1 ? '' : 's'} still need${r.remaining === 1 ? 's' : ''} another key or could not be read: keep TESSERA_DATA_KEYS_RETIRED and run again`);
  return lines;
}
