import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { verifyCallback, webhookSecret } from '../../../server/domain/merchant/signing.js';
import { LEASE_MS } from '../../../server/http/idempotency.js';
import { BILLING_TIME, DECLINING_CARD, isolated, jobDeps } from './billings-fixtures.js';
import { basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// The gateway clock starts at 2026-01-15T12:00:00Z (a Thursday). Every test uses a merchant of its
// own, so advancing its test clock moves no other test's time.

const when = (billings: any[]) => billings.map((b) => b.scheduled_for.slice(0, 10));

describe('billing calendars, run through the test clock', () => {
  test('weekly on Monday (day 1): the Mondays after the start', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'weekly', day: 1 })).id, (await a.customer()).id);
    expect(s.next_billing).toBe('2026-01-19T00:00:00.000Z');
    const out = await a.advance({ days: 21 });
    expect(out.ran).toMatchObject({ billings: 3, failed_billings: 0 });
    const b = await a.billings(s.id);
    expect(when(b)).toEqual(['2026-01-19', '2026-01-26', '2026-02-02']);
    expect(b.map((x) => x.created_at)).toEqual(['2026-01-19 00:00:00', '2026-01-26 00:00:00', '2026-02-02 00:00:00']);
    expect((await a.ok('GET', `/subscriptions/${s.id}`)).next_billing).toBe('2026-02-09T00:00:00.000Z');
  });

  test('monthly on the 31st through February: Jan 31, Feb 28, Mar 31, Apr 30', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'monthly', day: 31 })).id, (await a.customer()).id);
    await a.advance({ months: 4 });
    expect(when(await a.billings(s.id))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect((await a.ok('GET', `/subscriptions/${s.id}`))).toMatchObject({ billings_count: 4, next_billing: '2026-05-31T00:00:00.000Z' });
  });

  test('quarterly and yearly are anchored on the start date', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const c = await a.customer();
    const q = await a.subscribe((await a.plan({ frequency: 'quarterly' })).id, c.id);
    const y = await a.subscribe((await a.plan({ frequency: 'yearly' })).id, c.id);
    await a.advance({ months: 24 });
    expect(when(await a.billings(q.id))).toEqual([
      '2026-04-15', '2026-07-15', '2026-10-15', '2027-01-15', '2027-04-15', '2027-07-15', '2027-10-15', '2028-01-15',
    ]);
    expect(when(await a.billings(y.id))).toEqual(['2027-01-15', '2028-01-15']);
  });

  test('ends_after: that many billings, then `ended` and no more', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ frequency: 'daily' })).id, (await a.customer()).id, { ends_after: 3, bill_immediately: true });
    expect(s.billings_count).toBe(1);
    await a.advance({ days: 10 });
    expect(when(await a.billings(s.id))).toEqual(['2026-01-15', '2026-01-16', '2026-01-17']);
    expect(await a.ok('GET', `/subscriptions/${s.id}`)).toMatchObject({ status: 'ended', next_billing: null, billings_count: 3 });
    expect((await a.advance({ days: 10 })).ran.billings).toBe(0);
  });

  test('unsubscribed and deleted customers are not billed', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan({ frequency: 'daily' });
    const [kept, left, gone] = [await a.customer(), await a.customer(), await a.customer()];
    const sk = await a.subscribe(p.id, kept.id);
    const sl = await a.subscribe(p.id, left.id);
    const sg = await a.subscribe(p.id, gone.id);
    await a.advance({ days: 1 });
    await a.ok('DELETE', `/plans/${p.id}/subscription/${left.id}`);
    await a.ok('DELETE', `/customers/${gone.id}`);
    const out = await a.advance({ days: 5 });
    expect(out.ran.billings).toBe(5);
    expect((await a.billings(sk.id)).length).toBe(6);
    expect((await a.billings(sl.id)).length).toBe(1);
    expect((await a.billings(sg.id)).length).toBe(1);
  });
});

