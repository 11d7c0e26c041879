import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Db } from '../../../server/db/index.js';
import { createCustomer, findChargeableMethod } from '../../../server/domain/instruments/customers.js';
import { readCustomerInput } from '../../../server/domain/instruments/customer-input.js';
import { CustomerCreateFields } from '../../../server/schemas/customers.js';
import { Scope, createMerchant } from '../../../server/domain/merchant/keys.js';
import { consumeToken, createToken } from '../../../server/domain/instruments/tokens.js';
import { readSecret, rotateSecret } from '../../../server/domain/merchant/signing.js';
import { Vault, keyId } from '../../../server/vault.js';
import { DataKeyError, checkDataKey } from '../../../server/vault-canary.js';
import { ENCRYPTED_COLUMNS, methodHome } from '../../../server/vault-homes.js';
import { formatReport, reencryptAll } from '../../../server/vault-reencrypt.js';
import { bank, testDb, visa } from '../../helpers/gateway.js';

// `tessera data-key reencrypt` (server/vault-reencrypt.ts) on a database written under an old
// key, partly in the v1 format: afterwards every blob is v2 under the new key, a vault without the
// retired key reads everything, a second run has nothing to do, and a row changed meanwhile is
// left as its writer made it.

const [K1, K2] = [randomBytes(32), randomBytes(32)];
const now = new Date('2026-03-01T12:00:00Z');
let db: Db & { drop(): Promise<void> };
let scope: Scope;
const tokens: string[] = [];
let customerId: string;
let secrets: { secret: string; previous: string };

