import { ID, TIME, body, test } from './invoices-fixtures.js';
import { basic, describe, expect, expectError } from '../../fixtures.js';

// Invoices (spec 4.11, state table of spec 3; docs/decisions/invoices.md):
// create, read, list, update and delete, and their validation. The state machine (deliver,
// mark_as_paid, the state × action table) is in invoice-states.test.ts.

describe('POST /invoices', () => {
  test('creates an unpaid invoice with totals in cents, emails it through the outbox, emits created and delivered', async ({ s }) => {
    const inv = await s.create();
    expect(Object.keys(inv).sort()).toEqual([
      'amount', 'amount_paid', 'balance', 'class', 'created_at', 'customer_address_1', 'customer_address_2', 'customer_city',
      'customer_company', 'customer_email', 'customer_fax', 'customer_first_name', 'customer_id', 'customer_last_name',
      'customer_phone', 'customer_state', 'customer_zip', 'deleted_at', 'delivery', 'due_date', 'id', 'items', 'memo',
      'metadata', 'paid_at', 'payments', 'status', 'updated_at',
    ]);
    expect(inv).toMatchObject({
      class: 'invoice', status: 'unpaid', customer_id: null, customer_first_name: 'Ada', customer_state: 'NY',
      customer_address_2: null,
      items: [
        { description: 'Consulting', quantity: 3, unit_amount: 12_500, amount: 37_500 },
        { description: 'Travel', quantity: 1, unit_amount: 4_999, amount: 4_999 },
      ],
      amount: 42_499, amount_paid: 0, balance: 42_499, payments: [],
      due_date: '2026-02-15', memo: 'Thank you for your business.', metadata: { order: 'A-17' },
      delivery: { email_address: 'ada@example.com', status: 'pending', attempts: 0, sent_at: null, last_error: null },
      paid_at: null, deleted_at: null,
    });
    expect(inv.id).toMatch(ID);
    expect(inv.created_at).toBe(s.gw.clock.now().toISOString());
    expect(inv.delivery.queued_at).toMatch(TIME);

    const [mail, ...more] = await s.outboxFor(inv.id);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ kind: 'email', status: 'pending', merchant_id: s.gw.merchant.id, env: 'test' });
    expect(mail.payload).toMatchObject({ to: 'ada@example.com', from_name: 'Test merchant' });
    expect(mail.payload.subject).toBe(`Invoice ${inv.id} from Test merchant: $424.99 due by 2026-02-15`);
    expect(mail.payload.text).toContain('Consulting: 3 × $125.00 = $375.00');
    expect(mail.payload.text).toContain('Travel: 1 × $49.99 = $49.99');
    expect(mail.payload.text).toContain('Balance due: $424.99');
    expect(mail.payload.text).toContain('Bill to:\nAda Lovelace\nAnalytical Engines\n12 St James Square\nLondon, NY 10001');
    expect(mail.payload.html).toContain('<td style="padding:4px 8px;border-bottom:1px solid #ddd">Consulting</td>');

    // The outbox route shows the same message to the merchant.
    const listed = (await s.api.get(`/outbox?source=invoice:${inv.id}`)).body;
    expect(listed.list).toHaveLength(1);

    const events = await s.eventsFor(inv.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivered']);
    expect(events[0].data).toMatchObject({ class: 'invoice', id: inv.id, status: 'unpaid', delivery: null });
    expect(events[1].data).toMatchObject({ delivery: { email_address: 'ada@example.com' } });
    expect(events.every((e) => e.env === 'test' && e.merchant_id === s.gw.merchant.id)).toBe(true);
  });

  test('totals: quantity × unit_amount per line, summed in integer cents; a free line is allowed', async ({ s }) => {
    const inv = await s.create({
      items: [
        { description: 'a', quantity: 3, unit_amount: 333 },
        { description: 'b', quantity: '7', unit_amount: '1' },
        { description: 'free sample', quantity: 2, unit_amount: 0 },
        { description: 'big', quantity: 1_000_000, unit_amount: 99_999 },
      ],
    });
    expect(inv.items.map((i: any) => i.amount)).toEqual([999, 7, 0, 99_999_000_000]);
    expect(inv.amount).toBe(99_999_001_006);
    expect(inv.balance).toBe(99_999_001_006);
  });

  test('an invoice without customer_email is created, not sent; deliver then answers 92002', async ({ s }) => {
    const inv = await s.create({ customer_email: undefined });
    expect(inv).toMatchObject({ status: 'unpaid', customer_email: null, delivery: null });
    expect(await s.outboxFor(inv.id)).toEqual([]);
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual(['invoice.created']);
    expectError(await s.api.post(`/invoices/${inv.id}/deliver`), 422, '92002');
  });

  test('form-encoded: items[0][description]=…, metadata[color]=red, numbers as strings', async ({ s }) => {
    const form = 'customer_first_name=Grace&customer_email=grace%40example.com&items%5B0%5D%5Bdescription%5D=Widget'
      + '&items%5B0%5D%5Bquantity%5D=2&items%5B0%5D%5Bunit_amount%5D=1050&items%5B1%5D%5Bdescription%5D=Box'
      + '&items%5B1%5D%5Bunit_amount%5D=99&metadata%5Bcolor%5D=red&due_date=2026-03-01';
    const res = await s.gw.app.inject({
      method: 'POST', url: '/api/v1/invoices', payload: form,
      headers: { ...basic(s.gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      customer_first_name: 'Grace', amount: 2199, metadata: { color: 'red' }, due_date: '2026-03-01',
      items: [{ description: 'Widget', quantity: 2, unit_amount: 1050, amount: 2100 }, { description: 'Box', quantity: 1, amount: 99 }],
    });
  });

  test('items and metadata may arrive JSON-encoded', async ({ s }) => {
    const inv = await s.create({ items: JSON.stringify([{ description: 'x', quantity: 2, unit_amount: 50 }]), metadata: '{"a":1}' });
    expect(inv).toMatchObject({ amount: 100, metadata: { a: 1 } });
  });

  test.for<[string, Record<string, unknown>, RegExp]>([
    ['items and amount missing', { items: undefined }, /items \(at least one line item\) or amount required/],
    ['items empty (as absent: PHP writes no items as [])', { items: [] }, /items \(at least one line item\) or amount required/],
    ['101 items', { items: Array.from({ length: 101 }, () => ({ description: 'x', unit_amount: 1 })) }, /1 to 100/],
    ['items not a list', { items: 'nope' }, /items must be a list/],
    ['items keyed by words', { items: { a: { description: 'x', unit_amount: 1 } } }, /keyed "0", "1"/],
    ['item not an object', { items: ['x'] }, /items\[0\] must be an object/],
    ['description missing', { items: [{ unit_amount: 1 }] }, /items\[0\]\.description is required/],
    ['description too long', { items: [{ description: 'x'.repeat(501), unit_amount: 1 }] }, /at most 500/],
    ['quantity 0', { items: [{ description: 'x', quantity: 0, unit_amount: 1 }] }, /quantity must be an integer from 1/],
    ['quantity 1.5', { items: [{ description: 'x', quantity: 1.5, unit_amount: 1 }] }, /quantity/],
    ['quantity too big', { items: [{ description: 'x', quantity: 1_000_001, unit_amount: 1 }] }, /quantity/],
    ['unit_amount missing', { items: [{ description: 'x' }] }, /unit_amount is required/],
    ['unit_amount negative', { items: [{ description: 'x', unit_amount: -1 }] }, /unit_amount must be an integer number of cents/],
    ['unit_amount in dollars', { items: [{ description: 'x', unit_amount: '12.50' }] }, /unit_amount/],
    ['total zero', { items: [{ description: 'x', unit_amount: 0 }] }, /above zero/],
    ['line over the cap', { items: [{ description: 'x', quantity: 1_000_000, unit_amount: 99_999_999_999 }] }, /at most 99999999999/],
    ['total over the cap', { items: [{ description: 'x', unit_amount: 99_999_999_999 }, { description: 'y', unit_amount: 1 }] }, /at most/],
    ['bad email', { customer_email: 'ada@' }, /customer_email must be an email/],
    ['bad state', { customer_state: 'New York' }, /customer_state must be the two-character/],
    ['long first name', { customer_first_name: 'x'.repeat(101) }, /customer_first_name must be at most 100/],
    ['long fax', { customer_fax: '1'.repeat(33) }, /customer_fax must be at most 32/],
    ['due_date not a date', { due_date: '2026-02-30' }, /due_date must be a date as YYYY-MM-DD/],
    ['due_date other format', { due_date: '15/02/2026' }, /due_date/],
    ['memo too long', { memo: 'x'.repeat(2001) }, /memo must be at most 2000/],
    ['metadata not an object', { metadata: '[1]' }, /metadata must be an object/],
    ['metadata too big', { metadata: { big: 'x'.repeat(9000) } }, /metadata must be at most 8192/],
  ])('400 REQ01 with a message naming the field: %s', async ([_name, extra, message], { s }) => {
    const res = await s.api.post('/invoices', body(extra));
    expectError(res, 400, 'REQ01');
    expect(res.body.errors[0].message).toMatch(message);
  });

  test('nothing is kept or sent when the body is refused', async ({ s }) => {
    const before = (await s.gw.db.query('SELECT count(*)::int AS n FROM invoices'))[0].n;
    await s.api.post('/invoices', body({ items: [] }));
    expect((await s.gw.db.query('SELECT count(*)::int AS n FROM invoices'))[0].n).toBe(before);
  });

  test('customer_id links a stored customer and fills the customer fields the body leaves out', async ({ s }) => {
    const c = (await s.api.post('/customers', {
      first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', company: 'Navy', city: 'Arlington', state: 'VA',
      phone: '555-0100',
    })).body;
    const inv = (await s.api.post('/invoices', { customer_id: c.id, customer_last_name: 'H.', items: [{ description: 'x', unit_amount: 5 }] })).body;
    expect(inv).toMatchObject({
      customer_id: c.id, customer_first_name: 'Grace', customer_last_name: 'H.', customer_email: 'grace@example.com',
      customer_company: 'Navy', customer_city: 'Arlington', customer_state: 'VA', customer_phone: '555-0100', customer_fax: null,
      delivery: { email_address: 'grace@example.com' },
    });
  });

  test('34798 for a customer_id that is unknown, deleted, another merchant\'s or the other environment\'s', async ({ s }) => {
    const other = (await s.api.post('/customers', { first_name: 'O' }, s.gw.other.test.private_key)).body;
    const live = (await s.api.post('/customers', { first_name: 'L' }, s.gw.merchant.live.private_key)).body;
    const gone = (await s.api.post('/customers', { first_name: 'G' })).body;
    await s.api.del(`/customers/${gone.id}`);
    for (const id of ['nosuchcustomer', other.id, live.id, gone.id]) {
      expectError(await s.api.post('/invoices', body({ customer_id: id })), 400, '34798');
    }
  });

  test('Idempotency-Key: a retried create answers the same invoice and sends one email', async ({ s }) => {
    const headers = { 'idempotency-key': 'inv-create-1' };
    // The replay header is read, and the QA client answers no headers: direct injects.
    const send = () => s.gw.app.inject({
      method: 'POST', url: '/api/v1/invoices', headers: { ...basic(s.gw.merchant.test.private_key), ...headers }, payload: body(),
    });
    const a = await send();
    const b = await send();
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json().id).toBe(a.json().id);
    expect(await s.outboxFor(a.json().id)).toHaveLength(1);
  });

  test('the email escapes every value in its HTML part', async ({ s }) => {
    const inv = await s.create({
      customer_first_name: '<b>Eve</b>', memo: 'line 1\n<script>alert(1)</script>',
      items: [{ description: '<img src=x onerror=alert(1)>', unit_amount: 100 }],
    });
    const [mail] = await s.outboxFor(inv.id);
    expect(mail.payload.html).not.toMatch(/<script>|<img|<b>Eve/);
    expect(mail.payload.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.payload.html).toContain('line 1<br>\n&lt;script&gt;');
    expect(mail.payload.text).toContain('<img src=x onerror=alert(1)>: 1 × $1.00 = $1.00');
  });

  test('a public key cannot create invoices', async ({ s }) => {
    expectError(await s.api.post('/invoices', body(), s.gw.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('GET /invoices and /invoices/:id', () => {
  test('92000 for an unknown invoice, another merchant\'s, or the other environment\'s', async ({ s }) => {
    const inv = await s.create();
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toEqual(inv);
    expectError(await s.api.get('/invoices/0123456789abcdef'), 404, '92000');
    expectError(await s.api.get(`/invoices/${inv.id}`, s.gw.other.test.private_key), 404, '92000');
    expectError(await s.api.get(`/invoices/${inv.id}`, s.gw.merchant.live.private_key), 404, '92000');
    for (const path of ['', '/deliver', '/mark_as_paid']) {
      expectError(await s.api.post(`/invoices/${inv.id}${path}`, {}, s.gw.other.test.private_key), 404, '92000');
    }
    expectError(await s.api.del(`/invoices/${inv.id}`, s.gw.merchant.live.private_key), 404, '92000');
  });

  test('list: newest first, limit/offset, total_results, per merchant and environment; deleted only on request', async ({ s }) => {
    const m = await s.gw.newMerchant();
    const key = m.test.private_key;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await s.create({ memo: `n${i}` }, key)).id);
    await s.create({}, m.live.private_key);
    await s.api.del(`/invoices/${made[1]}`, key);

    const page1 = (await s.api.get('/invoices?limit=2', key)).body;
    expect(page1.meta).toEqual({ limit: 2, offset: 0, total_results: 4 });
    expect(page1.list.map((i: any) => i.id)).toEqual([made[4], made[3]]);
    const page2 = (await s.api.get('/invoices?limit=2&offset=2', key)).body;
    expect(page2.list.map((i: any) => i.id)).toEqual([made[2], made[0]]);
    expect((await s.api.get('/invoices?limit=2&offset=4', key)).body.list).toEqual([]);
    expect((await s.api.get('/invoices', key)).body.meta).toEqual({ limit: 10, offset: 0, total_results: 4 });

    const deleted = (await s.api.get('/invoices?status=deleted', key)).body;
    expect(deleted.list.map((i: any) => [i.id, i.status])).toEqual([[made[1], 'deleted']]);
    await s.api.post(`/invoices/${made[0]}/mark_as_paid`, {}, key);
    expect((await s.api.get('/invoices?status=paid', key)).body.list.map((i: any) => i.id)).toEqual([made[0]]);
    expect((await s.api.get('/invoices?status=unpaid', key)).body.meta.total_results).toBe(3);
    expect((await s.api.get('/invoices', m.live.private_key)).body.meta.total_results).toBe(1);

    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) expectError(await s.api.get(`/invoices?${q}`, key), 400, 'PAGE01');
    expectError(await s.api.get('/invoices?status=overdue', key), 400, 'REQ01');
  });
});

describe('POST /invoices/:id (update)', () => {
  test('an unpaid invoice: absent fields stay, empty ones clear, items recompute the total; unpaid → unpaid, no email', async ({ s }) => {
    const inv = await s.create();
    s.gw.clock.advance(1000);
    const now = s.gw.clock.now().toISOString();
    const res = await s.api.post(`/invoices/${inv.id}`, {
      customer_last_name: 'Byron', customer_fax: '', memo: '', due_date: '2026-03-31',
      items: [{ description: 'Revised', quantity: 2, unit_amount: 250 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: inv.id, status: 'unpaid', customer_first_name: 'Ada', customer_last_name: 'Byron', customer_fax: null,
      memo: null, due_date: '2026-03-31', amount: 500, balance: 500, metadata: { order: 'A-17' },
      items: [{ description: 'Revised', quantity: 2, unit_amount: 250, amount: 500 }],
      created_at: inv.created_at, updated_at: now,
    });
    expect(await s.outboxFor(inv.id)).toHaveLength(1); // the creation's email only
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivered', 'invoice.updated']);
  });

  test('customer_id on update copies the customer\'s details into the fields the body does not give; empty unlinks', async ({ s }) => {
    const c = (await s.api.post('/customers', { first_name: 'Grace', email: 'grace@example.com' })).body;
    const inv = await s.create({ customer_first_name: undefined, customer_email: undefined });
    const linked = (await s.api.post(`/invoices/${inv.id}`, { customer_id: c.id, customer_company: 'Navy' })).body;
    expect(linked).toMatchObject({
      customer_id: c.id, customer_first_name: 'Grace', customer_email: 'grace@example.com', customer_last_name: null,
      customer_company: 'Navy', customer_city: null,
    });
    const unlinked = (await s.api.post(`/invoices/${inv.id}`, { customer_id: '' })).body;
    expect(unlinked).toMatchObject({ customer_id: null, customer_first_name: 'Grace' });
    expectError(await s.api.post(`/invoices/${inv.id}`, { customer_id: 'nosuchcustomer' }), 400, '34798');
  });

  test('validation on update names the field; nothing changes', async ({ s }) => {
    const inv = await s.create();
    expectError(await s.api.post(`/invoices/${inv.id}`, { items: [] }), 400, 'REQ01');
    expectError(await s.api.post(`/invoices/${inv.id}`, { customer_state: 'xyz' }), 400, 'REQ01');
    // A description alone would change nothing (it names an amount's line): refused, never ignored; an object too.
    expectError(await s.api.post(`/invoices/${inv.id}`, { description: 'Tea' }), 400, 'REQ01', /send it with amount/);
    expectError(await s.api.post(`/invoices/${inv.id}`, { description: { a: 1 } }), 400, 'REQ01');
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toEqual(inv);
    const withAmount = await s.api.post(`/invoices/${inv.id}`, { description: 'Tea', amount: 500 });
    expect(withAmount.status, JSON.stringify(withAmount.body)).toBe(200);
    expect(withAmount.body.items).toEqual([expect.objectContaining({ description: 'Tea', amount: 500 })]);
  });

  test('INV01 (409) for a partially paid, paid or deleted invoice; 92000 for an unknown one', async ({ s }) => {
    const partial = await s.create();
    await s.api.post(`/invoices/${partial.id}/mark_as_paid`, { amount: 100 });
    const paid = await s.create();
    await s.api.post(`/invoices/${paid.id}/mark_as_paid`);
    const deleted = await s.create();
    await s.api.del(`/invoices/${deleted.id}`);
    for (const [inv, status] of [[partial, 'partially_paid'], [paid, 'paid'], [deleted, 'deleted']]) {
      const res = await s.api.post(`/invoices/${inv.id}`, { memo: 'changed' });
      expectError(res, 409, 'INV01');
      expect(res.body.errors[0].message).toContain(status);
    }
    expectError(await s.api.post('/invoices/0123456789abcdef', { memo: 'x' }), 404, '92000');
  });
});

describe('DELETE /invoices/:id', () => {
  test('unpaid → deleted: {success: true}, still readable with status deleted, event invoice.deleted', async ({ s }) => {
    const inv = await s.create();
    s.gw.clock.advance(1000);
    const now = s.gw.clock.now().toISOString();
    const res = await s.api.del(`/invoices/${inv.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ status: 'deleted', deleted_at: now });
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivered', 'invoice.deleted']);
  });

  test('92007 when paid, 92008 when partially paid or deleted already; nothing changes', async ({ s }) => {
    const paid = await s.create();
    await s.api.post(`/invoices/${paid.id}/mark_as_paid`);
    expectError(await s.api.del(`/invoices/${paid.id}`), 409, '92007');
    const partial = await s.create();
    await s.api.post(`/invoices/${partial.id}/mark_as_paid`, { amount: 1 });
    const p = await s.api.del(`/invoices/${partial.id}`);
    expectError(p, 409, '92008');
    expect(p.body.errors[0].message).toContain('partially paid');
    const deleted = await s.create();
    await s.api.del(`/invoices/${deleted.id}`);
    const d = await s.api.del(`/invoices/${deleted.id}`);
    expectError(d, 409, '92008');
    expect(d.body.errors[0].message).toContain('deleted already');
    expect((await s.api.get(`/invoices/${paid.id}`)).body.status).toBe('paid');
    expect((await s.api.get(`/invoices/${partial.id}`)).body.status).toBe('partially_paid');
    expectError(await s.api.del('/invoices/0123456789abcdef'), 404, '92000');
  });
});

describe('mark_as_paid amount and hostile fields', () => {
  // Absent means "the whole balance"; a present amount must be one (the spec shows no body for
  // mark_as_paid, so the refusal is REQ01 as for the invoice's other fields).
  test.for<unknown>([null, '', ' ', '1.00', '1999.0', ' 12 ', '1e3', '-5', 0, 1.5, { toString: 1 }, { valueOf: 1 }, ['100'], true])(
    'amount %j: 400 REQ01, nothing paid', async (amount, { s }) => {
      const inv = await s.create();
      expectError(await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount }), 400, 'REQ01');
      expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ status: 'unpaid', amount_paid: 0, payments: [] });
    });

  test('an empty form field is not an absent one; no amount at all pays the balance', async ({ s }) => {
    const inv = await s.create();
    const form = (payload: string) => s.gw.app.inject({
      method: 'POST', url: `/api/v1/invoices/${inv.id}/mark_as_paid`, payload,
      headers: { ...basic(s.gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(await form('amount='), 400, 'REQ01');
    expectError(await form('amount[toString]=1'), 400, 'REQ01');
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ status: 'unpaid', amount_paid: 0 });
    const paid = await form('memo=x');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', amount_paid: inv.amount, balance: 0 });
  });

  test.for([
    ['customer_email', { toString: 1 }], ['customer_first_name', ['a', 'b']], ['memo', { valueOf: 1 }], ['due_date', { toString: 'x' }],
    ['customer_id', { toString: 1 }], ['items', [{ description: { toString: 1 }, quantity: 1, unit_amount: 100 }]],
    ['items', [{ description: 'x', quantity: 1, unit_amount: '1.00' }]], ['items', [{ description: 'x', quantity: 1, unit_amount: ' 100 ' }]],
  ] as const)('create with %s = %j: 400 REQ01 naming the field, nothing stored', async ([field, value], { s }) => {
    const before = (await s.gw.db.query('SELECT count(*)::int AS n FROM invoices'))[0].n;
    const res = await s.api.post('/invoices', body({ [field]: value }));
    expectError(res, 400, 'REQ01');
    expect(res.body.errors[0].message).toContain(field);
    expect((await s.gw.db.query('SELECT count(*)::int AS n FROM invoices'))[0].n).toBe(before);
  });

  test.for(['x<attacker@evil.example>', 'a,attacker@evil.example', 'Ada <ada@example.com>', 'a b@example.com', '"a"@example.com'])(
    'customer_email %j: one mailbox only, 400 REQ01', async (email, { s }) => {
      expectError(await s.api.post('/invoices', body({ customer_email: email })), 400, 'REQ01');
    });
});
