import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { RunningTessera, startTessera } from '../../../server/start.js';
import { visa } from '../../helpers/gateway.js';
import { SmtpSink, startSmtpSink } from './notify-fixtures.js';

// The gateway as `tessera serve` runs it: the outbox worker starts with the server, delivers a
// charge's receipt promptly over SMTP, and stops on close. Its merchant is in test mode, so only
// the recipient the operator allowed (TESSERA_TEST_DELIVERY_TO) is mailed; others are captured.

let smtp: SmtpSink;
let gw: RunningTessera;
beforeAll(async () => {
  smtp = await startSmtpSink();
  gw = await startTessera({
    storage: 'memory', port: 0, warn: () => {},
    notify: { smtpUrl: smtp.url, smtpFrom: 'receipts@shop.test', intervalMs: 60_000, testDeliveryTo: ['buyer@example.com'] },
  });
});
afterAll(async () => {
  await gw?.close();
  await smtp?.close();
});

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

async function chargeWithReceipt(to: string) {
  const token = await (await fetch(`${gw.url}/api/v1/tokens`, {
    method: 'POST', headers: { ...auth(gw.publicKey!), 'content-type': 'application/json' }, body: JSON.stringify(visa),
  })).json();
  const res = await fetch(`${gw.url}/api/v1/charge`, {
    method: 'POST', headers: { ...auth(gw.privateKey!), 'content-type': 'application/json' },
    body: JSON.stringify({ token: token.id, amount: 4200, send_receipt: true, email_address: to }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

test('a charge with send_receipt is mailed at once, without waiting for the next round', async () => {
  const t = await chargeWithReceipt('buyer@example.com');
  for (let i = 0; i < 100 && smtp.mails.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(smtp.mails.map((m) => m.to)).toEqual([['buyer@example.com']]);
  expect(smtp.mails[0].subject).toBe('Your receipt from Demo merchant');
  expect(smtp.mails[0].text).toContain('Amount: $42.00');
  const receipt = await (await fetch(`${gw.url}/api/v1/receipts/${t.receipt.receipt_id}`, { headers: auth(gw.privateKey!) })).json();
  expect(receipt.delivery.status).toBe('sent');
});

test('a test receipt to a recipient not on TESSERA_TEST_DELIVERY_TO is captured at once and never mailed', async () => {
  const before = smtp.mails.length;
  const t = await chargeWithReceipt('someone@elsewhere.example');
  const read = async () => (await fetch(`${gw.url}/api/v1/receipts/${t.receipt.receipt_id}`, { headers: auth(gw.privateKey!) })).json();
  let receipt = await read();
  for (let i = 0; i < 100 && receipt.delivery.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    receipt = await read();
  }
  expect(receipt.delivery).toEqual({ status: 'captured', attempts: 0, sent_at: null, last_error: null });
  await gw.outbox.drain();
  expect(smtp.mails.length).toBe(before);
  // Settle does not wait for a captured message: nothing of it is due.
  const settled = await fetch(`${gw.url}/api/v1/test_helpers/settle`, { method: 'POST', headers: { ...auth(gw.privateKey!), 'content-type': 'application/json' }, body: '{}' });
  expect(settled.status).toBe(200);
  expect(await settled.json()).toMatchObject({ settled: true, emails: { pending: 0, failed: 0 } });
  expect(smtp.mails.length).toBe(before);
});

test('config: SMTP_URL, SMTP_FROM, SMS_WEBHOOK_URL, SMS_WEBHOOK_SECRET, OUTBOX_INTERVAL_MS', () => {
  expect(loadConfig({}).notify).toEqual({
    smtpUrl: undefined, smtpFrom: undefined, smsWebhookUrl: undefined, smsWebhookSecret: undefined, intervalMs: 5000,
    testDeliveryTo: [],
  });
  expect(loadConfig({
    SMTP_URL: 'smtps://u:p@mail.example.com:465', SMTP_FROM: 'Shop <r@example.com>',
    SMS_WEBHOOK_URL: 'https://sms.example.com/hook', SMS_WEBHOOK_SECRET: 's', OUTBOX_INTERVAL_MS: '1000',
  }).notify).toEqual({
    smtpUrl: 'smtps://u:p@mail.example.com:465', smtpFrom: 'Shop <r@example.com>',
    smsWebhookUrl: 'https://sms.example.com/hook', smsWebhookSecret: 's', intervalMs: 1000,
    testDeliveryTo: [],
  });
  expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  expect(() => loadConfig({ SMS_WEBHOOK_URL: 'not a url' })).toThrow(/SMS_WEBHOOK_URL/);
  expect(() => loadConfig({ OUTBOX_INTERVAL_MS: '5' })).toThrow(/OUTBOX_INTERVAL_MS/);
});