describe('billing records (spec 2.8)', () => {
  test('every field with its type; GET /billings/:id by transaction id; the charge is recurring', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const p = await a.plan({ amount: 1999 });
    const c = await a.customer({ company: 'Analytical Engines' });
    const s = await a.subscribe(p.id, c.id, { metadata: { seat: 7 } });
    await a.advance({ months: 1 });
    const [b] = await a.billings(s.id);
    expect(b).toEqual({
      class: 'billing', id: expect.any(Number), plan_id: p.id, subscription_id: s.id, merchant_id: m.id, customer_id: c.id,
      transaction_id: expect.stringMatching(/^[0-9a-f]{32}$/), transaction_status: 'submitted', amount: 1999,
      customer_display_name: 'Analytical Engines', metadata: '{"seat":7}', created_at: '2026-02-15 00:00:00',
      updated_at: '2026-02-15 00:00:00', status: 'success', parent_id: null, sequence: 1, scheduled_for: '2026-02-15 00:00:00',
      error_code: null, error_message: null,
    });
    expect(b.created_at).toMatch(BILLING_TIME);
    expect((await a.ok('GET', `/billings/${b.transaction_id}`))).toEqual(b);
    const charge = await a.ok('GET', `/charge/${b.transaction_id}`);
    expect(charge).toMatchObject({ source: 'subscription', recurring: true, amount_settled: 1999, metadata: { seat: 7 }, customer_id: c.id });
    expectError(await a.get('/billings/ffffffffffffffffffffffffffffffff'), 404, '11000');
    expectError(await a.get(`/billings/${b.transaction_id}`, gw.other.test.private_key), 404, '11000');
    expectError(await a.get(`/billings/${b.transaction_id}`, m.live.private_key), 404, '11000');
  });

  test('customer_display_name: company, else first and last name, else the card holder', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan({ frequency: 'daily' });
    const named = await a.customer({ first_name: 'Grace', last_name: 'Hopper' });
    const anonymous = await a.customer({ first_name: '', last_name: '' });
    const s1 = await a.subscribe(p.id, named.id, { bill_immediately: true });
    const s2 = await a.subscribe(p.id, anonymous.id, { bill_immediately: true });
    expect(s1.last_billing.customer_display_name).toBe('Grace Hopper');
    expect(s2.last_billing.customer_display_name).toBe(visa.card_owner_name);
  });

  test('GET /billings: newest first, filters by subscription, plan, customer and status', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan({ frequency: 'daily', amount: 90 }); // 90 cents: declined
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id);
    await a.subscribe((await a.plan({ frequency: 'daily' })).id, c.id);
    await a.advance({ days: 2 });
    const all = await a.ok('GET', '/billings');
    expect(all.meta.total_results).toBe(4);
    expect(all.list.map((b: any) => b.id)).toEqual([...all.list.map((b: any) => b.id)].sort((x: number, y: number) => y - x));
    expect((await a.ok('GET', `/billings?plan_id=${p.id}`)).list.every((b: any) => b.subscription_id === s.id)).toBe(true);
    expect((await a.ok('GET', '/billings?status=failed')).meta.total_results).toBe(2);
    expect((await a.ok('GET', `/billings?customer_id=${c.id}&status=success`)).meta.total_results).toBe(2);
    expectError(await a.get('/billings?plan_id=x'), 400, 'REQ01');
  });
});

