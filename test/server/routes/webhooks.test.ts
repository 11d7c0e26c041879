import { EVENT_TYPES } from '../../../server/domain/events/events.js';
import { Api, api, testApi } from '../jobs/webhooks-fixtures.js';
import { basic, describe, expect, expectError, test as base } from '../../fixtures.js';

// Rules, strategies and their relations (spec 4.10): shapes, every error code, isolation.

/** The gateway fixture, plus `a`: the webhook calls of webhooks-fixtures.ts as the gateway's merchant in test mode. */
const test = base.extend<{ a: Api }>({ a: [async ({ gateway }, use) => use(testApi(gateway, gateway.merchant)), { scope: 'file' }] });


const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const rule = (a: Api, body: object = { event_resource: 'transaction' }) => a.ok('POST', '/webhooks/rules', body);
const strategy = (a: Api, body: object = { mode: 'webhook', url: 'https://example.com/hooks' }) => a.ok('POST', '/webhooks/strategies', body);

describe('event catalogue', () => {
  test('GET /webhooks/event_types publishes every resource and its event types', async ({ a }) => {
    const cat = await a.ok('GET', '/webhooks/event_types');
    expect(cat.class).toBe('event_catalogue');
    expect(cat.resources).toEqual(Object.entries(EVENT_TYPES).map(([resource, types]) => ({ resource, event_types: [...types] })));
    expect(cat.resources.map((r: any) => r.resource)).toEqual(expect.arrayContaining(['transaction', 'customer', 'subscription', 'invoice']));
  });

  test('needs the private key', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ url: '/api/v1/webhooks/event_types', headers: basic(gw.merchant.test.public_key) });
    await expectError(res, 403, 'AUTH02');
    await expectError(await gw.app.inject({ url: '/api/v1/webhooks/rules' }), 401, 'AUTH01');
  });
});

