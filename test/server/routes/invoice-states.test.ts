import { ID, test } from './invoices-fixtures.js';
import type { ApiResponse } from '../../../server/testing/client.js';
import { basic, describe, expect, expectError } from '../../fixtures.js';

// The invoice state machine (state table of spec 3; docs/decisions/invoices.md): deliver, mark_as_paid (partial and full), and every (state, action) pair.
// Create, read, list, update and delete are in invoices.test.ts.

describe('POST /invoices/:id/deliver', () => {
  test('queues the email again and emits invoice.delivered; a paid invoice can be resent', async ({ s }) => {
    const inv = await s.create();
    s.gw.clock.advance(1000);
    const now = s.gw.clock.now().toISOString();
    const res = await s.api.post(`/invoices/${inv.id}/deliver`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mails = await s.outboxFor(inv.id);
    expect(mails).toHaveLength(2);
    expect(res.body.delivery).toMatchObject({ email_address: 'ada@example.com', status: 'pending', queued_at: now });
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivered', 'invoice.delivered']);

    await s.api.post(`/invoices/${inv.id}/mark_as_paid`);
    expect((await s.api.post(`/invoices/${inv.id}/deliver`)).status).toBe(200);
    const last = (await s.outboxFor(inv.id)).at(-1)!;
    expect(last.payload.subject).toBe(`Invoice ${inv.id} from Test merchant: paid in full`);
    expect(last.payload.text).toContain('Paid: $424.99');
  });

  test('the delivery state follows the outbox (sent, attempts)', async ({ s }) => {
    const inv = await s.create();
    await s.gw.db.query("UPDATE outbox SET status = 'sent', attempts = 1, sent_at = $2 WHERE id = (SELECT outbox_id FROM invoices WHERE id = $1)",
      [inv.id, s.gw.clock.now()]);
    expect((await s.api.get(`/invoices/${inv.id}`)).body.delivery)
      .toMatchObject({ status: 'sent', attempts: 1, sent_at: s.gw.clock.now().toISOString() });
  });

  test('92002 for a deleted invoice or one without customer_email; 92000 for an unknown one', async ({ s }) => {
    const deleted = await s.create();
    await s.api.del(`/invoices/${deleted.id}`);
    const res = await s.api.post(`/invoices/${deleted.id}/deliver`);
    expectError(res, 422, '92002');
    expect(res.body.errors[0].message).toContain('deleted');
    const noEmail = await s.create();
    await s.api.post(`/invoices/${noEmail.id}`, { customer_email: '' });
    const res2 = await s.api.post(`/invoices/${noEmail.id}/deliver`);
    expectError(res2, 422, '92002');
    expect(res2.body.errors[0].message).toContain('customer_email');
    expect(await s.outboxFor(noEmail.id)).toHaveLength(1);
    expectError(await s.api.post('/invoices/0123456789abcdef/deliver'), 404, '92000');
  });
});

describe('POST /invoices/:id/mark_as_paid', () => {
  test('without amount the balance is paid: unpaid → paid, with paid_at and the payment recorded', async ({ s }) => {
    const inv = await s.create();
    s.gw.clock.advance(5000);
    const now = s.gw.clock.now().toISOString();
    const res = await s.api.post(`/invoices/${inv.id}/mark_as_paid`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const paid = res.body;
    expect(paid).toMatchObject({
      status: 'paid', amount: 42_499, amount_paid: 42_499, balance: 0, paid_at: now,
      payments: [{ amount: 42_499, created_at: now }],
    });
    expect(paid.payments[0].id).toMatch(ID);
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivered', 'invoice.paid']);
  });

  test('partial payments: unpaid → partially_paid → partially_paid → paid; balance in cents; events', async ({ s }) => {
    const inv = await s.create({ items: [{ description: 'x', unit_amount: 1000 }] });
    const a = (await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: 250 })).body;
    expect(a).toMatchObject({ status: 'partially_paid', amount_paid: 250, balance: 750, paid_at: null });
    const b = (await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: '700' })).body;
    expect(b).toMatchObject({ status: 'partially_paid', amount_paid: 950, balance: 50 });
    const c = (await s.api.post(`/invoices/${inv.id}/mark_as_paid`, {})).body;
    expect(c).toMatchObject({ status: 'paid', amount_paid: 1000, balance: 0 });
    expect(c.payments.map((p: any) => p.amount)).toEqual([250, 700, 50]);
    expect((await s.eventsFor(inv.id)).map((e) => e.type)).toEqual([
      'invoice.created', 'invoice.delivered', 'invoice.partially_paid', 'invoice.partially_paid', 'invoice.paid',
    ]);
  });

  test('an amount equal to the balance pays in full; more is INV03 and changes nothing', async ({ s }) => {
    const inv = await s.create({ items: [{ description: 'x', unit_amount: 1000 }] });
    await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: 400 });
    const over = await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: 601 });
    expectError(over, 400, 'INV03');
    expect(over.body.errors[0].message).toContain('(600)');
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ amount_paid: 400, status: 'partially_paid' });
    expect((await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: 600 })).body).toMatchObject({ status: 'paid', balance: 0 });
  });

  test.for([0, -5, 'abc', 1.5, '12.50'])('REQ01 for amount %s', async (amount, { s }) => {
    const inv = await s.create();
    const res = await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount });
    expectError(res, 400, 'REQ01');
    expect(res.body.errors[0].message).toContain('amount');
  });

  test('INV02 (409) for a paid or deleted invoice; 92000 for an unknown one', async ({ s }) => {
    const paid = await s.create();
    await s.api.post(`/invoices/${paid.id}/mark_as_paid`);
    expectError(await s.api.post(`/invoices/${paid.id}/mark_as_paid`, { amount: 1 }), 409, 'INV02');
    const deleted = await s.create();
    await s.api.del(`/invoices/${deleted.id}`);
    expectError(await s.api.post(`/invoices/${deleted.id}/mark_as_paid`), 409, 'INV02');
    expectError(await s.api.post('/invoices/0123456789abcdef/mark_as_paid'), 404, '92000');
  });

  test('concurrent payments never exceed the total', async ({ s }) => {
    const inv = await s.create({ items: [{ description: 'x', unit_amount: 1000 }] });
    const results = await Promise.all([600, 600, 600].map((amount) => s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ amount_paid: 600, balance: 400 });
  });

  test('Idempotency-Key: a retried payment is recorded once', async ({ s }) => {
    const inv = await s.create({ items: [{ description: 'x', unit_amount: 1000 }] });
    const headers = { 'idempotency-key': `pay-${inv.id}` };
    await s.api.post(`/invoices/${inv.id}/mark_as_paid`, { amount: 300 }, s.gw.merchant.test.private_key, headers);
    // The replay header is read, and the QA client answers no headers: a direct inject.
    const again = await s.gw.app.inject({
      method: 'POST', url: `/api/v1/invoices/${inv.id}/mark_as_paid`, headers: { ...basic(s.gw.merchant.test.private_key), ...headers },
      payload: { amount: 300 },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await s.api.get(`/invoices/${inv.id}`)).body).toMatchObject({ amount_paid: 300 });
  });
});

