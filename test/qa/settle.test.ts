import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tesseraFixtures } from '../../server/testing/fixtures.js';
import {
  SettleSummary, TestGateway, WebhookReceiver, cardData, cards, startTestGateway, startWebhookReceiver,
} from '../../server/testing/index.js';
import { SmtpSink, startSmtpSink } from '../server/notify/notify-fixtures.js';

// `gateway.settle()` as a QA suite uses it: after an action, one call, then assert on what arrived
// (no waitFor, no sleeps). The gateway here is startTestGateway's, loops and all, with an SMTP
// server so receipts are really sent: test-mode ones only to the recipients it allows
// (TESSERA_TEST_DELIVERY_TO; the others would be captured in the outbox).

let gw: TestGateway;
let smtp: SmtpSink;
let hooks: WebhookReceiver;
beforeAll(async () => {
  smtp = await startSmtpSink();
  hooks = await startWebhookReceiver();
  gw = await startTestGateway({ notify: { smtpUrl: smtp.url, testDeliveryTo: ['@example.com'] } });
});
afterAll(async () => {
  await gw?.close();
  await hooks?.close();
  await smtp?.close();
});

const none = { delivered: 0, failed: 0, pending_retry: 0, pending: 0 };

async function hookOn(types: string[], strategy: Record<string, unknown>) {
  const rule = await gw.request('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: types });
  const s = await gw.request('POST', '/webhooks/strategies', strategy);
  expect((await gw.request('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: s.body.id })).status).toBe(200);
}

describe('gateway.settle()', () => {
  test('after a charge, the webhook and the receipt have arrived when it resolves', async () => {
    await gw.reset();
    hooks.clear();
    smtp.mails.length = 0;
    await hookOn(['created'], { mode: 'webhook', url: hooks.url });
    const paid = await gw.charge(await gw.tokenize(cardData(cards.visa)), 1999, { send_receipt: true, email_address: 'ada@example.com' });
    expect(paid.ok).toBe(true);

    const s = await gw.settle();
    expect(hooks.received.map((h) => [h.json?.type, h.json?.data?.id])).toEqual([['transaction.created', paid.transaction!.id]]);
    expect(smtp.mails.map((m) => m.to)).toEqual([['ada@example.com']]);
    expect(s).toMatchObject({
      class: 'test_settle', settled: true, webhooks: { ...none, delivered: 1 },
      emails: { ...none, delivered: 1, queued: 0 }, sms: { ...none, queued: 0 }, events: { undispatched: 0 },
    });
    expect((await gw.outbox({ kind: 'email' }))[0]).toMatchObject({ to: 'ada@example.com', status: 'sent' });
  });

  test('an endpoint that fails is a pending retry; the call does not wait 30 s for it', async () => {
    await gw.reset();
    hooks.clear();
    await hookOn(['created'], { mode: 'webhook', url: hooks.url });
    hooks.respondWith(503);
    await gw.charge(await gw.tokenize(cardData(cards.visa)), 2500);
    const s = await gw.settle({ timeout: 20_000 });
    expect(s).toMatchObject({ settled: true, webhooks: { ...none, pending_retry: 1 } });
    expect(s.next_retry_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(hooks.received).toHaveLength(1);
    hooks.respondWith(200);
  });

  test('an error answer throws with the code', async () => {
    await expect(gw.settle({ timeout: 60_001 })).rejects.toThrow(/POST \/test_helpers\/settle: 400 .*REQ01/);
  });

  test('the Playwright fixture `settle` is the gateway\'s', async () => {
    await gw.reset();
    let got: SettleSummary | undefined;
    const fixture = tesseraFixtures.settle as unknown as (deps: { gateway: TestGateway }, use: (fn: TestGateway['settle']) => Promise<void>) => Promise<void>;
    await fixture({ gateway: gw }, async (settle) => {
      got = await settle();
    });
    expect(got).toMatchObject({ class: 'test_settle', merchant_id: gw.merchantId, settled: true });
  });
});

describe('waitForEmail()', () => {
  test('finds an email a webhook strategy sends: settle sends it when the outbox loop has not yet', async () => {
    await gw.reset();
    await hookOn(['created'], { mode: 'email', email_address: 'ops@example.com' });
    // The outbox's own loop is stopped: the charge queues the email with its event, only a settle sends it.
    await gw.running.outbox.stop();
    try {
      const paid = await gw.charge(await gw.tokenize(cardData(cards.visa)), 3100);
      const mail = await gw.waitForEmail({ to: 'ops@example.com' }, { timeout: 5_000 });
      expect(mail).toMatchObject({ to: 'ops@example.com', subject: `[Tessera] transaction.created ${paid.transaction!.id}` });
    } finally {
      gw.running.outbox.start();
    }
  });
});
