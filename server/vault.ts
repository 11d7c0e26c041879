import { createHmac, hkdfSync } from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E, GatewayError } from './errors.js';
import { randomBytesPooled } from './lib/random.js';

/**
 * Where a blob lives. A v2 blob is sealed to it (AES-GCM associated data): copied into another
 * row, column, merchant or environment it no longer decrypts. server/vault-homes.ts names them.
 */
export interface BlobHome {
  table: string;
  column: string;
  merchantId: string;
  env: string;
  /** The row's id; '' for rows whose key is the merchant environment itself (webhook_secrets). */
  id: string;
}

/** Why a blob could not be read, for the operator's log (never a secret, never a plaintext). */
export interface UnreadableBlob {
  reason: 'unknown_key' | 'integrity';
  keyId: string;
  table: string;
  column: string;
}

/**
 * AES-256-GCM for card numbers, CVVs, bank account numbers and signing secrets.
 * Blob: v2.<keyId>.<iv>.<tag>.<ciphertext> (base64url), sealed to its BlobHome. The key id names
 * the key, so after a rotation old blobs still decrypt with a retired key. v1 blobs (the same
 * layout without associated data, written before blobs were bound to their row) still decrypt;
 * `tessera data-key reencrypt` turns them into v2 under the current key.
 */
export class Vault {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;
  /** Called before an unreadable blob is refused (start.ts logs it). */
  onUnreadable?: (info: UnreadableBlob) => void;
  /** Set while this node must not write (server/vault-cluster.ts): encrypt() refuses with VAULT03. */
  private refusal: { reason: string; retryAfterS: number } | null = null;

  constructor(current: Buffer, retired: Buffer[] = []) {
    for (const k of [current, ...retired]) {
      if (k.length !== 32) throw new Error('data keys must be 32 bytes (base64 of 32 random bytes)');
      this.keys.set(keyId(k), k);
    }
    this.currentKeyId = keyId(current);
  }

  /** Key ids this vault can decrypt with: the current one first, then the retired ones. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  hasKey(id: string): boolean {
    return this.keys.has(id);
  }

  /**
   * Stops (with a reason, for the log) or resumes writing: while stopped, encrypt() throws VAULT03
   * (503, Retry-After) inside the caller's transaction, so nothing is stored under a key the other
   * nodes may not read.
   */
  refuseWrites(reason: string | null, retryAfterS = 5): void {
    this.refusal = reason === null ? null : { reason, retryAfterS };
  }

  /** Why this node writes nothing now, or null. */
  get writeRefusal(): string | null {
    return this.refusal?.reason ?? null;
  }

  encrypt(plain: string, home: BlobHome): string {
    if (this.refusal) throw new GatewayError(E.DATA_KEY_RETIRED, undefined, { retry_after: String(this.refusal.retryAfterS) });
    const iv = randomBytesPooled(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(associatedData(home));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', this.currentKeyId, iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /**
   * The plaintext of a blob stored at `home`. A key id this node does not hold is VAULT01 (503:
   * the node is configured with the wrong data key, or a retired key was dropped too early); a
   * blob that fails authentication (altered, or moved from another row) or is not a blob at all
   * is VAULT02 (unusable payment data).
   */
  decrypt(blob: string, home: BlobHome): string {
    const parts = blob.split('.');
    const [v, kid, iv, tag, ct] = parts;
    const key = this.keys.get(kid);
    if (parts.length !== 5 || (v !== 'v1' && v !== 'v2')) throw this.unreadable('integrity', kid ?? '', home);
    if (!key) throw this.unreadable('unknown_key', kid, home);
    try {
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      if (v === 'v2') d.setAAD(associatedData(home));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    } catch {
      throw this.unreadable('integrity', kid, home);
    }
  }

  /**
   * A keyed fingerprint (HMAC-SHA256) of `data` under a key derived by HKDF from data key `kid`
   * (the current one by default) for one `purpose`: `<kid>.<hex>`. Unlike a plain hash of a card
   * number, nobody can test guesses against it without the data key. Unknown `kid`: null.
   */
  mac(purpose: string, data: string, kid = this.currentKeyId): string | null {
    const key = this.keys.get(kid);
    if (!key) return null;
    const derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `tessera ${purpose}`, 32));
    return `${kid}.${createHmac('sha256', derived).update(data).digest('hex')}`;
  }

  /** True when the blob is already v2 under the current key (nothing for the re-encryption to do). */
  isCurrent(blob: string): boolean {
    return blob.startsWith(`v2.${this.currentKeyId}.`);
  }

  private unreadable(reason: UnreadableBlob['reason'], kid: string, home: BlobHome): GatewayError {
    this.onUnreadable?.({ reason, keyId: /^[0-9a-f]{8}$/.test(kid) ? kid : '?', table: home.table, column: home.column });
    return new GatewayError(reason === 'unknown_key' ? 'VAULT01' : 'VAULT02');
  }
}

/** Unambiguous (JSON of the parts) and versioned, so a later binding cannot collide with this one. */
function associatedData(home: BlobHome): Buffer {
  return Buffer.from(JSON.stringify(['tessera-v2', home.table, home.column, home.merchantId, home.env, home.id]), 'utf8');
}

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function parseKey(b64: string, name: string): Buffer {
  const k = Buffer.from(b64.trim(), 'base64');
  if (k.length !== 32) throw new Error(`${name} must be base64 of exactly 32 bytes (openssl rand -base64 32)`);
  return k;
}

/**
 * TESSERA_DATA_KEY wins. Without it, the embedded default keeps a generated key beside its data
 * (mode 0600) and says so: fine for a laptop, not for production.
 */
export function loadVault(opts: {
  dataKey?: string;
  retiredKeys?: string;
  dataDir?: string;
  warn?: (msg: string) => void;
}): Vault {
  const retired = (opts.retiredKeys ?? '')
    .split(',')
    .filter(Boolean)
    .map((k) => parseKey(k, 'TESSERA_DATA_KEYS_RETIRED'));
  if (opts.dataKey) return new Vault(parseKey(opts.dataKey, 'TESSERA_DATA_KEY'), retired);
  if (!opts.dataDir) return new Vault(randomBytes(32), retired); // in memory: lives as long as the data
  mkdirSync(opts.dataDir, { recursive: true });
  const file = join(opts.dataDir, 'data.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
    opts.warn?.(`generated a data encryption key in ${file}; set TESSERA_DATA_KEY in production`);
  }
  return new Vault(parseKey(readFileSync(file, 'utf8'), file), retired);
}