/** The blob the vault wrote before blobs were bound to their row. */
function v1Blob(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', keyId(key), iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

const blobs = async () => {
  const all: string[] = [];
  for (const c of ENCRYPTED_COLUMNS) {
    const rows = await db.query(`SELECT ${c.column} AS b FROM ${c.table} WHERE ${c.column} IS NOT NULL AND ${c.column} <> ''`);
    all.push(...rows.map((r) => r.b as string));
  }
  return all;
};

beforeAll(async () => {
  db = await testDb();
  const old = new Vault(K1);
  expect(await checkDataKey(db, old, now)).toBe('created');
  scope = { merchantId: await createMerchant(db, 'Rotating merchant', now), env: 'test' };
  for (let i = 0; i < 5; i++) tokens.push((await createToken(db, old, scope, visa, now)).id);
  tokens.push((await createToken(db, old, scope, bank, now)).id);
  // Two tokens from before row binding: v1 blobs.
  for (const id of tokens.slice(0, 2)) {
    await db.query('UPDATE tokens SET secret_enc = $2, csc_enc = $3 WHERE id = $1', [id, v1Blob(K1, visa.card_number), v1Blob(K1, visa.csc)]);
  }
  const tokenId = (await createToken(db, old, scope, visa, now)).id;
  const customer = await db.tx((q) => createCustomer(q, old, scope, readCustomerInput(CustomerCreateFields.read({ token: tokenId }), 'create'), now));
  customerId = customer.id;
  const first = await readSecret(db, old, scope, now);
  const rotated = await db.tx((q) => rotateSecret(q, old, scope, now, '1h'));
  secrets = { secret: rotated.secret, previous: first.secret };
});
afterAll(() => db?.drop());

test('reencrypt: everything v2 under the new key; the retired key can then be dropped; a second run does nothing', async () => {
  const rotatedVault = new Vault(K2, [K1]);
  expect(await checkDataKey(db, rotatedVault, now)).toBe('rotated');
  const before = await blobs();
  expect(before.filter((b) => b.startsWith('v1.'))).toHaveLength(4);
  expect(before.every((b) => b.split('.')[1] === keyId(K1))).toBe(true);

  const report = await reencryptAll(db, rotatedVault, { batchSize: 2 }); // several pages per column
  const by = Object.fromEntries(report.columns.map((c) => [`${c.table}.${c.column}`, c]));
  expect(by['tokens.secret_enc']).toEqual({ table: 'tokens', column: 'secret_enc', reencrypted: 6, current: 6, changed: 0, unreadable: 0 });
  expect(by['tokens.csc_enc']).toMatchObject({ reencrypted: 5, current: 5 }); // the bank token has no CVV; the used one was wiped
  expect(by['payment_methods.secret_enc']).toMatchObject({ reencrypted: 1, current: 1 });
  expect(by['webhook_secrets.secret_enc']).toMatchObject({ reencrypted: 1, current: 1 });
  expect(by['webhook_secrets.previous_secret_enc']).toMatchObject({ reencrypted: 1, current: 1 });
  expect(report).toMatchObject({ remaining: 0, retiredCanaries: 1 });
  expect(formatReport(report, rotatedVault).at(-1)).toContain('retired keys can be dropped');
  const after = await blobs();
  expect(after).toHaveLength(before.length);
  expect(after.every((b) => b.startsWith(`v2.${keyId(K2)}.`))).toBe(true);

  // A vault without the retired key reads everything, through the code that reads it in service.
  const fresh = new Vault(K2);
  expect(await checkDataKey(db, fresh, now)).toBe('verified');
  const consumed = await db.tx((q) => consumeToken(q, fresh, scope, tokens[0], now));
  expect(consumed).toMatchObject({ number: visa.card_number, csc: visa.csc });
  expect((await db.tx((q) => consumeToken(q, fresh, scope, tokens[5], now)))!.number).toBe(bank.bank_account_number);
  const method = await findChargeableMethod(db, scope, customerId, null, null);
  expect(fresh.decrypt(method.secret_enc, methodHome(scope, method.method_id))).toBe(visa.card_number);
  expect(await readSecret(db, fresh, scope, now)).toMatchObject({ secret: secrets.secret });
  const overlapping = await db.tx((q) => rotateSecret(q, fresh, scope, now, 'now')); // reads the previous secret too
  expect(overlapping.secret).not.toBe(secrets.secret);
  // The canary of the dropped key is gone: a node started with only the old key refuses.
  await expect(checkDataKey(db, new Vault(K1), now)).rejects.toThrow(DataKeyError);

  const again = await reencryptAll(db, fresh);
  expect(again.columns.map((c) => c.reencrypted + c.changed + c.unreadable)).toEqual(ENCRYPTED_COLUMNS.map(() => 0));
  expect(again.remaining).toBe(0);
});

test('a row changed between the read and the rewrite is left as its writer made it; an unreadable one is counted and kept', async () => {
  const K3 = randomBytes(32);
  const next = new Vault(K3, [K2]);
  const id = (await createToken(db, new Vault(K2), scope, visa, now)).id;
  await db.query("UPDATE tokens SET csc_enc = 'not-a-blob' WHERE id = $1", [id]);
  // A writer replaces the number of `id` just before the re-encryption rewrites it.
  let raced = false;
  const racing: Db = {
    ...db,
    async query(sql: string, params?: unknown[]) {
      if (!raced && sql.startsWith('UPDATE tokens SET secret_enc') && params?.[2] === id) {
        raced = true;
        await db.query("UPDATE tokens SET secret_enc = '' , used_at = $2 WHERE id = $1", [id, now]);
      }
      return db.query(sql, params);
    },
  } as Db;
  const report = await reencryptAll(racing, next);
  const by = Object.fromEntries(report.columns.map((c) => [`${c.table}.${c.column}`, c]));
  expect(raced).toBe(true);
  expect(by['tokens.secret_enc'].changed).toBe(1);
  expect(by['tokens.csc_enc'].unreadable).toBe(1);
  const [row] = await db.query('SELECT secret_enc, csc_enc FROM tokens WHERE id = $1', [id]);
  expect(row).toEqual({ secret_enc: '', csc_enc: 'not-a-blob' }); // the writer's wipe stands; junk is left alone
  expect(report.remaining).toBe(1);
  expect(report.retiredCanaries).toBe(0); // K2 may still be needed: its canary stays
  expect(formatReport(report, next).at(-1)).toContain('keep TESSERA_DATA_KEYS_RETIRED');
});
