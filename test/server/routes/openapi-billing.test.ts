import { api, code } from './billings-fixtures.js';
import { test as base, describe, expect } from '../../fixtures.js';

// Billing and invoices read their bodies and queries with field tables (schemas/plans.ts,
// subscriptions.ts, billings.ts, scheduled.ts, invoices.ts): the document shows each body closed
// with its required fields, and the server still answers a request's faults in the order it always
// did, those a table reads `later` after the lookups that came first.

const test = base.extend<{ doc: any; calls: ReturnType<typeof api> }>({
  doc: [async ({ gateway }, use) => use((await gateway.app.inject({ url: '/api/v1/openapi.json' })).json()), { scope: 'file' }],
  calls: [async ({ gateway }, use) => use(api(gateway)), { scope: 'file' }],
});

const bodyOf = (doc: any, path: string) => {
  const rb = doc.paths[path].post.requestBody;
  return { required: rb.required, schema: rb.content['application/json'].schema };
};
const queryOf = (doc: any, path: string) =>
  Object.fromEntries((doc.paths[path].get.parameters as any[]).filter((p) => p.in === 'query').map((p) => [p.name, p]));

describe('the document', () => {
  test.for<[string, string[], string[]]>([
    ['/plans', ['name', 'frequency', 'amount'], ['day', 'callback_url']],
    ['/plans/{id}/subscription/{customer_id}', [], ['amount', 'method_id', 'charge_bank_account', 'ends_after', 'bill_immediately', 'metadata']],
    ['/subscriptions/{id}', [], ['amount', 'method_id', 'ends_after', 'metadata']],
    ['/billings/retry', ['id'], []],
    ['/scheduled_transactions', ['amount', 'bill_on'], ['customer_id', 'token', 'description', 'email_address', 'phone_number', 'phone', 'cvv']],
    ['/invoices', [], ['items', 'amount', 'customer_email', 'customer_state', 'due_date', 'memo', 'metadata', 'customer_id']],
    ['/invoices/{id}/mark_as_paid', [], ['amount']],
  ])('POST %s: closed, requiring %j', async ([path, required, optional], { doc }) => {
    const { schema } = bodyOf(doc, path);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required ?? []).toEqual(required);
    for (const f of [...required, ...optional]) expect(schema.properties, f).toHaveProperty(f);
  });

  test('limits and formats: the plan name and frequency, ends_after, a scheduled day, invoice lines', async ({ doc }) => {
    const plan = bodyOf(doc, '/plans').schema.properties;
    expect(plan.name).toMatchObject({ type: 'string', maxLength: 255 });
    expect(plan.frequency.enum).toEqual(['daily', 'weekly', 'monthly', 'quarterly', 'yearly']);
    expect(plan.amount).toMatchObject({ type: 'integer', minimum: 1 });
    expect(bodyOf(doc, '/plans').required).toBe(true);
    expect(bodyOf(doc, '/plans/{id}/subscription/{customer_id}').schema.properties.ends_after).toMatchObject({ maximum: 100_000 });
    const sched = bodyOf(doc, '/scheduled_transactions').schema.properties;
    expect(sched.bill_on).toMatchObject({ type: 'string', format: 'date' });
    expect(sched.description).toMatchObject({ maxLength: 1000 });
    const inv = bodyOf(doc, '/invoices').schema.properties;
    expect(inv.items).toMatchObject({ type: 'array', maxItems: 100, items: { required: ['description', 'unit_amount'] } });
    expect(inv.memo).toMatchObject({ maxLength: 2000 });
  });

  test('list queries: pages, the billing filters, the invoice status', async ({ doc }) => {
    expect(Object.keys(queryOf(doc, '/plans'))).toEqual(['limit', 'offset']);
    expect(queryOf(doc, '/plans').limit.schema.default).toBeUndefined(); // every plan without a limit
    expect(Object.keys(queryOf(doc, '/subscriptions'))).toEqual(['limit', 'offset']);
    expect(Object.keys(queryOf(doc, '/billings'))).toEqual(['limit', 'offset', 'subscription_id', 'plan_id', 'customer_id', 'status']);
    expect(Object.keys(queryOf(doc, '/scheduled_transactions'))).toEqual(['limit', 'offset']);
    expect(Object.keys(queryOf(doc, '/invoices'))).toEqual(['limit', 'offset', 'status']);
  });
});

