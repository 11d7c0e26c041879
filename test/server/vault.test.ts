import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Vault, loadVault } from '../../server/vault.js';
import { TestGateway, bank, startGateway, tokenFor, visa } from '../helpers/gateway.js';

const key = () => randomBytes(32);

/** Flips one character of the n-th dot-separated part of a blob (v1.kid.iv.tag.ct). */
function tamper(blob: string, part: number): string {
  const parts = blob.split('.');
  const p = parts[part];
  parts[part] = (p[0] === 'A' ? 'B' : 'A') + p.slice(1);
  return parts.join('.');
}

describe('Vault', () => {
  test('round trip; each encryption is fresh and opaque', () => {
    const v = new Vault(key());
    for (const plain of ['4111111111111111', '123', '', 'naïve ✓ 🙂']) {
      const blob = v.encrypt(plain);
      expect(v.decrypt(blob)).toBe(plain);
      if (plain) expect(blob).not.toContain(plain);
    }
    const a = v.encrypt('4111111111111111');
    expect(a).not.toBe(v.encrypt('4111111111111111')); // random IV
    expect(a.split('.')).toHaveLength(5);
    expect(a.startsWith(`v1.${v.currentKeyId}.`)).toBe(true);
  });

  test.each([
    ['iv', 2],
    ['auth tag', 3],
    ['ciphertext', 4],
  ])('tampering with the %s fails to decrypt', (_, part) => {
    const v = new Vault(key());
    const blob = v.encrypt('4111111111111111');
    expect(() => v.decrypt(tamper(blob, part as number))).toThrow();
  });

  test('a blob with an unknown key id, version or another key fails', () => {
    const v = new Vault(key());
    const blob = v.encrypt('secret');
    expect(() => v.decrypt(blob.replace(/^v1\./, 'v2.'))).toThrow();
    expect(() => v.decrypt(tamper(blob, 1))).toThrow(/unknown key id/);
    expect(() => new Vault(key()).decrypt(blob)).toThrow(/unknown key id/);
    expect(() => v.decrypt('garbage')).toThrow();
  });

  test('after rotation a retired key still decrypts old blobs; new blobs use the new key', () => {
    const k1 = key();
    const k2 = key();
    const old = new Vault(k1);
    const blob = old.encrypt('000123456789');
    const rotated = new Vault(k2, [k1]);
    expect(rotated.currentKeyId).not.toBe(old.currentKeyId);
    expect(rotated.decrypt(blob)).toBe('000123456789');
    const fresh = rotated.encrypt('000123456789');
    expect(fresh.split('.')[1]).toBe(rotated.currentKeyId);
    expect(() => old.decrypt(fresh)).toThrow(); // the old key never sees new data
    expect(() => new Vault(k2).decrypt(blob)).toThrow(); // dropping the retired key loses old blobs
  });

  test.each([0, 16, 31, 33, 64])('a %i-byte key is refused', (n) => {
    expect(() => new Vault(randomBytes(n))).toThrow(/32 bytes/);
    expect(() => new Vault(key(), [randomBytes(n)])).toThrow(/32 bytes/);
  });
});

describe('loadVault', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'tessera-vault-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    expect(second.decrypt(first.encrypt('4242424242424242'))).toBe('4242424242424242');
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
    const b1 = new Vault(k1).encrypt('a');
    const b2 = new Vault(k2).encrypt('b');
    const v = loadVault({ dataKey: k3.toString('base64'), retiredKeys: `${k1.toString('base64')},${k2.toString('base64')}` });
    expect([v.decrypt(b1), v.decrypt(b2)]).toEqual(['a', 'b']);
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
  let gw: TestGateway;
  beforeAll(async () => { gw = await startGateway(); });
  afterAll(() => gw.close());

  test('token rows hold neither card number, nor csc, nor bank account number', async () => {
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
    // A 3-4 digit code could occur by chance inside random ids or ciphertext: look at the clear columns.
    for (const row of rows) {
      for (const [col, value] of Object.entries(row)) {
        if (['id', 'secret_enc', 'csc_enc'].includes(col) || value === null) continue;
        expect(String(value === Object(value) ? JSON.stringify(value) : value)).not.toMatch(/(^|\D)(123|7391)(\D|$)/);
      }
      expect(row.secret_enc).toMatch(/^v1\./);
    }
    // ...and what is stored is really the data, encrypted.
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(gw.vault.decrypt(byId.get(ids[0])!.secret_enc)).toBe(visa.card_number);
    expect(gw.vault.decrypt(byId.get(ids[1])!.csc_enc)).toBe('7391');
    expect(gw.vault.decrypt(byId.get(ids[2])!.secret_enc)).toBe(account);
    expect(byId.get(ids[2])!.csc_enc).toBeNull();
  });
});
