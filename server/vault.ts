import { createHmac, hkdfSync } from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * AES-256-GCM for card numbers, CVVs and bank account numbers.
 * Blob: v1.<keyId>.<iv>.<tag>.<ciphertext> (base64url). The key id names the key, so
 * after a rotation old blobs still decrypt with a retired key.
 */
export class Vault {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;

  constructor(current: Buffer, retired: Buffer[] = []) {
    for (const k of [current, ...retired]) {
      if (k.length !== 32) throw new Error('data keys must be 32 bytes (base64 of 32 random bytes)');
      this.keys.set(keyId(k), k);
    }
    this.currentKeyId = keyId(current);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', this.currentKeyId, iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(blob: string): string {
    const [v, kid, iv, tag, ct] = blob.split('.');
    const key = this.keys.get(kid);
    if (v !== 'v1' || !key) throw new Error(`vault: unknown key id ${kid}`);
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
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
}

function keyId(key: Buffer): string {
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
