import { createHmac } from 'node:crypto';
import { OutboxWorker } from '../../../server/notify/outbox.js';
import { signBody, webhookSmsTransport } from '../../../server/notify/sms.js';
import { testDelivery } from '../../../server/notify/test-delivery.js';
import { HttpSink, freePort, startHttpSink } from './notify-fixtures.js';
import { endless, startScripted } from '../net/outbound-fixtures.js';
import { RECEIPT_TIME, calls } from '../routes/receipts-fixtures.js';
import { TestGateway, describe, expect, expectError, test as base } from '../../fixtures.js';

// SMS receipts through the HTTP webhook transport, received by a node:http server. The receipts are
// test-mode ones, sent because the workers allow every test recipient (TESSERA_TEST_DELIVERY_TO=*);
// what is captured instead is notify-capture.test.ts.
const SEND_TEST = testDelivery(['*']);

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
type Calls = ReturnType<typeof calls>;
const test = base.extend<{ calls: Calls }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });
const open: Array<{ close(): Promise<void> | void }> = [];
test.afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function sink(): Promise<HttpSink> {
  const s = await startHttpSink();
  open.push(s);
  return s;
}

function workerFor(gw: TestGateway, url: string, secret?: string) {
  const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { sms: webhookSmsTransport({ url, secret, timeoutMs: 3000 }), testDelivery: SEND_TEST } });
  open.push({ close: () => worker.stop() });
  return worker;
}

const outboxOf = async (gw: TestGateway, receiptId: number) => (await gw.db.query('SELECT * FROM outbox WHERE source = $1', [`receipt:${receiptId}`]))[0];

describe('SMS receipts', () => {
  test('POST /charge/:id/receipt with receipt_type sms: a signed JSON request reaches the webhook', async ({ gateway: gw, calls: api }) => {
    const http = await sink();
    const worker = workerFor(gw, http.url, 'whsec_test');
    const t = await api.charge({ description: 'Coffee' });
    const res = await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '+1 (555) 010-9999' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const receipt = res.body;
    expect(receipt).toMatchObject({
      class: 'receipt', receipt_type: 'sms', phone_number: '+15550109999', email_address: null, subject: null,
      transaction_id: t.id, receipt_template_id: null,
    });
    expect(receipt.created_at).toMatch(RECEIPT_TIME);
    expect(receipt.receipt_text).toBe(`Test merchant: payment of $12.34 received (${t.card_number}). Transaction ${t.id}.`);

    expect(await worker.drain()).toMatchObject({ claimed: 1, sent: 1 });
    expect(http.requests).toHaveLength(1);
    const req = http.requests[0];
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({ to: '+15550109999', text: receipt.receipt_text, merchant_id: gw.merchant.id, env: 'test' });
    expect(req.headers['idempotency-key']).toBe(body.id);
    // The signature verifies with the shared secret, over "t.body".
    const sig = String(req.headers['x-tessera-signature']);
    const ts = Number(sig.match(/^t=(\d+),/)![1]);
    expect(sig).toBe(`t=${ts},v1=${createHmac('sha256', 'whsec_test').update(`${ts}.${req.body}`).digest('hex')}`);
    expect(signBody('whsec_test', ts, req.body)).toBe(sig);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
    expect((await api.get(`/receipts/${receipt.id}`)).body.delivery.status).toBe('sent');
  });

  test('an SMS with a template renders its plain text (<br> as a newline)', async ({ calls: api, gateway: gw }) => {
    const http = await sink();
    const worker = workerFor(gw, http.url);
    const tpl = (await api.post('/receipts/templates', { receipt_text: 'Paid [Amount]<br>Ref [Last4]' })).body;
    const t = await api.charge();
    const receipt = (await api.post(`/charge/${t.id}/receipt`, {
      receipt_type: 'sms', phone_number: '5550101234', receipt_template_id: tpl.id,
    })).body;
    expect(receipt).toMatchObject({ receipt_text: 'Paid $12.34\nRef 1111', receipt_template_id: String(tpl.id) });
    await worker.drain();
    expect(JSON.parse(http.requests[0].body).text).toBe('Paid $12.34\nRef 1111');
    expect(http.requests[0].headers['x-tessera-signature']).toBeUndefined();
  });

  test('10302 without phone_number; REQ01 for one that is not a number', async ({ gateway: gw, calls: api }) => {
    const t = await api.charge();
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms' }), 400, '10302');
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '  ' }), 400, '10302');
    // An email address does not stand in for the phone number.
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', email_address: 'a@example.com' }), 400, '10302');
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: 'call me' }), 400, 'REQ01');
    expectError(await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'fax', phone_number: '5550101234' }), 400, 'REQ01');
    expect((await gw.db.query('SELECT count(*)::int AS n FROM receipts WHERE transaction_id = $1', [t.id]))[0].n).toBe(0);
  });
});

describe('webhook failures', () => {
  test('5xx and an unreachable receiver are retried with backoff; a 4xx is permanent', async ({ gateway: gw, calls: api }) => {
    const http = await sink();
    http.status = 503;
    const worker = workerFor(gw, http.url);
    const t = await api.charge();
    const r1 = (await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '5550100001' })).body;
    expect(await worker.drain()).toMatchObject({ retrying: 1 });
    expect(await outboxOf(gw, r1.id)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('503') });

    http.status = 200;
    gw.clock.advance(30_000);
    expect(await worker.drain()).toMatchObject({ sent: 1 });
    expect(await outboxOf(gw, r1.id)).toMatchObject({ status: 'sent', attempts: 2 });
    // Both attempts carried the same idempotency key, so the receiver can drop a duplicate.
    expect(new Set(http.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);

    http.status = 400;
    const r2 = (await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '5550100002' })).body;
    expect(await worker.drain()).toMatchObject({ failed: 1 });
    expect(await outboxOf(gw, r2.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('400') });

    const down = workerFor(gw, `http://127.0.0.1:${await freePort()}/sms`);
    const r3 = (await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '5550100003' })).body;
    expect(await down.drain()).toMatchObject({ retrying: 1 });
    expect((await outboxOf(gw, r3.id)).last_error).toMatch(/unreachable/);
  });

  test('an endless answer from the SMS webhook is cut after 4 KiB: the message is retried, the process does not buffer it', async ({ gateway: gw, calls: api }) => {
    const rx = await startScripted();
    open.push(rx);
    rx.handler = endless(503);
    const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { sms: webhookSmsTransport({ url: `${rx.origin}/sms`, timeoutMs: 600_000 }), testDelivery: SEND_TEST } });
    open.push({ close: () => worker.stop() });
    const t = await api.charge();
    const r = (await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '5550100004' })).body;
    expect(await worker.drain()).toMatchObject({ retrying: 1 });
    expect((await outboxOf(gw, r.id)).last_error).toMatch(/^SMS webhook answered 503: x{200}$/);
  });
});
