import { RECEIPT_TIME, calls } from './receipts-fixtures.js';
import { TestGateway, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';

// POST /charge/:id/receipt (spec 4.4), GET /receipts/:id, and GET /outbox where the messages wait
// when no transport is configured (this gateway has none).

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
const test = base.extend<{ calls: ReturnType<typeof calls> }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });

const receiptCount = async (gw: TestGateway, txnId: string) =>
  (await gw.db.query('SELECT count(*)::int AS n FROM receipts WHERE transaction_id = $1', [txnId]))[0].n as number;

describe('POST /charge/:id/receipt', () => {
  test('an email receipt: the fields of spec 2.6, integer id, +00:00 timestamp, rendered text', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge({ description: 'Tea' });
    const res = await api.post(`/charge/${t.id}/receipt`, { email_address: 'ada@example.com' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(Object.keys(r).sort()).toEqual([
      'class', 'created_at', 'delivery', 'email_address', 'id', 'merchant_id', 'phone_number', 'receipt_template_id',
      'receipt_text', 'receipt_type', 'subject', 'transaction_id',
    ]);
    expect(r).toMatchObject({
      class: 'receipt', receipt_type: 'email', merchant_id: gw.merchant.id, transaction_id: t.id,
      email_address: 'ada@example.com', phone_number: null, receipt_template_id: null,
      subject: 'Your receipt from Test merchant',
      delivery: { status: 'pending', attempts: 0, sent_at: null, last_error: null },
    });
    expect(Number.isInteger(r.id)).toBe(true);
    expect(r.created_at).toMatch(RECEIPT_TIME);
    expect(r.receipt_text).toContain('Amount: $12.34');
    expect(r.receipt_text).toContain('Description: Tea');
    expect(r.receipt_text).not.toContain('<br>');
    expect(JSON.stringify(res.body)).not.toContain(visa.card_number);
    expect((await api.get(`/receipts/${r.id}`)).body).toEqual(r);
  });

  test('receipt_type defaults to email; a named template is used (as a string or a number)', async ({ calls: api }) => {
    const tpl = (await api.post('/receipts/templates', { subject: '[CustomerName] paid', receipt_text: '[Amount] via [Last4]' })).body;
    const t = await api.charge();
    for (const id of [tpl.id, String(tpl.id)]) {
      const r = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'a@example.com', receipt_template_id: id })).body;
      expect(r).toMatchObject({ receipt_template_id: String(tpl.id), subject: 'Ada Lovelace paid', receipt_text: '$12.34 via 1111' });
    }
  });

  test('69404 for an unknown charge, another merchant\'s, or the other environment\'s', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    const body = { email_address: 'a@example.com' };
    expectError(await api.post('/charge/0123456789abcdef0123456789abcdef/receipt', body), 404, '69404');
    expectError(await api.post(`/charge/${t.id}/receipt`, body, gw.other.test.private_key), 404, '69404');
    expectError(await api.post(`/charge/${t.id}/receipt`, body, gw.merchant.live.private_key), 404, '69404');
    expect(await receiptCount(gw, t.id)).toBe(0);
  });

  test('69005 without email_address, 69006 for an invalid one, 10300 for an unknown template', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    expectError(await api.post(`/charge/${t.id}/receipt`, {}), 400, '69005');
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'email', email_address: '  ' }), 400, '69005');
    for (const bad of ['nope', 'a@b', 'a b@example.com', `${'x'.repeat(250)}@example.com`]) {
      expectError(await api.post(`/charge/${t.id}/receipt`, { email_address: bad }), 400, '69006');
    }
    expectError(await api.post(`/charge/${t.id}/receipt`, { email_address: 'e@example.com', receipt_template_id: '999999' }), 404, '10300');
    const foreign = (await api.post('/receipts/templates', { receipt_text: 'x' }, gw.other.test.private_key)).body;
    expectError(await api.post(`/charge/${t.id}/receipt`, { email_address: 'e@example.com', receipt_template_id: foreign.id }), 404, '10300');
    expect(await receiptCount(gw, t.id)).toBe(0);
    expect((await gw.db.query("SELECT count(*)::int AS n FROM outbox WHERE payload->>'to' = 'e@example.com'"))[0].n).toBe(0);
  });

  test('form-encoded bodies work', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    // A form body: the QA client sends JSON only, so this call stays a direct inject.
    const res = await gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${t.id}/receipt`, headers: basic(gw.merchant.test.private_key),
      payload: 'receipt_type=email&email_address=form%40example.com',
    });
    expect(res.json()).toMatchObject({ email_address: 'form@example.com' });
  });

  test('a declined charge can still be sent a receipt on request', async ({ gateway: gw, calls: api }) => {
    const token = await tokenFor(gw);
    const declined = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key), payload: { token, amount: 80 } });
    expect(declined.statusCode).toBe(402);
    const id = declined.json().errors[0].transaction_id;
    const r = (await api.post(`/charge/${id}/receipt`, { email_address: 'a@example.com' })).body;
    expect(r.receipt_text).toContain('Amount: $0.80');
  });

  test('Idempotency-Key: one receipt, one message, replayed answer', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    const h = { 'idempotency-key': `rcpt-${t.id}` };
    // The replay header is read, and the QA client answers no headers: direct injects.
    const send = () => gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${t.id}/receipt`, headers: { ...basic(gw.merchant.test.private_key), ...h },
      payload: { email_address: 'a@example.com' },
    });
    const a = await send();
    const b = await send();
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
    expect(await receiptCount(gw, t.id)).toBe(1);
  });
});

