import { smtpTransport } from '../../../server/notify/email.js';
import { OutboxWorker } from '../../../server/notify/outbox.js';
import { testDelivery } from '../../../server/notify/test-delivery.js';
import { SmtpSink, freePort, startSmtpSink } from './notify-fixtures.js';
import { RECEIPT_TIME, calls } from '../routes/receipts-fixtures.js';
import { TestGateway, describe, expect, test as base } from '../../fixtures.js';

// Email receipts over real SMTP: nodemailer in the outbox worker, smtp-server receiving. The
// receipts are test-mode ones, sent because the worker allows every test recipient
// (TESSERA_TEST_DELIVERY_TO=*); what is captured instead is notify-capture.test.ts.

/** The gateway fixture, plus the receipt calls of receipts-fixtures.ts as the gateway's merchant. */
type Calls = ReturnType<typeof calls>;
const test = base.extend<{ calls: Calls }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });
const open: Array<{ close(): Promise<void> | void }> = [];
test.afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

function workerFor(gw: TestGateway, url: string) {
  const email = smtpTransport({ url, from: 'Shop Receipts <receipts@shop.test>', timeoutMs: 5000 });
  const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: { email, testDelivery: testDelivery(['*']) } });
  open.push({ close: () => worker.stop() });
  return worker;
}

async function sink(port?: number): Promise<SmtpSink> {
  const s = await startSmtpSink(port);
  open.push(s);
  return s;
}

const outboxRow = async (gw: TestGateway, receiptId: number) =>
  (await gw.db.query('SELECT * FROM outbox WHERE source = $1', [`receipt:${receiptId}`]))[0];

describe('SMTP round trip', () => {
  test('the recipient gets the subject, the text and the HTML; the receipt reads as sent', async ({ calls: api, gateway: gw }) => {
    const smtp = await sink();
    const worker = workerFor(gw, smtp.url);
    const t = await api.charge({ description: 'Tea & <Cake>', metadata: { order: 'A-7' } });
    const tpl = (await api.post('/receipts/templates', {
      name: 'plain', subject: 'Receipt [TransactionID] from [MerchantName]',
      receipt_text: 'Hello [CustomerName],<br>you paid [Amount] for [Description] (order [Metadata/order]).<br>Card [PaymentInfo]',
    })).body;
    const sent = await api.post(`/charge/${t.id}/receipt`, { email_address: 'ada@example.com', receipt_template_id: String(tpl.id) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const receipt = sent.body;
    expect(receipt.delivery).toEqual({ status: 'pending', attempts: 0, sent_at: null, last_error: null });

    expect(await worker.drain()).toMatchObject({ claimed: 1, sent: 1, retrying: 0, failed: 0 });
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0];
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.from).toBe('receipts@shop.test');
    expect(mail.headers.from).toContain('Test merchant');
    expect(mail.headers.from).toContain('<receipts@shop.test>');
    expect(mail.headers['x-tessera-message']).toMatch(/^test-\d+$/);
    expect(mail.subject).toBe(`Receipt ${t.id} from Test merchant`);
    expect(mail.text).toBe(`Hello Ada Lovelace,\nyou paid $12.34 for Tea & <Cake> (order A-7).\nCard ${t.card_number}`);
    expect(mail.html).toContain('Hello Ada Lovelace,<br>');
    expect(mail.html).toContain('for Tea &amp; &lt;Cake&gt; (order A-7).<br>');
    expect(mail.html).not.toContain('<Cake>');
    expect(mail.raw).not.toContain('4111111111111111');

    const after = (await api.get(`/receipts/${receipt.id}`)).body;
    expect(after.delivery).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(after.delivery.sent_at).toMatch(RECEIPT_TIME);
    // Sent messages are not sent again.
    expect(await worker.drain()).toMatchObject({ claimed: 0 });
    expect(smtp.mails).toHaveLength(1);
  });

  test('a charge with send_receipt is mailed with the built-in template', async ({ calls: api, gateway: gw }) => {
    const smtp = await sink();
    const worker = workerFor(gw, smtp.url);
    const t = await api.charge({ send_receipt: true, email_address: 'grace@example.com', description: 'Lunch' });
    expect(t.receipt.receipt_id).toEqual(expect.any(Number));
    await worker.drain();
    expect(smtp.mails.map((m) => m.to)).toEqual([['grace@example.com']]);
    expect(smtp.mails[0].subject).toBe('Your receipt from Test merchant');
    expect(smtp.mails[0].text).toContain('Amount: $12.34');
    expect(smtp.mails[0].text).toContain(`Transaction: ${t.id}`);
    expect(smtp.mails[0].text).toContain('Description: Lunch');
  });
});

describe('SMTP failures', () => {
  test('server down: the first attempt fails and is recorded; a later round delivers it', async ({ gateway: gw, calls: api }) => {
    const port = await freePort();
    const worker = workerFor(gw, `smtp://127.0.0.1:${port}`);
    const t = await api.charge();
    const receipt = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'late@example.com' })).body;

    expect(await worker.drain()).toMatchObject({ claimed: 1, sent: 0, retrying: 1 });
    let row = await outboxRow(gw, receipt.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(new Date(row.next_attempt_at).getTime()).toBe(gw.clock.now().getTime() + 30_000);
    const failedView = (await api.get(`/receipts/${receipt.id}`)).body;
    expect(failedView.delivery).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(failedView.delivery.last_error).toMatch(/ECONNREFUSED|connect/i);

    // Not due yet: nothing is attempted.
    expect(await worker.drain()).toMatchObject({ claimed: 0 });

    const smtp = await sink(port);
    gw.clock.advance(30_000);
    expect(await worker.drain()).toMatchObject({ claimed: 1, sent: 1 });
    row = await outboxRow(gw, receipt.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(smtp.mails.map((m) => m.to)).toEqual([['late@example.com']]);
  });

  test('a 550 rejection is permanent: failed at once, kept, and can be queued again', async ({ gateway: gw, calls: api }) => {
    const smtp = await sink();
    smtp.rejectWith = 550;
    const worker = workerFor(gw, smtp.url);
    const t = await api.charge();
    const receipt = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'nobody@example.com' })).body;
    expect(await worker.drain()).toMatchObject({ claimed: 1, failed: 1 });
    const row = await outboxRow(gw, receipt.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.last_error).toMatch(/550/);
    expect((await api.get(`/receipts/${receipt.id}`)).body.delivery.status).toBe('failed');

    smtp.rejectWith = null;
    gw.clock.advance(24 * 3600_000);
    expect(await worker.drain()).toMatchObject({ claimed: 0 });
    const retried = await api.post(`/outbox/${row.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await worker.drain()).toMatchObject({ sent: 1 });
    expect(smtp.mails).toHaveLength(1);
  });
});