describe('rules', () => {
  test('POST /webhooks/rules creates a rule; GET reads it back', async ({ a }) => {
    const r = await rule(a, {
      event_resource: 'transaction', event_types: ['transaction.failed', 'created'],
      constraints: [{ field: 'amount_settled', operator: 'gte', value: 10000 }, { field: 'status', operator: '=', value: 'SETTLED' }],
    });
    expect(r).toEqual({
      class: 'webhook_rule', id: expect.stringMatching(/^rule_[0-9a-f]{16}$/), event_resource: 'transaction',
      event_types: ['transaction.created', 'transaction.failed'], // catalogue order, full names
      constraints: [{ field: 'amount_settled', operator: 'gte', value: 10000 }, { field: 'status', operator: 'eq', value: 'SETTLED' }],
      strategies: [], created_at: expect.stringMatching(TIME), updated_at: expect.stringMatching(TIME),
    });
    expect(await a.ok('GET', `/webhooks/rules/${r.id}`)).toEqual(r);
  });

  test('event_types as JSON-encoded text is checked as the body is: 5,000 levels deep or a NUL is 400 REQ01 (was a 500); an unknown item is quoted short', async ({ gateway: gw }) => {
    const rules = async () => (await gw.db.query('SELECT count(*)::int AS n FROM webhook_rules WHERE merchant_id = $1', [gw.merchant.id]))[0].n;
    const before = await rules();
    const post = (event_types: unknown) => gw.app.inject({
      method: 'POST', url: '/api/v1/webhooks/rules', headers: basic(gw.merchant.test.private_key), payload: { event_resource: 'transaction', event_types },
    });
    expectError(await post('['.repeat(5000) + ']'.repeat(5000)), 400, 'REQ01');
    expectError(await post('["created\u0000"]'), 400, 'REQ01');
    const long = await post(JSON.stringify([[['x'.repeat(5000)]]]));
    expectError(long, 400, 'WEBHOOK01');
    expect(long.json().errors[0].message.length).toBeLessThan(400);
    expect(await rules()).toBe(before);
  });

  test('event_types and constraints are optional: every event of the resource', async ({ a }) => {
    const r = await rule(a, { event_resource: 'customer' });
    expect(r).toMatchObject({ event_resource: 'customer', event_types: [], constraints: [] });
  });

  test('form-encoded bodies work, with nested constraint keys and a comma-separated type list', async ({ gateway: gw }) => {
    const res = await gw.app.inject({
      method: 'POST', url: '/api/v1/webhooks/rules', headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'event_resource=transaction&event_types=created,refunded&constraints[0][field]=metadata.plan&constraints[0][operator]=in'
        + '&constraints[0][value][]=gold&constraints[0][value][]=silver&constraints[1][field]=amount_settled&constraints[1][operator]=gt&constraints[1][value]=500',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      event_types: ['transaction.created', 'transaction.refunded'],
      constraints: [{ field: 'metadata.plan', operator: 'in', value: ['gold', 'silver'] }, { field: 'amount_settled', operator: 'gt', value: '500' }],
    });
  });

  test('constraints as a JSON-encoded string', async ({ a }) => {
    const r = await rule(a, { event_resource: 'invoice', constraints: JSON.stringify([{ field: 'status', operator: 'eq', value: 'paid' }]) });
    expect(r.constraints).toEqual([{ field: 'status', operator: 'eq', value: 'paid' }]);
  });

  test('event_resource: missing or unknown is a clear 400 naming the resources', async ({ a }) => {
    await expectError(await a.post('/webhooks/rules', {}), 400, 'WEBHOOK01', /event_resource is required; one of transaction, customer/);
    await expectError(await a.post('/webhooks/rules', { event_resource: 'charges' }), 400, 'WEBHOOK01', /must be one of transaction, customer, subscription/);
    await expectError(await a.post('/webhooks/rules', { event_resource: '__proto__' }), 400, 'WEBHOOK01');
    await expectError(await a.post('/webhooks/rules', { event_resource: { x: 1 } }), 400, 'WEBHOOK01');
  });

  test('event_types must belong to the resource', async ({ a }) => {
    await expectError(await a.post('/webhooks/rules', { event_resource: 'transaction', event_types: ['customer.created'] }), 400, 'WEBHOOK01',
      /"customer.created" is not an event of transaction; its events are transaction.created, transaction.failed, transaction.refunded/);
    await expectError(await a.post('/webhooks/rules', { event_resource: 'transaction', event_types: ['exploded'] }), 400, 'WEBHOOK01');
    await expectError(await a.post('/webhooks/rules', { event_resource: 'transaction', event_types: 7 }), 400, 'REQ01');
  });

  test('bad constraints are REQ01 naming the item', async ({ a }) => {
    await expectError(await a.post('/webhooks/rules', { event_resource: 'transaction', constraints: [{ field: 'amount', operator: 'like', value: 1 }] }),
      400, 'REQ01', /constraints\[0\]: operator must be one of/);
    await expectError(await a.post('/webhooks/rules', { event_resource: 'transaction', constraints: 'nope' }), 400, 'REQ01', /constraints/);
  });

  test('GET of an unknown, malformed or deleted rule is 100001', async ({ a }) => {
    await expectError(await a.get('/webhooks/rules/rule_0000000000000000'), 404, '100001', /rule not found/);
    await expectError(await a.get('/webhooks/rules/anything'), 404, '100001');
    const r = await rule(a);
    expect(await a.ok('DELETE', `/webhooks/rules/${r.id}`)).toEqual({ success: true });
    await expectError(await a.get(`/webhooks/rules/${r.id}`), 404, '100001');
  });

  test('PUT /webhooks/rule/:id (singular, as the spec writes it) and /webhooks/rules/:id update the fields given', async ({ gateway: gw, a }) => {
    const r = await rule(a, { event_resource: 'transaction', event_types: ['failed'], constraints: [{ field: 'amount_failed', operator: 'gt', value: 0 }] });
    gw.clock.advance(1000);
    const u1 = await a.ok('PUT', `/webhooks/rule/${r.id}`, { constraints: [{ field: 'amount_failed', operator: 'gte', value: 5000 }] });
    expect(u1).toMatchObject({ id: r.id, event_resource: 'transaction', event_types: ['transaction.failed'], constraints: [{ operator: 'gte', value: 5000 }] });
    expect(new Date(u1.updated_at).getTime()).toBeGreaterThan(new Date(r.updated_at).getTime());
    expect(u1.created_at).toBe(r.created_at);
    // A new resource without event_types: every type of the new resource.
    const u2 = await a.ok('PUT', `/webhooks/rules/${r.id}`, { event_resource: 'invoice' });
    expect(u2).toMatchObject({ event_resource: 'invoice', event_types: [], constraints: [{ field: 'amount_failed' }] });
    const u3 = await a.ok('PUT', `/webhooks/rule/${r.id}`, { event_resource: 'invoice', event_types: ['paid'], constraints: [] });
    expect(u3).toMatchObject({ event_types: ['invoice.paid'], constraints: [] });
    expect(await a.ok('GET', `/webhooks/rules/${r.id}`)).toEqual(u3);
  });

  test('PUT errors: 100001 for an unknown rule; bad fields change nothing', async ({ a }) => {
    await expectError(await a.put('/webhooks/rule/rule_0000000000000000', { event_resource: 'transaction' }), 404, '100001');
    await expectError(await a.put('/webhooks/rules/nope', { event_resource: 'transaction' }), 404, '100001');
    const r = await rule(a, { event_resource: 'transaction', event_types: ['created'] });
    await expectError(await a.put(`/webhooks/rule/${r.id}`, { event_resource: 'plans' }), 400, 'WEBHOOK01');
    await expectError(await a.put(`/webhooks/rule/${r.id}`, { event_types: ['invoice.paid'] }), 400, 'WEBHOOK01');
    await expectError(await a.put(`/webhooks/rule/${r.id}`, { constraints: [{}] }), 400, 'REQ01');
    expect(await a.ok('GET', `/webhooks/rules/${r.id}`)).toEqual(r);
  });

  test('DELETE answers {success: true}; a second delete is 100001', async ({ a }) => {
    const r = await rule(a);
    expect(await a.ok('DELETE', `/webhooks/rules/${r.id}`)).toEqual({ success: true });
    await expectError(await a.del(`/webhooks/rules/${r.id}`), 404, '100001');
    await expectError(await a.del('/webhooks/rules/x'), 404, '100001');
  });

  test('GET /webhooks/rules lists newest first in the list envelope', async ({ gateway: gw }) => {
    const fresh = await gw.newMerchant();
    const b = testApi(gw, fresh);
    const ids = [];
    for (const res of ['transaction', 'customer', 'invoice']) ids.push((await b.ok('POST', '/webhooks/rules', { event_resource: res })).id);
    const page = await b.ok('GET', '/webhooks/rules?limit=2');
    expect(page.meta).toEqual({ limit: 2, offset: 0, total_results: 3 });
    expect(page.list.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    expect((await b.ok('GET', '/webhooks/rules?limit=2&offset=2')).list.map((r: any) => r.id)).toEqual([ids[0]]);
    await expectError(await b.get('/webhooks/rules?limit=0'), 400, 'PAGE01');
  });
});

describe('strategies', () => {
  test('POST /webhooks/strategies with mode webhook, email, sms; GET reads back', async ({ a }) => {
    const w = await strategy(a, { mode: 'webhook', url: 'https://example.com/hooks?x=1' });
    expect(w).toEqual({
      class: 'webhook_strategy', id: expect.stringMatching(/^strat_[0-9a-f]{16}$/), mode: 'webhook', url: 'https://example.com/hooks?x=1',
      email_address: null, phone_number: null, rules: [], created_at: expect.stringMatching(TIME), updated_at: expect.stringMatching(TIME),
    });
    const e = await strategy(a, { mode: 'email', email_address: 'ops@example.com' });
    expect(e).toMatchObject({ mode: 'email', email_address: 'ops@example.com', url: null, phone_number: null });
    const s = await strategy(a, { mode: 'SMS', phone_number: '+1 (555) 010-2000' });
    expect(s).toMatchObject({ mode: 'sms', phone_number: '+15550102000', url: null, email_address: null });
    // `email` and `phone` are accepted for the targets too.
    expect(await strategy(a, { mode: 'email', email: 'x@example.org' })).toMatchObject({ email_address: 'x@example.org' });
    expect(await strategy(a, { mode: 'sms', phone: '5550103000' })).toMatchObject({ phone_number: '5550103000' });
    for (const x of [w, e, s]) expect(await a.ok('GET', `/webhooks/strategies/${x.id}`)).toEqual(x);
  });

  test('mode and target are validated', async ({ a }) => {
    await expectError(await a.post('/webhooks/strategies', {}), 400, 'REQ01', /mode must be one of webhook, email, sms/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'pigeon' }), 400, 'REQ01', /mode must be one of/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'webhook' }), 400, 'REQ01', /url is required/);
    for (const url of ['not a url', 'ftp://example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', '/relative/path']) {
      await expectError(await a.post('/webhooks/strategies', { mode: 'webhook', url }), 400, 'REQ01', /http or https/);
    }
    await expectError(await a.post('/webhooks/strategies', { mode: 'webhook', url: 'https://user:pw@example.com/' }), 400, 'REQ01', /credentials/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'webhook', url: `https://example.com/${'x'.repeat(2100)}` }), 400, 'REQ01', /2048/);
    // Within 2,048 as sent, 9 times that percent-encoded as it would be stored.
    await expectError(await a.post('/webhooks/strategies', { mode: 'webhook', url: `https://example.com/${'€'.repeat(2020)}` }), 400, 'REQ01', /2048/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'email' }), 400, 'REQ01', /email_address is required/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'email', email_address: 'nope' }), 400, 'REQ01', /not a valid email/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'sms' }), 400, 'REQ01', /phone_number is required/);
    await expectError(await a.post('/webhooks/strategies', { mode: 'sms', phone_number: '12' }), 400, 'REQ01', /7 to 15 digits/);
  });

  test('live mode requires https', async ({ gateway: gw }) => {
    const live = api(gw, gw.merchant.live.private_key);
    await expectError(await live.post('/webhooks/strategies', { mode: 'webhook', url: 'http://example.com/h' }), 400, 'REQ01', /https in live mode/);
    expect((await live.ok('POST', '/webhooks/strategies', { mode: 'webhook', url: 'https://example.com/h' })).url).toBe('https://example.com/h');
  });

  test('GET/PUT/DELETE of an unknown strategy are 200007', async ({ a }) => {
    await expectError(await a.get('/webhooks/strategies/strat_0000000000000000'), 404, '200007', /strategy not found/);
    await expectError(await a.get('/webhooks/strategies/whatever'), 404, '200007');
    await expectError(await a.put('/webhooks/strategies/strat_0000000000000000', { mode: 'sms', phone_number: '5550100000' }), 404, '200007');
    await expectError(await a.del('/webhooks/strategies/strat_0000000000000000'), 404, '200007');
  });

  test('PUT changes the target, or the mode with its new target; other targets clear', async ({ a }) => {
    const s = await strategy(a, { mode: 'webhook', url: 'https://example.com/a' });
    expect(await a.ok('PUT', `/webhooks/strategies/${s.id}`, { url: 'https://example.com/b' })).toMatchObject({ mode: 'webhook', url: 'https://example.com/b' });
    await expectError(await a.put(`/webhooks/strategies/${s.id}`, { mode: 'sms' }), 400, 'REQ01', /phone_number is required/);
    const sms = await a.ok('PUT', `/webhooks/strategies/${s.id}`, { mode: 'sms', phone_number: '555-010-4000' });
    expect(sms).toMatchObject({ id: s.id, mode: 'sms', phone_number: '5550104000', url: null, email_address: null });
    // Unchanged mode, no target: the target stays.
    expect(await a.ok('PUT', `/webhooks/strategies/${s.id}`, { mode: 'sms' })).toMatchObject({ phone_number: '5550104000' });
    await expectError(await a.put(`/webhooks/strategies/${s.id}`, { mode: 'carrier' }), 400, 'REQ01');
    await expectError(await a.put(`/webhooks/strategies/${s.id}`, { phone_number: 'x' }), 400, 'REQ01');
  });

  test('DELETE answers {success: true}, then 200007', async ({ a }) => {
    const s = await strategy(a);
    expect(await a.ok('DELETE', `/webhooks/strategies/${s.id}`)).toEqual({ success: true });
    await expectError(await a.get(`/webhooks/strategies/${s.id}`), 404, '200007');
    await expectError(await a.del(`/webhooks/strategies/${s.id}`), 404, '200007');
  });

  test('GET /webhooks/strategies lists newest first', async ({ gateway: gw }) => {
    const fresh = await gw.newMerchant();
    const b = testApi(gw, fresh);
    const one = await b.ok('POST', '/webhooks/strategies', { mode: 'email', email_address: 'a@example.com' });
    const two = await b.ok('POST', '/webhooks/strategies', { mode: 'sms', phone_number: '5550100001' });
    const page = await b.ok('GET', '/webhooks/strategies');
    expect(page).toEqual({ list: [two, one], meta: { limit: 10, offset: 0, total_results: 2 } });
  });
});

