import type { BlobHome } from './vault.js';

// Every column that holds vault blobs, and the home (table, column, merchant, environment, row id)
// each blob is sealed to. Encrypting and decrypting code builds homes only through these helpers,
// and `tessera data-key reencrypt` walks ENCRYPTED_COLUMNS: a new encrypted column is added here.

interface ScopeLike { merchantId: string; env: string }
interface TokenIdentity { id: string; merchant_id: string; env: string }

/** tokens.secret_enc (card or account number) and tokens.csc_enc; the id is drawn before the insert. */
export const tokenHome = (t: TokenIdentity, column: 'secret_enc' | 'csc_enc'): BlobHome =>
  ({ table: 'tokens', column, merchantId: t.merchant_id, env: t.env, id: t.id });

/** payment_methods.secret_enc: the token's number, re-encrypted for the method row (never copied). */
export const methodHome = (scope: ScopeLike, methodId: string): BlobHome =>
  ({ table: 'payment_methods', column: 'secret_enc', merchantId: scope.merchantId, env: scope.env, id: methodId });

/** webhook_secrets: one row per merchant environment, so the scope is the whole identity. */
export const webhookSecretHome = (scope: ScopeLike, column: 'secret_enc' | 'previous_secret_enc'): BlobHome =>
  ({ table: 'webhook_secrets', column, merchantId: scope.merchantId, env: scope.env, id: '' });

/** processor_connections.secrets_enc: the JSON of a connection's secrets, one row per merchant environment. */
export const processorHome = (scope: ScopeLike): BlobHome =>
  ({ table: 'processor_connections', column: 'secrets_enc', merchantId: scope.merchantId, env: scope.env, id: '' });

/** vault_canary: one row per data key id (server/vault-canary.ts). */
export const canaryHome = (keyId: string): BlobHome =>
  ({ table: 'vault_canary', column: 'blob', merchantId: '', env: '', id: keyId });

export interface EncryptedColumn {
  table: string;
  column: string;
  /** The primary key, in order: the re-encryption pages by it and updates one row by it. */
  key: readonly string[];
  /** SQL expression of the home's id. */
  idSql: string;
  /** Values of the column that are no blob (a wiped token keeps ''). */
  emptySql: string;
}

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  { table: 'tokens', column: 'secret_enc', key: ['id'], idSql: 'id', emptySql: "''" },
  { table: 'tokens', column: 'csc_enc', key: ['id'], idSql: 'id', emptySql: "''" },
  { table: 'payment_methods', column: 'secret_enc', key: ['merchant_id', 'env', 'id'], idSql: 'id', emptySql: "''" },
  { table: 'webhook_secrets', column: 'secret_enc', key: ['merchant_id', 'env'], idSql: "''", emptySql: "''" },
  { table: 'webhook_secrets', column: 'previous_secret_enc', key: ['merchant_id', 'env'], idSql: "''", emptySql: "''" },
  { table: 'processor_connections', column: 'secrets_enc', key: ['merchant_id', 'env'], idSql: "''", emptySql: "''" },
];

/** The home of a row read by the re-encryption (merchant_id, env and the idSql column `home_id`). */
export const homeOf = (c: EncryptedColumn, row: { merchant_id: string; env: string; home_id: string }): BlobHome =>
  ({ table: c.table, column: c.column, merchantId: row.merchant_id, env: row.env, id: row.home_id });