describe('read leniently, faults in their order', () => {
  test('an unknown field is ignored', async ({ calls: a }) => {
    const p = await a.plan({ shipping_note: 'x' });
    expect((await a.post(`/plans/${p.id}/subscription/${(await a.customer()).id}`, { colour: 'blue' })).status).toBe(200);
  });

  test('a subscription answers the missing plan, customer or subscription before a bad field', async ({ calls: a }) => {
    const c = await a.customer();
    expect(code(await a.post(`/plans/999999/subscription/${c.id}`, { amount: 'ten', ends_after: -1 }))).toBe('PLAN01');
    const p = await a.plan();
    expect(code(await a.post(`/plans/${p.id}/subscription/nobody`, { amount: 'ten' }))).toBe('17001');
    expect(code(await a.post(`/plans/${p.id}/subscription/${c.id}`, { amount: 'ten', ends_after: -1 }))).toBe('59112');
    expect(code(await a.post(`/plans/${p.id}/subscription/${c.id}`, { ends_after: -1, bill_immediately: 'maybe' }))).toBe('REQ01');
    expect((await a.post(`/plans/${p.id}/subscription/${c.id}`, { ends_after: -1 })).body.errors[0].message).toMatch(/^ends_after/);
    expect(code(await a.post('/subscriptions/999999', { amount: 'ten' }))).toBe('SUB02');
  });

  test('a plan: frequency, then name, then amount, then day', async ({ calls: a }) => {
    const msg = async (body: Record<string, unknown>) => (await a.post('/plans', body)).body.errors[0];
    expect(await msg({ frequency: 'hourly', name: '', amount: 'x', day: 40 })).toMatchObject({ code: 'REQ01', message: expect.stringMatching(/^frequency/) });
    expect(await msg({ frequency: 'weekly', name: '', amount: 'x', day: 40 })).toMatchObject({ code: 'REQ01', message: expect.stringMatching(/^name/) });
    expect(await msg({ frequency: 'weekly', name: 'P', amount: 'x', day: 40 })).toMatchObject({ code: '59112' });
    expect(await msg({ frequency: 'weekly', name: 'P', amount: 5, day: 40 })).toMatchObject({ code: 'REQ01', message: expect.stringMatching(/^day must be a weekday/) });
    expect(await msg({ frequency: 'weekly', name: 'P', amount: 5, day: { a: 1 } })).toMatchObject({ code: 'REQ01', message: 'day must be a whole number' });
  });

  test('a scheduled transaction: bill_on ahead is checked before the fields after it', async ({ calls: a }) => {
    const c = await a.customer();
    const res = await a.post('/scheduled_transactions', { customer_id: c.id, amount: 5, bill_on: '2020-01-01', description: 'x'.repeat(1001), send_receipt: 'maybe' });
    expect(res.body.errors[0].message).toMatch(/^bill_on must be today/);
    const long = await a.post('/scheduled_transactions', { customer_id: c.id, amount: 5, bill_on: '2026-02-01', description: 'x'.repeat(1001), send_receipt: 'maybe' });
    expect(long.body.errors[0].message).toMatch(/^description/);
    // A token is not read when customer_id is sent.
    const ok = await a.post('/scheduled_transactions', { customer_id: c.id, token: { a: 1 }, amount: 5, bill_on: '2026-02-01', phone: '+15550100' });
    expect(ok.status).toBe(200);
    expect(ok.body.phone_number).toBe('+15550100');
  });

  test('an invoice update: its fields before the invoice is found, customer_id after', async ({ calls: a }) => {
    expect((await a.post('/invoices/nope', { due_date: '2026-02-30' })).body.errors[0].message).toMatch(/^due_date/);
    expect(code(await a.post('/invoices/nope', { customer_id: { a: 1 } }))).toBe('92000');
    expect(code(await a.post('/invoices/nope/mark_as_paid', { amount: 'x' }))).toBe('92000');
  });
});
