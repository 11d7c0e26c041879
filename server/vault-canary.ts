import { ConfigError } from './config.js';
import type { Db, Queryable } from './db/index.js';
import type { Vault } from './vault.js';
import { ENCRYPTED_COLUMNS, canaryHome } from './vault-homes.js';
import { recordFirstKey, retiredAtStart } from './vault-cluster.js';

// At every start, before the gateway listens: proof that this node's data key reads what is
// stored. vault_canary (migration 015) holds a known text encrypted under each data key that has
// written to this database, one row per key id; a node that holds none of those keys would answer
// VAULT01 on every read of card data (and, on PostgreSQL, write tokens the other nodes cannot read),
// so it refuses to start instead.

const CANARY = 'tessera data key canary';

/** A data key that cannot read this database: `tessera serve` prints the message and exits 1. */
export class DataKeyError extends ConfigError {}

export type CanaryOutcome =
  /** The current key's canary decrypted. */
  | 'verified'
  /** Only a retired key (still configured) had a canary: one was written under the current key. */
  | 'rotated'
  /** No canary yet (a new database, or one from before migration 015): one was written. */
  | 'created';

const KEYS = 'TESSERA_DATA_KEY (with TESSERA_DATA_KEYS_RETIRED)';

export async function checkDataKey(db: Db, vault: Vault, now: Date, warn?: (msg: string) => void): Promise<CanaryOutcome> {
  return db.tx(async (q) => {
    // Nodes starting together take turns: the second one sees the first one's row.
    await q.query('LOCK TABLE vault_canary IN SHARE ROW EXCLUSIVE MODE');
    const retired = await retiredAtStart(q, vault);
    if (retired) throw new DataKeyError(`${KEYS}: ${retired}; start with the cluster's data key in TESSERA_DATA_KEY`);
    const outcome = await checkCanary(q, vault, now, warn);
    await recordFirstKey(q, vault, now); // which key the cluster writes under (vault-cluster.ts)
    return outcome;
  });
}

async function checkCanary(q: Queryable, vault: Vault, now: Date, warn?: (msg: string) => void): Promise<CanaryOutcome> {
  const rows = await q.query<{ key_id: string; blob: string }>('SELECT key_id, blob FROM vault_canary ORDER BY created_at, key_id');
  const current = rows.find((r) => r.key_id === vault.currentKeyId);
  if (current) {
    prove(vault, current);
    return 'verified';
  }
  const readable = rows.find((r) => vault.hasKey(r.key_id));
  if (readable) {
    prove(vault, readable);
  } else if (rows.length > 0) {
    throw mismatch(vault, rows.map((r) => r.key_id));
  } else {
    // No canary yet: a database from before migration 015 may already hold blobs.
    const stored = await storedKeyIds(q);
    const unknown = stored.filter((k) => !vault.hasKey(k));
    if (stored.length > 0 && unknown.length === stored.length) throw mismatch(vault, stored);
    if (unknown.length > 0) {
      warn?.(`some stored payment data is encrypted with data key id ${unknown.join(', ')}, which ${KEYS} does not hold: reading it answers VAULT01`);
    }
  }
  await q.query(
    'INSERT INTO vault_canary (key_id, blob, created_at) VALUES ($1, $2, $3) ON CONFLICT (key_id) DO NOTHING',
    [vault.currentKeyId, vault.encrypt(CANARY, canaryHome(vault.currentKeyId)), now],
  );
  return readable ? 'rotated' : 'created';
}

function prove(vault: Vault, row: { key_id: string; blob: string }): void {
  let plain: string | null = null;
  try {
    plain = vault.decrypt(row.blob, canaryHome(row.key_id));
  } catch {
    // fall through: same answer as a wrong text
  }
  if (plain !== CANARY) {
    throw new DataKeyError(`${KEYS}: the canary of data key id ${row.key_id} in table vault_canary does not decrypt (the row was altered); restore it from a backup, or delete it to have it written again`);
  }
}

function mismatch(vault: Vault, stored: string[]): DataKeyError {
  const held = vault.keyIds.length > 1
    ? `this node holds key id ${vault.currentKeyId} (TESSERA_DATA_KEY) and ${vault.keyIds.slice(1).join(', ')} (TESSERA_DATA_KEYS_RETIRED)`
    : `this node holds key id ${vault.currentKeyId} (TESSERA_DATA_KEY)`;
  return new DataKeyError(
    `${KEYS} cannot read the data stored in this database: it is encrypted with data key id ${[...new Set(stored)].join(', ')}, ` +
      `${held}; start with the key the data was written with (a key id is the first 8 hex digits of the SHA-256 of the key's 32 bytes)`,
  );
}

/** Key ids found in the encrypted columns (one pass over each; only when no canary exists yet). */
async function storedKeyIds(q: Queryable): Promise<string[]> {
  const parts = ENCRYPTED_COLUMNS.map((c) =>
    `SELECT DISTINCT split_part(${c.column}, '.', 2) AS kid FROM ${c.table} WHERE ${c.column} IS NOT NULL AND ${c.column} <> ${c.emptySql}`);
  const rows = await q.query<{ kid: string }>(`SELECT DISTINCT kid FROM (${parts.join(' UNION ')}) k ORDER BY kid`);
  return rows.map((r) => r.kid).filter((k) => /^[0-9a-f]{8}$/.test(k));
}
