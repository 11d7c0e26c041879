import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { GatewayError } from '../../../server/errors.js';
import { BlobHome, Vault, keyId, loadVault } from '../../../server/vault.js';
import { tokenHome } from '../../../server/vault-homes.js';
import { bank, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

const key = () => randomBytes(32);
const home: BlobHome = { table: 'tokens', column: 'secret_enc', merchantId: 'mer_a', env: 'test', id: 'abcdef0123' };

/** Flips one character of the n-th dot-separated part of a blob (v2.kid.iv.tag.ct). */
function tamper(blob: string, part: number): string {
  const parts = blob.split('.');
  const p = parts[part];
  parts[part] = (p[0] === 'A' ? 'B' : 'A') + p.slice(1);
  return parts.join('.');
}

/** What the vault wrote before blobs were bound to their row: v1, no associated data. */
function v1Blob(k: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', k, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', keyId(k), iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'decrypted';
  } catch (err) {
    return err instanceof GatewayError ? err.code : String(err);
  }
};

describe('Vault', () => {
  test('round trip; each encryption is fresh and opaque', () => {
    const v = new Vault(key());
    for (const plain of ['4111111111111111', '123', '', 'naïve ✓ 🙂']) {
      const blob = v.encrypt(plain, home);
      expect(v.decrypt(blob, home)).toBe(plain);
      if (plain) expect(blob).not.toContain(plain);
    }
    const a = v.encrypt('4111111111111111', home);
    expect(a).not.toBe(v.encrypt('4111111111111111', home)); // random IV
    expect(a.split('.')).toHaveLength(5);
    expect(a.startsWith(`v2.${v.currentKeyId}.`)).toBe(true);
    expect(v.isCurrent(a)).toBe(true);
  });

  test.each([
    ['table', { table: 'payment_methods' }],
    ['column', { column: 'csc_enc' }],
    ['merchant', { merchantId: 'mer_b' }],
    ['environment', { env: 'live' }],
    ['row id', { id: 'abcdef0124' }],
    ['row id moved into the merchant', { merchantId: 'mer_aabcdef0123', id: '' }],
  ])('a blob read as if it lived in another %s fails with VAULT02', (_, other) => {
    const v = new Vault(key());
    const blob = v.encrypt('4111111111111111', home);
    expect(codeOf(() => v.decrypt(blob, { ...home, ...other }))).toBe('VAULT02');
    expect(v.decrypt(blob, { ...home })).toBe('4111111111111111');
  });

  test('v1 blobs (no binding) still decrypt, wherever they are read; they are not current', () => {
    const k = key();
    const v = new Vault(k);
    const old = v1Blob(k, '4242424242424242');
    expect(v.decrypt(old, home)).toBe('4242424242424242');
    expect(v.decrypt(old, { ...home, id: 'elsewhere' })).toBe('4242424242424242');
    expect(v.isCurrent(old)).toBe(false);
    expect(codeOf(() => v.decrypt(tamper(old, 4), home))).toBe('VAULT02');
  });

  test.each([
    ['iv', 2],
    ['auth tag', 3],
    ['ciphertext', 4],
  ])('tampering with the %s is VAULT02', (_, part) => {
    const v = new Vault(key());
    const blob = v.encrypt('4111111111111111', home);
    expect(codeOf(() => v.decrypt(tamper(blob, part as number), home))).toBe('VAULT02');
  });

  test('a blob under a key this vault does not hold is VAULT01; a malformed one VAULT02; the hook hears why', () => {
    const v = new Vault(key());
    const heard: unknown[] = [];
    v.onUnreadable = (info) => heard.push(info);
    const blob = v.encrypt('secret', home);
    expect(codeOf(() => v.decrypt(blob.replace(/^v2\./, 'v3.'), home))).toBe('VAULT02');
    expect(codeOf(() => v.decrypt(blob.replace(/^v2\./, 'v1.'), home))).toBe('VAULT02'); // a v2 blob read without its binding
    expect(codeOf(() => v.decrypt(tamper(blob, 1), home))).toBe('VAULT01');
    expect(codeOf(() => new Vault(key()).decrypt(blob, home))).toBe('VAULT01');
    for (const junk of ['garbage', '', 'sealed', 'v2.a.b.c', 'v2.a.b.c.d.e']) expect(codeOf(() => v.decrypt(junk, home))).toBe('VAULT02');
    expect(heard[2]).toEqual({ reason: 'unknown_key', keyId: '?', table: 'tokens', column: 'secret_enc' }); // not a key id: not echoed
    const other = new Vault(key());
    other.onUnreadable = (info) => heard.push(info);
    expect(codeOf(() => other.decrypt(blob, { ...home, column: 'csc_enc' }))).toBe('VAULT01');
    expect(heard.at(-1)).toEqual({ reason: 'unknown_key', keyId: v.currentKeyId, table: 'tokens', column: 'csc_enc' });
    expect(heard).toHaveLength(4 + 5);
  });

  test('after rotation a retired key still decrypts old blobs; new blobs use the new key', () => {
    const k1 = key();
    const k2 = key();
    const old = new Vault(k1);
    const blob = old.encrypt('000123456789', home);
    const rotated = new Vault(k2, [k1]);
    expect(rotated.currentKeyId).not.toBe(old.currentKeyId);
    expect(rotated.keyIds).toEqual([rotated.currentKeyId, old.currentKeyId]);
    expect(rotated.decrypt(blob, home)).toBe('000123456789');
    expect(rotated.isCurrent(blob)).toBe(false);
    const fresh = rotated.encrypt('000123456789', home);
    expect(fresh.split('.')[1]).toBe(rotated.currentKeyId);
    expect(codeOf(() => old.decrypt(fresh, home))).toBe('VAULT01'); // the old key never sees new data
    expect(codeOf(() => new Vault(k2).decrypt(blob, home))).toBe('VAULT01'); // dropping the retired key loses old blobs
  });

  test.each([0, 16, 31, 33, 64])('a %i-byte key is refused', (n) => {
    expect(() => new Vault(randomBytes(n))).toThrow(/32 bytes/);
    expect(() => new Vault(key(), [randomBytes(n)])).toThrow(/32 bytes/);
  });
});