describe('POST /billings/retry', () => {
  test('a declined billing is failed; a retry is a new billing with parent_id; once the amount is fixed it succeeds', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const p = await a.plan({ amount: 80 });
    const c = await a.customer();
    const s = await a.subscribe(p.id, c.id);
    await a.advance({ months: 1 });
    const [first] = await a.billings(s.id);
    expect(first).toMatchObject({ status: 'failed', transaction_status: 'declined', error_code: '99820', amount: 80 });
    expect(first.error_message).toEqual(expect.any(String));
    expect((await a.ok('GET', `/charge/${first.transaction_id}`))).toMatchObject({ status: 'DECLINED', successful: false });

    const again = await a.post('/billings/retry', { id: first.transaction_id });
    expect(again.status).toBe(200);
    const second = again.body;
    expect(second).toMatchObject({ status: 'failed', parent_id: first.id, sequence: 1, subscription_id: s.id, amount: 80 });
    expect(second.transaction_id).not.toBe(first.transaction_id);
    expect((await a.ok('GET', `/billings/${first.transaction_id}`)).status).toBe('retried');
    expectError(await a.post('/billings/retry', { id: first.transaction_id }), 409, '10212');

    await a.ok('POST', `/subscriptions/${s.id}`, { amount: 1500 });
    const third = await a.ok('POST', '/billings/retry', { id: second.transaction_id });
    expect(third).toMatchObject({ status: 'success', transaction_status: 'submitted', parent_id: second.id, amount: 1500, sequence: 1 });
    expectError(await a.post('/billings/retry', { id: third.transaction_id }), 409, '10212');
    expect(await a.ok('GET', `/subscriptions/${s.id}`)).toMatchObject({ billings_count: 1, next_billing: '2026-03-15T00:00:00.000Z' });
    expect((await a.billings(s.id)).map((b) => b.status)).toEqual(['retried', 'retried', 'success']);
  });

  test('a retry whose node died between commit and answer: the same Idempotency-Key answers the new billing, once', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const p = await a.plan({ amount: 80 });
    const s = await a.subscribe(p.id, (await a.customer()).id);
    await a.advance({ months: 1 });
    const [first] = await a.billings(s.id);
    const retry = () => gw.app.inject({
      method: 'POST', url: '/api/v1/billings/retry', payload: { id: first.transaction_id },
      headers: { ...basic(m.test.private_key), 'idempotency-key': 'retry-after-crash' },
    });
    const done = await retry();
    expect(done.statusCode).toBe(200);
    // What a node leaves when it dies after the commit: the claim names the record, no answer.
    await gw.db.query(`UPDATE idempotency_keys SET status_code = NULL, response = NULL, owner = 'gone', claimed_at = now() - $1::int * interval '1 millisecond' WHERE key = 'retry-after-crash'`,
      [LEASE_MS + 1]);
    const again = await retry();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(done.json());
    expect((await a.billings(s.id)).length).toBe(2);
  });

  test('a declining card replaced on the same method id: the retry succeeds', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const c = await a.customer({}, DECLINING_CARD);
    const s = await a.subscribe((await a.plan()).id, c.id);
    await a.advance({ months: 1 });
    const [failed] = await a.billings(s.id);
    expect(failed).toMatchObject({ status: 'failed', error_code: '99820' });
    const token = await tokenFor(gw, visa, m.test.public_key);
    await a.ok('POST', `/customers/${c.id}/methods/${c.default_method_id}`, { token });
    expect(await a.ok('POST', '/billings/retry', { id: failed.transaction_id })).toMatchObject({ status: 'success', parent_id: failed.id });
  });

  test('10210 for an unknown, missing or foreign id; 10212 for a successful billing', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan()).id, (await a.customer()).id, { bill_immediately: true });
    expectError(await a.post('/billings/retry', { id: s.last_billing.transaction_id }), 409, '10212');
    expectError(await a.post('/billings/retry', { id: 'f'.repeat(32) }), 404, '10210');
    expectError(await a.post('/billings/retry', {}), 404, '10210');
    expectError(await a.post('/billings/retry', { id: s.last_billing.transaction_id }, gw.other.test.private_key), 404, '10210');
  });

  test('concurrent retries of one failed billing: one charge, the others 10212', async ({ gateway: gw }) => {
    const { a } = await isolated(gw);
    const s = await a.subscribe((await a.plan({ amount: 75 })).id, (await a.customer()).id, { bill_immediately: true });
    const res = await Promise.all([1, 2, 3, 4].map(() => a.post('/billings/retry', { id: s.last_billing.transaction_id })));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await a.billings(s.id)).length).toBe(2);
  });

  test('no charge possible (the method lost its details): a failed billing with an `error` status; retry answers the error', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    const c = await a.customer();
    const s = await a.subscribe((await a.plan()).id, c.id);
    await gw.db.query('UPDATE payment_methods SET secret_enc = NULL WHERE merchant_id = $1 AND id = $2', [m.id, c.default_method_id]);
    expect((await a.advance({ months: 1 })).ran).toMatchObject({ billings: 0, failed_billings: 1 });
    const [b] = await a.billings(s.id);
    expect(b).toMatchObject({ status: 'failed', transaction_status: 'error', error_code: '34792' });
    expect(b.transaction_id).toMatch(/^[0-9a-f]{32}$/);
    expectError(await a.get(`/charge/${b.transaction_id}`), 404, '69404');
    expect((await a.ok('GET', `/billings/${b.transaction_id}`)).id).toBe(b.id);
    expectError(await a.post('/billings/retry', { id: b.transaction_id }), 400, '34792');
    expect((await a.ok('GET', `/billings/${b.transaction_id}`)).status).toBe('failed');
  });
});