test('the state table: every (state, action) pair answers as documented', async ({ s }) => {
  // state → how to reach it
  const reach: Record<string, () => Promise<string>> = {
    unpaid: async () => (await s.create()).id,
    partially_paid: async () => { const id = (await s.create()).id; await s.api.post(`/invoices/${id}/mark_as_paid`, { amount: 1 }); return id; },
    paid: async () => { const id = (await s.create()).id; await s.api.post(`/invoices/${id}/mark_as_paid`); return id; },
    deleted: async () => { const id = (await s.create()).id; await s.api.del(`/invoices/${id}`); return id; },
  };
  const actions: Record<string, (id: string) => Promise<ApiResponse<any>>> = {
    update: (id) => s.api.post(`/invoices/${id}`, { memo: 'm' }),
    pay_part: (id) => s.api.post(`/invoices/${id}/mark_as_paid`, { amount: 1 }),
    pay_rest: (id) => s.api.post(`/invoices/${id}/mark_as_paid`),
    deliver: (id) => s.api.post(`/invoices/${id}/deliver`),
    delete: (id) => s.api.del(`/invoices/${id}`),
  };
  const expected: Record<string, Record<string, string>> = {
    unpaid: { update: 'unpaid', pay_part: 'partially_paid', pay_rest: 'paid', deliver: 'unpaid', delete: 'deleted' },
    partially_paid: { update: 'INV01', pay_part: 'partially_paid', pay_rest: 'paid', deliver: 'partially_paid', delete: '92008' },
    paid: { update: 'INV01', pay_part: 'INV02', pay_rest: 'INV02', deliver: 'paid', delete: '92007' },
    deleted: { update: 'INV01', pay_part: 'INV02', pay_rest: 'INV02', deliver: '92002', delete: '92008' },
  };
  const seen: Record<string, Record<string, string>> = {};
  for (const state of Object.keys(reach)) {
    seen[state] = {};
    for (const [name, act] of Object.entries(actions)) {
      const id = await reach[state]();
      const res = await act(id);
      seen[state][name] = res.status === 200 ? (await s.api.get(`/invoices/${id}`)).body.status : res.body.errors[0].code;
    }
  }
  expect(seen).toEqual(expected);
});