describe('relations', () => {
  test('POST /webhooks/rules/:rule_id/strategies relates; both records show it; relating twice is harmless', async ({ gateway: gw, a }) => {
    const r = await rule(a);
    const s1 = await strategy(a);
    const s2 = await strategy(a, { mode: 'email', email_address: 'ops@example.com' });
    const rel = await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s1.id });
    expect(rel).toEqual({ class: 'webhook_relation', rule_id: r.id, strategy_id: s1.id, created_at: expect.stringMatching(TIME) });
    gw.clock.advance(10);
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s2.id });
    expect(await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s1.id })).toEqual(rel);
    expect((await a.ok('GET', `/webhooks/rules/${r.id}`)).strategies).toEqual([s1.id, s2.id]);
    expect((await a.ok('GET', `/webhooks/strategies/${s1.id}`)).rules).toEqual([r.id]);
  });

  test('relation errors: 100001 for the rule, 200007 for the strategy, REQ01 without strategy_id', async ({ a }) => {
    const r = await rule(a);
    const s = await strategy(a);
    await expectError(await a.post('/webhooks/rules/rule_0000000000000000/strategies', { strategy_id: s.id }), 404, '100001');
    await expectError(await a.post(`/webhooks/rules/${r.id}/strategies`, { strategy_id: 'strat_0000000000000000' }), 404, '200007');
    await expectError(await a.post(`/webhooks/rules/${r.id}/strategies`, { strategy_id: 12 }), 404, '200007');
    await expectError(await a.post(`/webhooks/rules/${r.id}/strategies`, {}), 400, 'REQ01', /strategy_id is required/);
  });

  test('DELETE /webhooks/rules/:rule_id/strategies/:strategy_id: success, then 200007; 100001 / 200007 for unknown sides', async ({ a }) => {
    const r = await rule(a);
    const s = await strategy(a);
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    expect(await a.ok('DELETE', `/webhooks/rules/${r.id}/strategies/${s.id}`)).toEqual({ success: true });
    expect((await a.ok('GET', `/webhooks/rules/${r.id}`)).strategies).toEqual([]);
    await expectError(await a.del(`/webhooks/rules/${r.id}/strategies/${s.id}`), 404, '200007', /not related/);
    await expectError(await a.del(`/webhooks/rules/rule_0000000000000000/strategies/${s.id}`), 404, '100001');
    await expectError(await a.del(`/webhooks/rules/${r.id}/strategies/strat_0000000000000000`), 404, '200007');
    // The rule is checked first: both unknown is 100001.
    await expectError(await a.del('/webhooks/rules/nope/strategies/nope'), 404, '100001');
  });

  test('deleting a strategy or a rule drops its relations', async ({ a }) => {
    const r = await rule(a);
    const s = await strategy(a);
    const keep = await strategy(a);
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: keep.id });
    await a.ok('DELETE', `/webhooks/strategies/${s.id}`);
    expect((await a.ok('GET', `/webhooks/rules/${r.id}`)).strategies).toEqual([keep.id]);
    await a.ok('DELETE', `/webhooks/rules/${r.id}`);
    expect((await a.ok('GET', `/webhooks/strategies/${keep.id}`)).rules).toEqual([]);
  });
});

