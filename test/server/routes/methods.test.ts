import { findChargeableMethod } from '../../../server/domain/instruments/customers.js';
import { Scope } from '../../../server/domain/merchant/keys.js';
import { methodHome } from '../../../server/vault-homes.js';
import { TestGateway, bank, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';


const sk = (gw: TestGateway) => gw.merchant.test.private_key;
function call(gw: TestGateway, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, key = sk(gw)) {
  return gw.app.inject({ method, url: `/api/v1${url}`, headers: basic(key), payload: payload as any });
}
const code = (res: { json(): any }) => res.json().errors?.[0]?.code;
const newCustomer = async (gw: TestGateway, body: Record<string, unknown> = {}) => (await call(gw, 'POST', '/customers', body)).json();
const card = (gw: TestGateway, number = '4111111111111111', extra: Record<string, unknown> = {}) => tokenFor(gw, { ...visa, card_number: number, ...extra });

async function settings(gw: TestGateway, cvv: boolean, zip: boolean) {
  await gw.db.query('UPDATE merchant_settings SET cvv_check = $2, zip_check = $3 WHERE merchant_id = $1 AND env = $4', [
    gw.merchant.id, cvv, zip, 'test',
  ]);
}

describe('POST /customers/:customer_id/methods', () => {
  test('a zip beside a token is bounded as a token\'s (255): longer is 400 REQ01 naming it, on create and update; the token stays usable', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const token = await card(gw);
    const long = await call(gw, 'POST', `/customers/${c.id}/methods`, { token, zip: '7'.repeat(100_000) });
    expect([long.statusCode, code(long), long.json().errors[0].message]).toEqual([400, 'REQ01', expect.stringMatching(/zip must be at most 255/)]);
    const made = await call(gw, 'POST', `/customers/${c.id}/methods`, { token, zip: '7'.repeat(255) });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().method.id;
    expect(made.json().method.address.zip).toBe('7'.repeat(255));
    const upd = await call(gw, 'POST', `/customers/${c.id}/methods/${id}`, { token: await card(gw), zip: '7'.repeat(256) });
    expect([upd.statusCode, code(upd)]).toEqual([400, 'REQ01']);
  });

  test('creates a method from a token; it becomes the default when the default is a placeholder', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const res = await call(gw, 'POST', `/customers/${c.id}/methods`, { method_type: 'credit_card', token: await card(gw) });
    expect(res.statusCode).toBe(200);
    const { success, method } = res.json();
    expect(success).toBe(true);
    expect(method).toMatchObject({
      class: 'method', method_type: 'credit_card', customer_id: c.id, last_4: '1111', card_type: 'visa',
      card_exp_month: 12, card_exp_year: 2030, bank_account_number_last_4: null,
    });
    expect(method.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await call(gw, 'GET', `/customers/${c.id}`)).json().default_method_id).toBe(method.id);

    // The default now holds details: a second method does not take over.
    const second = (await call(gw, 'POST', `/customers/${c.id}/methods`, { token: await tokenFor(gw, bank) })).json().method;
    expect(second).toMatchObject({ method_type: 'bank_account', bank_account_number_last_4: '6789', last_4: null });
    expect((await call(gw, 'GET', `/customers/${c.id}`)).json().default_method_id).toBe(method.id);
  });

  test('82001 when method_type is unknown or does not match the token; the token stays usable', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const token = await card(gw);
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods`, { method_type: 'paypal', token }))).toBe('82001');
    const mismatch = await call(gw, 'POST', `/customers/${c.id}/methods`, { method_type: 'bank_account', token });
    expect([mismatch.statusCode, code(mismatch)]).toEqual([400, '82001']);
    expect((await call(gw, 'POST', `/customers/${c.id}/methods`, { method_type: 'credit_card', token })).statusCode).toBe(200);
  });

  test('17001 for an unknown or foreign customer; 23489 for a missing, unknown or used token', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const res = await call(gw, 'POST', '/customers/ffffffffffff/methods', { token: await card(gw) });
    expect([res.statusCode, code(res)]).toEqual([404, '17001']);
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods`, { token: await card(gw) }, gw.other.test.private_key))).toBe('17001');
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods`, {}))).toBe('23489');
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods`, { token: 'ffffffffff' }))).toBe('23489');
    const token = await card(gw);
    expect((await call(gw, 'POST', `/customers/${c.id}/methods`, { token })).statusCode).toBe(200);
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods`, { token }))).toBe('23489');
  });

  test('verification: CPCVV1, CPCVV2, 82004, AVSZIP404 on create and on update', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const methodId = c.methods[0].id;
    const { csc: _c, ...noCsc } = visa;
    await settings(gw, true, true);
    try {
      for (const url of [`/customers/${c.id}/methods`, `/customers/${c.id}/methods/${methodId}`]) {
        expect(code(await call(gw, 'POST', url, { token: await card(gw, '4000000000000044'), zip: '1' }))).toBe('CPCVV1');
        expect(code(await call(gw, 'POST', url, { token: await card(gw, '4000000000000101'), zip: '1' }))).toBe('CPCVV2');
        expect(code(await call(gw, 'POST', url, { token: await tokenFor(gw, noCsc), zip: '1' }))).toBe('CPCVV2');
        expect(code(await call(gw, 'POST', url, { token: await card(gw) }))).toBe('AVSZIP404');
        expect(code(await call(gw, 'POST', url, { token: await card(gw, '4000000000000036'), zip: '1' }))).toBe('82004');
        const ok = await call(gw, 'POST', url, { token: await tokenFor(gw, noCsc), cvv: '123', zip: '94107' });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().method).toMatchObject({ csc_check: 'pass', address: { zip: '94107' } });
      }
    } finally {
      await settings(gw, false, false);
    }
  });
});

describe('GET methods', () => {
  test('list and one, wrapped; placeholders listed; 17001 and 82002', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const other = await newCustomer(gw);
    const list = await call(gw, 'GET', `/customers/${c.id}/methods`);
    expect(list.json().success).toBe(true);
    expect(list.json().list.map((m: any) => [m.class, m.method_type])).toEqual([
      ['method', 'credit_card'], ['method', 'bank_account'],
    ]);
    const one = await call(gw, 'GET', `/customers/${c.id}/methods/${c.methods[1].id}`);
    expect(one.json()).toMatchObject({ success: true, method: { id: c.methods[1].id, class: 'method', method_type: 'bank_account' } });
    const foreign = await call(gw, 'GET', `/customers/${c.id}/methods/${other.methods[0].id}`);
    expect([foreign.statusCode, code(foreign)]).toEqual([404, '82002']);
    expect(code(await call(gw, 'GET', `/customers/${c.id}/methods/${'0'.repeat(32)}`))).toBe('82002');
    expect(code(await call(gw, 'GET', '/customers/ffffffffffff/methods'))).toBe('17001');
    expect(code(await call(gw, 'GET', `/customers/ffffffffffff/methods/${c.methods[0].id}`))).toBe('17001');
    expect(code(await call(gw, 'GET', `/customers/${c.id}/methods`, undefined, gw.merchant.live.private_key))).toBe('17001');
  });
});

describe('POST /customers/:customer_id/methods/:method_id', () => {
  test('replaces the details from a token of the same type, keeping the id', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, { token: await card(gw) });
    const id = c.default_method_id;
    const res = await call(gw, 'POST', `/customers/${c.id}/methods/${id}`, { token: await card(gw, '5555555555554444') });
    expect(res.json()).toMatchObject({ success: true, method: { id, last_4: '4444', card_type: 'mastercard' } });
    const bankMethod = c.methods.find((m: any) => m.method_type === 'bank_account').id;
    const filled = await call(gw, 'POST', `/customers/${c.id}/methods/${bankMethod}`, { token: await tokenFor(gw, bank) });
    expect(filled.json().method).toMatchObject({ id: bankMethod, bank_account_number_last_4: '6789' });
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods/${id}`, { token: await tokenFor(gw, bank) }))).toBe('82001');
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods/${'0'.repeat(32)}`, { token: await card(gw) }))).toBe('82002');
    expect(code(await call(gw, 'POST', `/customers/ffffffffffff/methods/${id}`, { token: await card(gw) }))).toBe('17001');
    expect(code(await call(gw, 'POST', `/customers/${c.id}/methods/${id}`, { token: 'ffffffffff' }))).toBe('23489');
  });
});

describe('DELETE /customers/:customer_id/methods/:method_id', () => {
  const insert = async (gw: TestGateway, table: string, id: string, customerId: string, methodId: string, status: string) => {
    const extra = table === 'scheduled_transactions' ? ['bill_on', "'2026-03-01'"] : null;
    await gw.db.query(
      `INSERT INTO ${table} (merchant_id, env, id, customer_id, method_id, status, created_at${extra ? `, ${extra[0]}` : ''})
       VALUES ($1, 'test', $2, $3, $4, $5, $6${extra ? `, ${extra[1]}` : ''})`,
      [gw.merchant.id, id, customerId, methodId, status, gw.clock.now()],
    );
  };

  test('refuses the default (82003), a subscribed method (10208), unbilled schedules (17104); else deletes', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, { token: await card(gw) });
    const extra = (await call(gw, 'POST', `/customers/${c.id}/methods`, { token: await card(gw, '5555555555554444') })).json().method.id;
    const def = await call(gw, 'DELETE', `/customers/${c.id}/methods/${c.default_method_id}`);
    expect([def.statusCode, code(def)]).toEqual([409, '82003']);

    await insert(gw, 'subscriptions', `sub-${extra}`, c.id, extra, 'active');
    expect(code(await call(gw, 'DELETE', `/customers/${c.id}/methods/${extra}`))).toBe('10208');
    await gw.db.query("UPDATE subscriptions SET status = 'cancelled' WHERE id = $1", [`sub-${extra}`]);
    await insert(gw, 'scheduled_transactions', `st-${extra}`, c.id, extra, 'scheduled');
    await insert(gw, 'scheduled_transactions', `st2-${extra}`, c.id, extra, 'billed');
    expect(code(await call(gw, 'DELETE', `/customers/${c.id}/methods/${extra}`))).toBe('17104');
    await gw.db.query("UPDATE scheduled_transactions SET status = 'cancelled' WHERE id = $1", [`st-${extra}`]);

    expect(code(await call(gw, 'DELETE', `/customers/${c.id}/methods/${extra}`, undefined, gw.other.test.private_key))).toBe('17001');
    const ok = await call(gw, 'DELETE', `/customers/${c.id}/methods/${extra}`);
    expect([ok.statusCode, ok.json()]).toEqual([200, { success: true }]);
    expect(code(await call(gw, 'GET', `/customers/${c.id}/methods/${extra}`))).toBe('82002');
    expect(code(await call(gw, 'DELETE', `/customers/${c.id}/methods/${extra}`))).toBe('82002');
    expect(code(await call(gw, 'DELETE', `/customers/ffffffffffff/methods/${extra}`))).toBe('17001');
    const [row] = await gw.db.query('SELECT secret_enc, deleted_at FROM payment_methods WHERE id = $1', [extra]);
    expect(row.secret_enc).toBeNull();
    expect(row.deleted_at).not.toBeNull();
    expect((await call(gw, 'GET', `/customers/${c.id}/methods`)).json().list.map((m: any) => m.id)).not.toContain(extra);
  });

  test('once another method is the default, the old default can go', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    const [cardId, bankId] = c.methods.map((m: any) => m.id);
    await call(gw, 'POST', `/customers/${c.id}`, { default_method_id: bankId });
    expect((await call(gw, 'DELETE', `/customers/${c.id}/methods/${cardId}`)).json()).toEqual({ success: true });
  });

  test('an unexpected failure is 18010, not a 500', async ({ gateway: gw }) => {
    const c = await newCustomer(gw);
    await gw.db.query('ALTER TABLE subscriptions RENAME TO subscriptions_away');
    try {
      const res = await call(gw, 'DELETE', `/customers/${c.id}/methods/${c.methods[1].id}`);
      expect([res.statusCode, code(res)]).toEqual([409, '18010']);
    } finally {
      await gw.db.query('ALTER TABLE subscriptions_away RENAME TO subscriptions');
    }
    expect((await call(gw, 'GET', `/customers/${c.id}/methods/${c.methods[1].id}`)).statusCode).toBe(200);
  });
});

describe('findChargeableMethod (charges by customer)', () => {
  const scope = (gw: TestGateway): Scope => ({ merchantId: gw.merchant.id, env: 'test' });
  const find = (gw: TestGateway, customerId: string, methodId: string | null, bankAccount: boolean | null) =>
    findChargeableMethod(gw.db, scope(gw), customerId, methodId, bankAccount);
  const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e) => e.code);

  test('default card, default bank account, chosen method, customer data', async ({ gateway: gw }) => {
    const c = await newCustomer(gw, {
      first_name: 'Ada', email: 'ada@example.com', zip: '10001', metadata: { tier: 'gold' }, default_receipts: true,
      token: await card(gw, '4111111111111111', { zip: '94107' }),
    });
    const bankId = c.methods.find((m: any) => m.method_type === 'bank_account').id;
    await call(gw, 'POST', `/customers/${c.id}/methods/${bankId}`, { token: await tokenFor(gw, bank) });

    const m = await find(gw, c.id, null, false);
    expect(m).toMatchObject({
      method_id: c.default_method_id, method_type: 'credit_card', card_type: 'visa', last_4: '1111',
      card_exp_month: 12, card_exp_year: 2030, card_owner_name: 'Ada Lovelace', zip: '94107',
      customer: { id: c.id, first_name: 'Ada', email: 'ada@example.com', zip: '10001', country: 'USA', metadata: { tier: 'gold' }, default_receipts: true, default_receipt_template_id: null },
    });
    expect(gw.vault.decrypt(m.secret_enc, methodHome(scope(gw), m.method_id))).toBe('4111111111111111');

    const b = await find(gw, c.id, null, true);
    expect(b).toMatchObject({ method_id: bankId, method_type: 'bank_account', bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper' });
    expect(gw.vault.decrypt(b.secret_enc, methodHome(scope(gw), b.method_id))).toBe(bank.bank_account_number);
    expect((await find(gw, c.id, bankId, false)).method_id).toBe(bankId); // a chosen method wins over the flag
    expect((await find(gw, c.id, null, null)).method_id).toBe(c.default_method_id);

    // The bank account becomes the default: null follows it; false still finds the card.
    await call(gw, 'POST', `/customers/${c.id}`, { default_method_id: bankId });
    expect((await find(gw, c.id, null, null)).method_id).toBe(bankId);
    expect((await find(gw, c.id, null, false)).method_id).toBe(c.default_method_id);
  });

  test('34798 for a missing, foreign or deleted customer; 34792 when no method with details fits', async ({ gateway: gw }) => {
    const empty = await newCustomer(gw);
    expect(await codeOf(find(gw, 'ffffffffffff', null, false))).toBe('34798');
    const foreign = (await call(gw, 'POST', '/customers', {}, gw.other.test.private_key)).json();
    expect(await codeOf(find(gw, foreign.id, null, false))).toBe('34798');
    expect(await codeOf(find(gw, empty.id, null, false))).toBe('34792');
    expect(await codeOf(find(gw, empty.id, null, true))).toBe('34792');
    expect(await codeOf(find(gw, empty.id, null, null))).toBe('34792');
    expect(await codeOf(find(gw, empty.id, empty.methods[0].id, false))).toBe('34792'); // placeholder
    expect(await codeOf(find(gw, empty.id, 'f'.repeat(32), false))).toBe('34792');

    const withCard = await newCustomer(gw, { token: await card(gw) });
    expect(await codeOf(find(gw, withCard.id, null, true))).toBe('34792');
    const other = await newCustomer(gw, { token: await card(gw) });
    expect(await codeOf(find(gw, withCard.id, other.default_method_id, false))).toBe('34792');
    await call(gw, 'DELETE', `/customers/${withCard.id}`);
    expect(await codeOf(find(gw, withCard.id, null, false))).toBe('34798');
  });
});