describe('GET /receipts/:id', () => {
  test('RCPT01 for unknown ids and for receipts of another merchant or environment', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    const r = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'a@example.com' })).body;
    expectError(await api.get(`/receipts/${r.id}`, gw.other.test.private_key), 404, 'RCPT01');
    expectError(await api.get(`/receipts/${r.id}`, gw.merchant.live.private_key), 404, 'RCPT01');
    expectError(await api.get('/receipts/99999999'), 404, 'RCPT01');
    expectError(await api.get('/receipts/abc'), 404, 'RCPT01');
  });
});

describe('GET /outbox without transports: messages wait there for QA', () => {
  test('list envelope, newest first, the message as it would be sent; filters', async ({ gateway: gw, calls: api }) => {
    const m = await gw.newMerchant();
    const k = m.test.private_key;
    const t = await api.charge({ description: 'Outbox <test>' }, visa, m.test);
    const email = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'qa@example.com' }, k)).body;
    const sms = (await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '+15550100000' }, k)).body;

    const res = await api.get('/outbox', k);
    expect(res.status).toBe(200);
    const out = res.body;
    expect(out.meta).toEqual({ limit: 10, offset: 0, total_results: 2 });
    expect(out.list.map((x: any) => x.source)).toEqual([`receipt:${sms.id}`, `receipt:${email.id}`]);
    const [s, e] = out.list;
    expect(e).toMatchObject({
      class: 'outbox_message', kind: 'email', status: 'pending', to: 'qa@example.com', subject: 'Your receipt from Test merchant',
      from_name: 'Test merchant', attempts: 0, last_error: null, sent_at: null, text: email.receipt_text,
    });
    expect(e.html).toContain('Description: Outbox &lt;test&gt;<br>');
    expect(e.next_attempt_at).toBe(gw.clock.now().toISOString());
    expect(s).toMatchObject({ kind: 'sms', to: '+15550100000', subject: null, html: null, text: sms.receipt_text });

    expect((await api.get('/outbox?kind=sms', k)).body.list.map((x: any) => x.id)).toEqual([s.id]);
    expect((await api.get('/outbox?status=sent', k)).body.meta.total_results).toBe(0);
    expect((await api.get(`/outbox?source=receipt:${email.id}`, k)).body.list.map((x: any) => x.id)).toEqual([e.id]);
    expectError(await api.get('/outbox?status=lost', k), 400, 'REQ01');
    expectError(await api.get('/outbox?limit=101', k), 400, 'PAGE01');
    expect((await api.get(`/outbox/${e.id}`, k)).body).toEqual(e);
  });

  test('test and live, and merchants, are separate; OUTBOX01; retry of a pending message is fine, of a sent one OUTBOX02', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    const r = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'iso@example.com' })).body;
    const [row] = await gw.db.query('SELECT id FROM outbox WHERE source = $1', [`receipt:${r.id}`]);
    expect((await api.get('/outbox?limit=100', gw.merchant.live.private_key)).body.list).toEqual([]);
    expect((await api.get('/outbox?limit=100', gw.other.test.private_key)).body.list.map((x: any) => x.id)).not.toContain(row.id);
    expectError(await api.get(`/outbox/${row.id}`, gw.merchant.live.private_key), 404, 'OUTBOX01');
    expectError(await api.get(`/outbox/${row.id}`, gw.other.test.private_key), 404, 'OUTBOX01');
    expectError(await api.post(`/outbox/${row.id}/retry`, {}, gw.other.test.private_key), 404, 'OUTBOX01');
    expectError(await api.get('/outbox/nope'), 404, 'OUTBOX01');
    expect((await api.post(`/outbox/${row.id}/retry`)).body).toMatchObject({ status: 'pending' });
    await gw.db.query("UPDATE outbox SET status = 'sent' WHERE id = $1", [row.id]);
    expectError(await api.post(`/outbox/${row.id}/retry`), 409, 'OUTBOX02');
    expectError(await api.get('/outbox', gw.merchant.test.public_key), 403, 'AUTH02');
  });
});