describe('callback_url', () => {
  test('each billing is POSTed, signed (Tessera-Signature: t=…,v1=…); a failed delivery is retried with backoff', async ({ gateway: gw }) => {
    const received: { headers: Record<string, any>; body: string }[] = [];
    let status = 500;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(status).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { m, a } = await isolated(gw);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const s = await a.subscribe((await a.plan({ callback_url: url })).id, (await a.customer()).id);
      await a.advance({ months: 1 });
      const [billing] = await a.billings(s.id);
      const deps = jobDeps(gw);
      const t0 = gw.clock.now();

      expect(await deliverCallbacks(deps, t0)).toMatchObject({ claimed: 1, sent: 0, retrying: 1 });
      expect(await deliverCallbacks(deps, new Date(t0.getTime() + 29_000))).toMatchObject({ claimed: 0 });
      status = 204;
      expect(await deliverCallbacks(deps, new Date(t0.getTime() + 31_000))).toMatchObject({ claimed: 1, sent: 1 });
      expect(await deliverCallbacks(deps, new Date(t0.getTime() + 3600_000))).toMatchObject({ claimed: 0 });

      expect(received).toHaveLength(2);
      const last = received[1];
      expect(JSON.parse(last.body)).toEqual(billing);
      expect(last.headers['content-type']).toBe('application/json');
      expect(last.headers['tessera-attempt']).toBe('2');
      expect(last.headers['tessera-callback-id']).toBe(received[0].headers['tessera-callback-id']);
      const { secret } = await webhookSecret(gw.db, gw.vault, { merchantId: m.id, env: 'test' }, t0);
      expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      const header = String(last.headers['tessera-signature']);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const t = Math.floor((t0.getTime() + 31_000) / 1000);
      expect(verifyCallback(secret, header, last.body, t)).toBe(true);
      expect(verifyCallback(secret, header, last.body.replace('1500', '1501'), t)).toBe(false);
      expect(verifyCallback(secret, header, last.body, t + 3600)).toBe(false);
      const [row] = await gw.db.query('SELECT status, attempts, last_status FROM callbacks WHERE billing_id = $1', [billing.id]);
      expect(row).toEqual({ status: 'sent', attempts: 2, last_status: 204 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('a plan without callback_url queues nothing; an unreachable receiver ends `failed` after the last attempt', async ({ gateway: gw }) => {
    const { m, a } = await isolated(gw);
    await a.subscribe((await a.plan()).id, (await a.customer()).id, { bill_immediately: true });
    expect((await gw.db.query('SELECT count(*)::int AS n FROM callbacks WHERE merchant_id = $1', [m.id]))[0].n).toBe(0);
    const s = await a.subscribe((await a.plan({ callback_url: 'http://127.0.0.1:9/nothing' })).id, (await a.customer()).id, { bill_immediately: true });
    const deps = jobDeps(gw);
    let at = gw.clock.now().getTime() + 1;
    for (let i = 0; i < 3; i++) {
      await deliverCallbacks(deps, new Date(at), { maxAttempts: 3, timeoutMs: 2000, batchSize: 100 });
      at += 3600_000;
    }
    const [row] = await gw.db.query('SELECT status, attempts, last_error FROM callbacks WHERE billing_id = $1', [s.last_billing.id]);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row.last_error).toEqual(expect.any(String));
  });
});
