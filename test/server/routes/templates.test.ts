import { RECEIPT_TIME, calls } from './receipts-fixtures.js';
import { TestGateway, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';

// Receipt templates (spec 2.6, 4.4): CRUD, list envelope, 10302, 10300, scoping; merchant defaults.

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
const test = base.extend<{ calls: ReturnType<typeof calls> }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });

const merchantNumber = async (gw: TestGateway, id = gw.merchant.id) =>
  (await gw.db.query('SELECT number FROM merchants WHERE id = $1', [id]))[0].number as number;

describe('create, read, update, delete', () => {
  test('POST creates: integer id and merchant_id, +00:00 timestamps, exactly the fields of spec 2.6', async ({ gateway: gw, calls: api }) => {
    const res = await api.post('/receipts/templates', { name: 'Default', subject: 'Thanks from [MerchantName]', receipt_text: 'Paid [Amount]' });
    expect(res.status).toBe(200);
    const t = res.body;
    expect(Object.keys(t).sort()).toEqual(['class', 'created_at', 'id', 'merchant_id', 'name', 'receipt_text', 'subject', 'updated_at']);
    expect(t).toMatchObject({
      class: 'receipt_template', name: 'Default', subject: 'Thanks from [MerchantName]', receipt_text: 'Paid [Amount]',
      merchant_id: await merchantNumber(gw),
    });
    expect(Number.isInteger(t.id)).toBe(true);
    expect(Number.isInteger(t.merchant_id)).toBe(true);
    expect(t.created_at).toMatch(RECEIPT_TIME);
    expect(t.created_at).toBe(gw.clock.now().toISOString().replace(/\.\d{3}Z$/, '+00:00'));
    expect(t.updated_at).toBe(t.created_at);
    expect((await api.get(`/receipts/templates/${t.id}`)).body).toEqual(t);
  });

  test('only receipt_text is required; name and subject default to null; form bodies work', async ({ gateway: gw }) => {
    // A form body: the QA client sends JSON only, so this call stays a direct inject.
    const t = (await gw.app.inject({
      method: 'POST', url: '/api/v1/receipts/templates', headers: basic(gw.merchant.test.private_key),
      payload: 'receipt_text=Hello+[CustomerName]<br>bye',
    })).json();
    expect(t).toMatchObject({ name: null, subject: null, receipt_text: 'Hello [CustomerName]<br>bye' });
  });

  test('10302 without receipt_text (absent, empty, blank); REQ01 for an object or an over-long field', async ({ calls: api }) => {
    for (const body of [{}, { name: 'x' }, { receipt_text: '' }, { receipt_text: '   ' }, { receipt_text: null }]) {
      expectError(await api.post('/receipts/templates', body), 400, '10302');
    }
    expectError(await api.post('/receipts/templates', { receipt_text: { a: 1 } }), 400, 'REQ01');
    expectError(await api.post('/receipts/templates', { receipt_text: 'x', name: 'n'.repeat(256) }), 400, 'REQ01');
    expectError(await api.post('/receipts/templates', { receipt_text: 'x'.repeat(20_001) }), 400, 'REQ01');
  });

  test('POST /:id updates the fields given and updated_at; an empty name clears it; 10302 for a blank text', async ({ gateway: gw, calls: api }) => {
    const t = (await api.post('/receipts/templates', { name: 'A', subject: 'S', receipt_text: 'one' })).body;
    gw.clock.advance(5000);
    const u = await api.post(`/receipts/templates/${t.id}`, { receipt_text: 'two', name: '' });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ id: t.id, name: null, subject: 'S', receipt_text: 'two', created_at: t.created_at });
    expect(Date.parse(u.body.updated_at) - Date.parse(t.updated_at)).toBe(5000);
    expect((await api.post(`/receipts/templates/${t.id}`, { subject: 'New' })).body).toMatchObject({ subject: 'New', receipt_text: 'two' });
    expectError(await api.post(`/receipts/templates/${t.id}`, { receipt_text: '' }), 400, '10302');
    expect((await api.get(`/receipts/templates/${t.id}`)).body.receipt_text).toBe('two');
  });

  test('DELETE answers {success: true}; the template is gone (10300)', async ({ calls: api }) => {
    const t = (await api.post('/receipts/templates', { receipt_text: 'bye' })).body;
    const res = await api.del(`/receipts/templates/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectError(await api.get(`/receipts/templates/${t.id}`), 404, '10300');
    expectError(await api.del(`/receipts/templates/${t.id}`), 404, '10300');
    expectError(await api.post(`/receipts/templates/${t.id}`, { receipt_text: 'x' }), 404, '10300');
  });

  test('10300 for unknown and malformed ids', async ({ calls: api }) => {
    for (const id of ['999999999', 'abc', '1.5', '-1', '99999999999999999999']) {
      expectError(await api.get(`/receipts/templates/${id}`), 404, '10300');
    }
  });
});

describe('list', () => {
  test('list envelope, newest first, limit and offset, PAGE01', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push((await api.post('/receipts/templates', { name: `t${n}`, receipt_text: 'x' }, k)).body.id);
    const all = (await api.get('/receipts/templates', k)).body;
    expect(all.meta).toEqual({ limit: 10, offset: 0, total_results: 3 });
    expect(all.list.map((t: any) => t.id)).toEqual([...ids].reverse());
    expect(all.list[0].class).toBe('receipt_template');
    const page = (await api.get('/receipts/templates?limit=1&offset=1', k)).body;
    expect(page).toMatchObject({ meta: { limit: 1, offset: 1, total_results: 3 }, list: [{ id: ids[1] }] });
    expectError(await api.get('/receipts/templates?limit=0', k), 400, 'PAGE01');
  });
});

describe('scoping', () => {
  test('templates never cross environments or merchants', async ({ gateway: gw, calls: api }) => {
    const t = (await api.post('/receipts/templates', { receipt_text: 'test only' })).body;
    expectError(await api.get(`/receipts/templates/${t.id}`, gw.merchant.live.private_key), 404, '10300');
    expectError(await api.get(`/receipts/templates/${t.id}`, gw.other.test.private_key), 404, '10300');
    expectError(await api.post(`/receipts/templates/${t.id}`, { receipt_text: 'hijack' }, gw.other.test.private_key), 404, '10300');
    expectError(await api.del(`/receipts/templates/${t.id}`, gw.other.test.private_key), 404, '10300');
    expect((await api.get(`/receipts/templates/${t.id}`)).body.receipt_text).toBe('test only');
    const otherList = (await api.get('/receipts/templates?limit=100', gw.other.test.private_key)).body;
    expect(otherList.list.map((x: any) => x.id)).not.toContain(t.id);
  });

  test('a public key is refused (AUTH02)', async ({ gateway: gw, calls: api }) => {
    expectError(await api.get('/receipts/templates', gw.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('merchant receipt defaults (GET/POST /settings)', () => {
  test('default_receipts and default_receipt_template_id are per environment; 10300 for a template not of this scope', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const before = (await api.get('/settings', m.test.private_key)).body;
    expect(before).toMatchObject({ default_receipts: false, default_receipt_template_id: null });
    const t = (await api.post('/receipts/templates', { receipt_text: 'x' }, m.test.private_key)).body;
    const set = await api.post('/settings', { default_receipts: 'true', default_receipt_template_id: t.id }, m.test.private_key);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ env: 'test', default_receipts: true, default_receipt_template_id: String(t.id), cvv_check: false });
    expect((await api.get('/settings', m.live.private_key)).body).toMatchObject({ default_receipts: false, default_receipt_template_id: null });
    expectError(await api.post('/settings', { default_receipt_template_id: t.id }, m.live.private_key), 404, '10300');
    expectError(await api.post('/settings', { default_receipts: 'maybe' }, m.test.private_key), 400, 'REQ01');
    // Other switches are left alone by a partial update; '' clears the template.
    const cleared = (await api.post('/settings', { default_receipt_template_id: '' }, m.test.private_key)).body;
    expect(cleared).toMatchObject({ default_receipts: true, default_receipt_template_id: null });
  });

  test('a customer\'s default template and a scheduled transaction\'s template must exist in the scope (10300), as the settings\' must; nothing is written', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const t = (await api.post('/receipts/templates', { receipt_text: 'x' }, k)).body;
    const count = async (table: string) => (await gw.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE merchant_id = $1`, [m.id]))[0].n;
    const customers = await count('customers');
    for (const bad of ['12abc', '99999', 'x'.repeat(10_000)]) {
      expectError(await api.post('/customers', { first_name: 'T', default_receipt_template_id: bad }, k), 404, '10300');
    }
    expectError(await api.post('/customers', { first_name: 'T', default_receipt_template_id: t.id }, m.live.private_key), 404, '10300');
    expect(await count('customers')).toBe(customers);
    const c = (await api.post('/customers', { token: await tokenFor(gw, visa, m.test.public_key), default_receipt_template_id: ` ${t.id}` }, k)).body;
    expect(c.default_receipt_template_id).toBe(String(t.id));
    expectError(await api.post(`/customers/${c.id}`, { default_receipt_template_id: '99999' }, k), 404, '10300');
    expect((await api.get(`/customers/${c.id}`, k)).body.default_receipt_template_id).toBe(String(t.id));
    const scheduled = await count('scheduled_transactions');
    const schedule = (tpl: unknown) => api.post('/scheduled_transactions', {
      customer_id: c.id, amount: 150, bill_on: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), send_receipt: true, email_address: 'a@example.com', receipt_template_id: tpl,
    }, k);
    expectError(await schedule('99999'), 404, '10300');
    expect(await count('scheduled_transactions')).toBe(scheduled);
    const ok = await schedule(t.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.receipt_template_id).toBe(String(t.id));
  });

  test('deleting the merchant default template clears the setting', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const t = (await api.post('/receipts/templates', { receipt_text: 'x' }, m.test.private_key)).body;
    await api.post('/settings', { default_receipt_template_id: t.id }, m.test.private_key);
    await api.del(`/receipts/templates/${t.id}`, m.test.private_key);
    expect((await api.get('/settings', m.test.private_key)).body.default_receipt_template_id).toBeNull();
  });
});

test('Idempotency-Key on template creation replays the same template', async ({ gateway: gw }) => {
  const h = { 'idempotency-key': 'tpl-1' };
  // The replay header is read, and the QA client answers no headers: direct injects.
  const send = () => gw.app.inject({
    method: 'POST', url: '/api/v1/receipts/templates', headers: { ...basic(gw.merchant.test.private_key), ...h }, payload: { receipt_text: 'once' },
  });
  const a = await send();
  const b = await send();
  expect(b.headers['idempotent-replayed']).toBe('true');
  expect(b.json()).toEqual(a.json());
});
