import { createCipheriv, randomBytes } from 'node:crypto';
import { Vault, keyId } from '../../../server/vault.js';
import { methodHome, tokenHome, webhookSecretHome } from '../../../server/vault-homes.js';
import { Merchant, TestGateway, bank, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

// A vault blob is sealed to its row (table, column, merchant, environment, id): copied elsewhere
// with SQL it no longer decrypts, and the API answers VAULT02 (422, unusable payment data), never
// a 500; nothing is charged or consumed. A blob under a key the node lacks is VAULT01 (503).


const call = async (gw: TestGateway, method: 'GET' | 'POST', url: string, payload: Record<string, unknown> | undefined, key: string) => {
  const res = await gw.app.inject({ method, url: `/api/v1${url}`, headers: basic(key), payload });
  return { status: res.statusCode, body: res.json() };
};

async function customerWith(gw: TestGateway, m: Merchant, data: Record<string, unknown> = visa) {
  const token = await tokenFor(gw, data, m.test.public_key);
  const res = await call(gw, 'POST', '/customers', { token }, m.test.private_key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; default_method_id: string };
}

const methodBlob = async (gw: TestGateway, id: string) =>
  (await gw.db.query<{ secret_enc: string }>('SELECT secret_enc FROM payment_methods WHERE id = $1', [id]))[0].secret_enc;
const setMethodBlob = (gw: TestGateway, id: string, blob: string) => gw.db.query('UPDATE payment_methods SET secret_enc = $2 WHERE id = $1', [id, blob]);
const transactionsOf = async (gw: TestGateway, m: Merchant) =>
  (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1', [m.id]))[0].n;

function v1Blob(vault: Vault, key: Buffer, plain: string): string {
  expect(keyId(key)).toBe(vault.currentKeyId);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', keyId(key), iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

const expectVault02 = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({ errors: [{ code: 'VAULT02', message: expect.stringContaining('integrity') }] });
};

describe('a blob copied to another row does not decrypt', () => {
  test("another merchant's method blob, copied into this merchant's method: charge is VAULT02, nothing charged", async ({ gateway: gw }) => {
    const victim = await customerWith(gw, gw.other, { ...visa, card_number: '5555555555554444' });
    const attacker = await customerWith(gw, gw.merchant);
    await setMethodBlob(gw, attacker.default_method_id, await methodBlob(gw, victim.default_method_id));
    const before = await transactionsOf(gw, gw.merchant);
    expectVault02(await call(gw, 'POST', '/charge', { customer_id: attacker.id, amount: 500 }, gw.merchant.test.private_key));
    expect(await transactionsOf(gw, gw.merchant)).toBe(before);
    // The victim's own method still works where it lives.
    expect((await call(gw, 'POST', '/charge', { customer_id: victim.id, amount: 500 }, gw.other.test.private_key)).status).toBe(200);
  });

  test("a method blob copied to another of the same merchant's methods (same customer, other type) is VAULT02", async ({ gateway: gw }) => {
    const c = await customerWith(gw, gw.merchant);
    const bankToken = await tokenFor(gw, bank);
    const added = await call(gw, 'POST', `/customers/${c.id}/methods`, { token: bankToken }, gw.merchant.test.private_key);
    expect(added.status).toBe(200);
    await setMethodBlob(gw, added.body.method.id, await methodBlob(gw, c.default_method_id));
    expectVault02(await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 500, charge_bank_account: true }, gw.merchant.test.private_key));
  });

  test('a token blob copied into another token: the charge is VAULT02 and the token stays unused', async ({ gateway: gw }) => {
    const a = await tokenFor(gw, { ...visa, card_number: '4242424242424242' });
    const b = await tokenFor(gw);
    await gw.db.query('UPDATE tokens SET secret_enc = (SELECT secret_enc FROM tokens WHERE id = $1) WHERE id = $2', [a, b]);
    expectVault02(await call(gw, 'POST', '/charge', { token: b, amount: 500 }, gw.merchant.test.private_key));
    const [row] = await gw.db.query('SELECT used_at, csc_enc FROM tokens WHERE id = $1', [b]);
    expect(row.used_at).toBeNull(); // rolled back with the failed charge
    expect(row.csc_enc).not.toBeNull();
    // ...and saving it as a method is refused the same way.
    expectVault02(await call(gw, 'POST', '/customers', { token: b }, gw.merchant.test.private_key));
  });

  test("a token's CVV blob copied into another token is VAULT02 too (the column is part of the binding)", async ({ gateway: gw }) => {
    const a = await tokenFor(gw);
    const b = await tokenFor(gw);
    await gw.db.query('UPDATE tokens SET csc_enc = (SELECT csc_enc FROM tokens WHERE id = $1) WHERE id = $2', [a, b]);
    expectVault02(await call(gw, 'POST', '/charge', { token: b, amount: 500 }, gw.merchant.test.private_key));
    expect((await call(gw, 'POST', '/charge', { token: a, amount: 500 }, gw.merchant.test.private_key)).status).toBe(200);
  });

  test("another merchant's webhook signing secret copied over this one's is VAULT02, not the other's secret", async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const theirs = await call(gw, 'GET', '/webhooks/secret', undefined, gw.other.test.private_key);
    expect(theirs.status).toBe(200);
    expect((await call(gw, 'GET', '/webhooks/secret', undefined, m.test.private_key)).status).toBe(200);
    await gw.db.query(
      `UPDATE webhook_secrets SET secret_enc = (SELECT secret_enc FROM webhook_secrets WHERE merchant_id = $1 AND env = 'test')
        WHERE merchant_id = $2 AND env = 'test'`, [gw.other.id, m.id]);
    const res = await call(gw, 'GET', '/webhooks/secret', undefined, m.test.private_key);
    expectVault02(res);
    expect(JSON.stringify(res.body)).not.toContain(theirs.body.secret);
  });
});