describe('isolation across merchants and environments', () => {
  test('another merchant, or the other environment, sees none of these records', async ({ gateway: gw, a }) => {
    const r = await rule(a);
    const s = await strategy(a);
    await a.ok('POST', `/webhooks/rules/${r.id}/strategies`, { strategy_id: s.id });
    for (const key of [gw.other.test.private_key, gw.merchant.live.private_key]) {
      const b = api(gw, key);
      await expectError(await b.get(`/webhooks/rules/${r.id}`), 404, '100001');
      await expectError(await b.put(`/webhooks/rule/${r.id}`, { event_resource: 'customer' }), 404, '100001');
      await expectError(await b.del(`/webhooks/rules/${r.id}`), 404, '100001');
      await expectError(await b.get(`/webhooks/strategies/${s.id}`), 404, '200007');
      await expectError(await b.put(`/webhooks/strategies/${s.id}`, { url: 'https://evil.example/' }), 404, '200007');
      await expectError(await b.del(`/webhooks/strategies/${s.id}`), 404, '200007');
      await expectError(await b.del(`/webhooks/rules/${r.id}/strategies/${s.id}`), 404, '100001');
      // Their own rule cannot be related to this strategy.
      const theirs = await b.ok('POST', '/webhooks/rules', { event_resource: 'transaction' });
      await expectError(await b.post(`/webhooks/rules/${theirs.id}/strategies`, { strategy_id: s.id }), 404, '200007');
      const lists = [await b.ok('GET', '/webhooks/rules?limit=100'), await b.ok('GET', '/webhooks/strategies?limit=100')];
      const ids = lists.flatMap((l) => l.list.map((x: any) => x.id));
      expect(ids).not.toContain(r.id);
      expect(ids).not.toContain(s.id);
    }
    expect(await a.ok('GET', `/webhooks/rules/${r.id}`)).toMatchObject({ event_resource: 'transaction', strategies: [s.id] });
    expect(await a.ok('GET', `/webhooks/strategies/${s.id}`)).toMatchObject({ url: 'https://example.com/hooks' });
  });
});