describe('loadVault', () => {
  let dir: string;
  test.beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'tessera-vault-')); });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('generates data.key with mode 0600 and warns, once; the key persists', () => {
    const warn = vi.fn();
    const data = join(dir, 'data');
    const first = loadVault({ dataDir: data, warn });
    const file = join(data, 'data.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain(file);
    expect(warn.mock.calls[0][0]).toContain('TESSERA_DATA_KEY');

    const second = loadVault({ dataDir: data, warn });
    expect(warn).toHaveBeenCalledTimes(1); // an existing key is used silently
    expect(second.currentKeyId).toBe(first.currentKeyId);
    expect(second.decrypt(first.encrypt('4242424242424242', home), home)).toBe('4242424242424242');
  });

  test('TESSERA_DATA_KEY wins over the data directory and writes no file', () => {
    const k = key();
    const warn = vi.fn();
    const data = join(dir, 'explicit');
    const v = loadVault({ dataKey: k.toString('base64'), dataDir: data, warn });
    expect(v.currentKeyId).toBe(new Vault(k).currentKeyId);
    expect(warn).not.toHaveBeenCalled();
    expect(() => statSync(join(data, 'data.key'))).toThrow();
  });

  test('retired keys come as a comma-separated list', () => {
    const [k1, k2, k3] = [key(), key(), key()];
    const b1 = new Vault(k1).encrypt('a', home);
    const b2 = new Vault(k2).encrypt('b', home);
    const v = loadVault({ dataKey: k3.toString('base64'), retiredKeys: `${k1.toString('base64')},${k2.toString('base64')}` });
    expect([v.decrypt(b1, home), v.decrypt(b2, home)]).toEqual(['a', 'b']);
  });

  test.each([
    ['short data key', { dataKey: randomBytes(16).toString('base64') }, /TESSERA_DATA_KEY/],
    ['long data key', { dataKey: randomBytes(48).toString('base64') }, /TESSERA_DATA_KEY/],
    ['short retired key', { dataKey: key().toString('base64'), retiredKeys: randomBytes(8).toString('base64') }, /RETIRED/],
  ])('%s is refused', (_, opts, message) => {
    expect(() => loadVault(opts)).toThrow(message);
  });
});

describe('payment data at rest', () => {
  test('token rows hold neither card number, nor csc, nor bank account number', async ({ gateway: gw }) => {
    const amex = { ...visa, card_number: '378282246310005', csc: '7391' };
    const account = '9876543210123';
    const ids = [
      await tokenFor(gw, visa),
      await tokenFor(gw, amex),
      await tokenFor(gw, { ...bank, bank_account_number: account }),
      await tokenFor(gw, { ...visa, card_number: '4012888888881881' }, gw.merchant.live.public_key),
    ];
    const rows = await gw.db.query('SELECT * FROM tokens');
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    const dump = JSON.stringify(rows);
    for (const secret of [visa.card_number, amex.card_number, account, '4012888888881881']) {
      expect(dump).not.toContain(secret);
    }
    // A 3-4 digit code could occur by chance inside random ids (the merchant's too: mer_123d...),
    // ciphertext or a timestamp's milliseconds: look at the other clear columns.
    for (const row of rows) {
      for (const [col, value] of Object.entries(row)) {
        if (['id', 'merchant_id', 'secret_enc', 'csc_enc'].includes(col) || value === null || value instanceof Date) continue;
        expect(String(value === Object(value) ? JSON.stringify(value) : value)).not.toMatch(/(^|\D)(123|7391)(\D|$)/);
      }
      expect(row.secret_enc).toMatch(new RegExp(`^v2\\.${gw.vault.currentKeyId}\\.`));
    }
    // ...and what is stored is really the data, encrypted and sealed to its row.
    const byId = new Map(rows.map((r) => [r.id, r]));
    const at = (id: string) => byId.get(id) as { id: string; merchant_id: string; env: string; secret_enc: string; csc_enc: string };
    expect(gw.vault.decrypt(at(ids[0]).secret_enc, tokenHome(at(ids[0]), 'secret_enc'))).toBe(visa.card_number);
    expect(gw.vault.decrypt(at(ids[1]).csc_enc, tokenHome(at(ids[1]), 'csc_enc'))).toBe('7391');
    expect(gw.vault.decrypt(at(ids[2]).secret_enc, tokenHome(at(ids[2]), 'secret_enc'))).toBe(account);
    expect(gw.vault.decrypt(at(ids[3]).secret_enc, tokenHome(at(ids[3]), 'secret_enc'))).toBe('4012888888881881');
    expect(byId.get(ids[2])!.csc_enc).toBeNull();
  });
});