describe('what still reads', () => {
  test('a method keeps its own blob, sealed to the method row, not the token blob', async ({ gateway: gw }) => {
    const c = await customerWith(gw, gw.merchant);
    const [m] = await gw.db.query('SELECT token_id, secret_enc FROM payment_methods WHERE id = $1', [c.default_method_id]);
    expect(m.secret_enc).toMatch(new RegExp(`^v2\\.${gw.vault.currentKeyId}\\.`));
    expect(gw.vault.decrypt(m.secret_enc, methodHome({ merchantId: gw.merchant.id, env: 'test' }, c.default_method_id))).toBe(visa.card_number);
    // The same blob read as the token's (where the number came from) fails: it was encrypted anew.
    expect(() => gw.vault.decrypt(m.secret_enc, tokenHome({ id: m.token_id, merchant_id: gw.merchant.id, env: 'test' }, 'secret_enc'))).toThrow();
  });

  test('a v1 blob (written before blobs were bound) still charges', async ({ gateway: gw }) => {
    // The gateway's vault key is private to it: read it the way the vault keeps it.
    const own = (gw.vault as unknown as { keys: Map<string, Buffer> }).keys.get(gw.vault.currentKeyId)!;
    const c = await customerWith(gw, gw.merchant);
    await setMethodBlob(gw, c.default_method_id, v1Blob(gw.vault, own, '5555555555554444'));
    const res = await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 700 }, gw.merchant.test.private_key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.card_number).toBe('XXXXXXXXXXXX4444');
  });

  test("a blob under a key this node does not hold is VAULT01 (503), naming the data key; nothing charged", async ({ gateway: gw }) => {
    const c = await customerWith(gw, gw.merchant);
    const foreign = new Vault(randomBytes(32)).encrypt(visa.card_number, methodHome({ merchantId: gw.merchant.id, env: 'test' }, c.default_method_id));
    await setMethodBlob(gw, c.default_method_id, foreign);
    const before = await transactionsOf(gw, gw.merchant);
    const res = await call(gw, 'POST', '/charge', { customer_id: c.id, amount: 500 }, gw.merchant.test.private_key);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ errors: [{ code: 'VAULT01', message: expect.stringContaining('TESSERA_DATA_KEY') }] });
    expect(await transactionsOf(gw, gw.merchant)).toBe(before);
  });

  test('webhook secrets are sealed to their merchant environment and column', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const secret = (await call(gw, 'GET', '/webhooks/secret', undefined, m.test.private_key)).body.secret;
    const [row] = await gw.db.query("SELECT secret_enc FROM webhook_secrets WHERE merchant_id = $1 AND env = 'test'", [m.id]);
    expect(gw.vault.decrypt(row.secret_enc, webhookSecretHome({ merchantId: m.id, env: 'test' }, 'secret_enc'))).toBe(secret);
    expect(() => gw.vault.decrypt(row.secret_enc, webhookSecretHome({ merchantId: m.id, env: 'live' }, 'secret_enc'))).toThrow();
    expect(() => gw.vault.decrypt(row.secret_enc, webhookSecretHome({ merchantId: m.id, env: 'test' }, 'previous_secret_enc'))).toThrow();
  });
});