describe('signing secret', () => {
  test('GET /webhooks/secret shows the scope\'s secret (made on first read); rotate replaces it', async ({ gateway: gw, a }) => {
    const first = await a.ok('GET', '/webhooks/secret');
    expect(first).toEqual({
      class: 'webhook_secret', env: 'test', secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), created_at: expect.stringMatching(TIME),
      previous_secret_expires_at: null,
    });
    expect(await a.ok('GET', '/webhooks/secret')).toEqual(first);
    const live = await api(gw, gw.merchant.live.private_key).ok('GET', '/webhooks/secret');
    const other = await api(gw, gw.other.test.private_key).ok('GET', '/webhooks/secret');
    expect(new Set([first.secret, live.secret, other.secret]).size).toBe(3);
    const rotated = await a.ok('POST', '/webhooks/secret/rotate');
    expect(rotated.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.secret).not.toBe(first.secret);
    expect(await a.ok('GET', '/webhooks/secret')).toEqual(rotated);
    expect((await api(gw, gw.merchant.live.private_key).ok('GET', '/webhooks/secret')).secret).toBe(live.secret);
    // Kept encrypted, the overlapping old one too.
    await a.ok('POST', '/webhooks/secret/rotate', { expire_old: '1h' });
    const rows = await gw.db.query('SELECT secret_enc, previous_secret_enc FROM webhook_secrets WHERE merchant_id = $1', [gw.merchant.id]);
    expect(rows.some((r) => r.previous_secret_enc)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(rotated.secret);
    expect(JSON.stringify(rows)).not.toContain(first.secret);
  });

  test('rotation ignores Idempotency-Key: the secret never lands in the stored answers', async ({ gateway: gw }) => {
    const headers = { ...basic(gw.merchant.test.private_key), 'idempotency-key': 'rotate-1' };
    const one = await gw.app.inject({ method: 'POST', url: '/api/v1/webhooks/secret/rotate', headers });
    const two = await gw.app.inject({ method: 'POST', url: '/api/v1/webhooks/secret/rotate', headers });
    expect(one.statusCode).toBe(200);
    expect(two.headers['idempotent-replayed']).toBeUndefined();
    expect(two.json().secret).not.toBe(one.json().secret);
    const stored = await gw.db.query('SELECT * FROM idempotency_keys WHERE merchant_id = $1', [gw.merchant.id]);
    expect(JSON.stringify(stored)).not.toContain(one.json().secret);
    expect(JSON.stringify(stored)).not.toContain(two.json().secret);
  });

  test('a public key cannot read it', async ({ gateway: gw }) => {
    await expectError(await gw.app.inject({ url: '/api/v1/webhooks/secret', headers: basic(gw.merchant.test.public_key) }), 403, 'AUTH02');
  });
});
