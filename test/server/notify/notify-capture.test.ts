import { ConfigError, loadConfig } from '../../../server/config.js';
import type { Scope } from '../../../server/domain/merchant/keys.js';
import { enqueue, OutboxMessage } from '../../../server/domain/events/outbox.js';
import { createTransports } from '../../../server/notify/index.js';
import { OutboxWorker, Transports } from '../../../server/notify/outbox.js';
import { CAPTURE_ALL, parseTestDeliveryTo, testDelivery } from '../../../server/notify/test-delivery.js';
import { HttpSink, SmtpSink, startHttpSink, startSmtpSink } from './notify-fixtures.js';
import { calls } from '../routes/receipts-fixtures.js';
import { TestGateway, describe, expect, expectError, test as base } from '../../fixtures.js';

// Test-mode email and SMS are captured, never delivered, unless the operator names the recipient
// (TESSERA_TEST_DELIVERY_TO): a test key and a test charge must not turn the operator's SMTP
// server and SMS bridge into a relay. Real receiving ends (smtp-server, node:http) show that
// nothing arrives; live-mode messages still do. docs/decisions/test-messages.md

type Calls = ReturnType<typeof calls>;
const test = base.extend<{ calls: Calls }>({ calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }] });
const open: Array<{ close(): Promise<void> | void }> = [];
test.afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function smtpSink(): Promise<SmtpSink> {
  const s = await startSmtpSink();
  open.push(s);
  return s;
}

async function smsSink(): Promise<HttpSink> {
  const s = await startHttpSink();
  open.push(s);
  return s;
}

/** A worker with the transports `tessera serve` builds from these settings (createTransports). */
function workerFor(gw: TestGateway, cfg: { smtpUrl?: string; smsWebhookUrl?: string; testDeliveryTo?: string[] }) {
  const worker = new OutboxWorker({ db: gw.db, clock: gw.clock, transports: createTransports({ smtpFrom: 'receipts@operator.example', ...cfg }) });
  open.push({ close: () => worker.stop() });
  return worker;
}

/** A merchant of its own per test, so the outbox holds only what the test queued. */
async function scopes(gw: TestGateway): Promise<{ test: Scope; live: Scope }> {
  const id = (await gw.newMerchant()).id;
  return { test: { merchantId: id, env: 'test' }, live: { merchantId: id, env: 'live' } };
}

const put = (gw: TestGateway, s: Scope, m: OutboxMessage) => enqueue(gw.db, s, m, gw.clock.now(), 'test:capture');
const mail = (to: string): OutboxMessage => ({ kind: 'email', to, subject: 'Win a prize', text: 'Click here' });
const statusOf = async (gw: TestGateway, id: number) => (await gw.db.query<{ status: string }>('SELECT status FROM outbox WHERE id = $1', [id]))[0].status;

describe('by default', () => {
  test('a test receipt to an outside address is captured: SMTP receives nothing; the API and the receipt list it as captured', async ({ gateway: gw, calls: api }) => {
    const smtp = await smtpSink();
    const worker = workerFor(gw, { smtpUrl: smtp.url });
    const t = await api.charge();
    // Subject and body of the sender's choosing, through a template.
    const tpl = (await api.post('/receipts/templates', { name: 'spam', subject: 'Your account is locked', receipt_text: 'Log in at evil.example' })).body;
    const sent = await api.post(`/charge/${t.id}/receipt`, { email_address: 'victim@outside.example', receipt_template_id: String(tpl.id) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    expect(await worker.drain()).toEqual({ claimed: 1, sent: 0, retrying: 0, failed: 0, captured: 1 });
    expect(smtp.mails).toEqual([]);
    // Captured once: a later round does not claim it again.
    expect(await worker.drain()).toMatchObject({ claimed: 0 });

    const list = await api.get('/outbox?status=captured');
    expect(list.status).toBe(200);
    const msg = list.body.list.find((m: { source: string }) => m.source === `receipt:${sent.body.id}`);
    expect(msg).toEqual({
      class: 'outbox_message', id: expect.any(Number), kind: 'email', status: 'captured', source: `receipt:${sent.body.id}`,
      to: 'victim@outside.example', subject: 'Your account is locked', text: 'Log in at evil.example', html: expect.any(String),
      from_name: 'Test merchant', attempts: 0, last_error: null, next_attempt_at: null, created_at: expect.any(String), sent_at: null,
    });
    expect((await api.get(`/outbox/${msg.id}`)).body).toEqual(msg);
    expect((await api.get(`/receipts/${sent.body.id}`)).body.delivery).toEqual({ status: 'captured', attempts: 0, sent_at: null, last_error: null });
    // Not among the sent or pending ones.
    for (const status of ['sent', 'pending']) {
      expect((await api.get(`/outbox?status=${status}`)).body.list.map((m: { id: number }) => m.id)).not.toContain(msg.id);
    }
    expectError(await api.get('/outbox?status=delivered'), 400, 'REQ01', /pending, sent, failed, captured/);
  });

  test('the QA kit\'s waitForEmail finds a captured email as before', async ({ gateway: gw, calls: api, api: client }) => {
    const smtp = await smtpSink();
    const worker = workerFor(gw, { smtpUrl: smtp.url });
    const t = await api.charge();
    expect((await api.post(`/charge/${t.id}/receipt`, { email_address: 'shopper@outside.example' })).status).toBe(200);
    await worker.drain();
    const found = await client.waitForEmail({ to: 'shopper@outside.example', text: new RegExp(t.id) }, { timeout: 2000 });
    expect(found).toMatchObject({ class: 'outbox_message', kind: 'email', status: 'captured', to: 'shopper@outside.example', subject: 'Your receipt from Test merchant' });
    expect(smtp.mails).toEqual([]);
  });

  test('a test SMS is captured: the SMS bridge receives nothing', async ({ gateway: gw, calls: api }) => {
    const bridge = await smsSink();
    const worker = workerFor(gw, { smsWebhookUrl: bridge.url });
    const t = await api.charge();
    const res = await api.post(`/charge/${t.id}/receipt`, { receipt_type: 'sms', phone_number: '+1 555 010 7777' });
    expect(res.status).toBe(200);
    expect(await worker.drain()).toMatchObject({ claimed: 1, sent: 0, captured: 1 });
    expect(bridge.requests).toEqual([]);
    const [msg] = (await api.get(`/outbox?kind=sms&source=receipt:${res.body.id}`)).body.list;
    expect(msg).toMatchObject({ kind: 'sms', status: 'captured', to: '+15550107777', attempts: 0, sent_at: null });
  });

  test('live-mode email and SMS are delivered as before', async ({ gateway: gw }) => {
    const smtp = await smtpSink();
    const bridge = await smsSink();
    const worker = workerFor(gw, { smtpUrl: smtp.url, smsWebhookUrl: bridge.url });
    const s = await scopes(gw);
    const live = await put(gw, s.live, mail('buyer@outside.example'));
    const liveSms = await put(gw, s.live, { kind: 'sms', to: '+15550108888', text: 'Paid' });
    const captured = await put(gw, s.test, mail('buyer@outside.example'));
    expect(await worker.drain()).toMatchObject({ claimed: 3, sent: 2, captured: 1 });
    expect(smtp.mails.map((m) => [m.to, m.subject, m.headers['x-tessera-message']])).toEqual([[['buyer@outside.example'], 'Win a prize', `live-${live}`]]);
    expect(bridge.requests.map((r) => JSON.parse(r.body).to)).toEqual(['+15550108888']);
    expect([await statusOf(gw, live), await statusOf(gw, liveSms), await statusOf(gw, captured)]).toEqual(['sent', 'sent', 'captured']);
  });

  test('a captured message queued again is captured again, and sent once its recipient is allowed', async ({ gateway: gw, calls: api }) => {
    const smtp = await smtpSink();
    const t = await api.charge();
    const receipt = (await api.post(`/charge/${t.id}/receipt`, { email_address: 'qa@staging.example.com' })).body;
    await workerFor(gw, { smtpUrl: smtp.url }).drain();
    const [msg] = (await api.get(`/outbox?source=receipt:${receipt.id}`)).body.list;
    expect(msg.status).toBe('captured');

    const again = await api.post(`/outbox/${msg.id}/retry`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: msg.id, status: 'pending', attempts: 0 });
    await workerFor(gw, { smtpUrl: smtp.url }).drain();
    expect(await statusOf(gw, msg.id)).toBe('captured');
    expect(smtp.mails).toEqual([]);

    // The operator allows the staging mailbox (a restart with TESSERA_TEST_DELIVERY_TO): now it is sent.
    expect((await api.post(`/outbox/${msg.id}/retry`)).status).toBe(200);
    expect(await workerFor(gw, { smtpUrl: smtp.url, testDeliveryTo: ['@staging.example.com'] }).drain()).toMatchObject({ sent: 1, captured: 0 });
    expect(smtp.mails.map((m) => m.to)).toEqual([['qa@staging.example.com']]);
    expect((await api.get(`/outbox/${msg.id}`)).body).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('TESSERA_TEST_DELIVERY_TO: the operator\'s opt-in for a staging mailbox', () => {
  test('only the listed domains, addresses and numbers are sent; every other test message is captured', async ({ gateway: gw }) => {
    const smtp = await smtpSink();
    const bridge = await smsSink();
    const worker = workerFor(gw, {
      smtpUrl: smtp.url, smsWebhookUrl: bridge.url,
      testDeliveryTo: parseTestDeliveryTo('@staging.example.com, qa@example.com, +1 (555) 010-2000'),
    });
    const s = await scopes(gw);
    const want: Record<string, string> = {
      'anyone@staging.example.com': 'sent', 'QA@Example.com': 'sent',
      'x@sub.staging.example.com': 'captured', 'other@example.com': 'captured',
      'x@staging.example.com.evil.example': 'captured', 'x@evilstaging.example.com': 'captured',
    };
    const ids: Record<string, number> = {};
    for (const to of Object.keys(want)) ids[to] = await put(gw, s.test, mail(to));
    const smsOk = await put(gw, s.test, { kind: 'sms', to: '+15550102000', text: 'hi' });
    const smsNo = await put(gw, s.test, { kind: 'sms', to: '+15550102001', text: 'hi' });

    expect(await worker.drain()).toMatchObject({ claimed: 8, sent: 3, captured: 5, failed: 0 });
    for (const to of Object.keys(want)) expect([to, await statusOf(gw, ids[to])]).toEqual([to, want[to]]);
    expect(smtp.mails.map((m) => m.to[0].toLowerCase()).sort()).toEqual(['anyone@staging.example.com', 'qa@example.com']);
    expect([await statusOf(gw, smsOk), await statusOf(gw, smsNo)]).toEqual(['sent', 'captured']);
    expect(bridge.requests.map((r) => JSON.parse(r.body).to)).toEqual(['+15550102000']);
  });

  test('the rule: * sends everything; an empty list nothing; only single plain addresses match', () => {
    expect(testDelivery(['*'])).toMatchObject({ mode: 'all' });
    expect(testDelivery(['*']).allows('email', 'anyone@anywhere.example')).toBe(true);
    expect(CAPTURE_ALL.mode).toBe('none');
    expect(CAPTURE_ALL.allows('email', 'qa@example.com')).toBe(false);
    expect(CAPTURE_ALL.allows('sms', '+15550102000')).toBe(false);
    const rule = testDelivery(['@example.com', '15550102000']);
    expect(rule.mode).toBe('allow-list');
    expect(rule.allows('email', 'a@example.com, b@elsewhere.example')).toBe(false);
    expect(rule.allows('email', '"a@example.com"@elsewhere.example')).toBe(false);
    expect(rule.allows('sms', 'a@example.com')).toBe(false);
    expect(rule.allows('email', '15550102000')).toBe(false);
    expect(rule.allows('sms', '+1 555 010 2000')).toBe(true);
  });

  test('config: read from the environment, a bad entry is a ConfigError naming it', () => {
    expect(loadConfig({}).notify.testDeliveryTo).toEqual([]);
    expect(loadConfig({ TESSERA_TEST_DELIVERY_TO: ' @staging.example.com ,qa@example.com,, +15550102000 ' }).notify.testDeliveryTo)
      .toEqual(['@staging.example.com', 'qa@example.com', '+15550102000']);
    expect(loadConfig({ TESSERA_TEST_DELIVERY_TO: '*' }).notify.testDeliveryTo).toEqual(['*']);
    for (const bad of ['staging.example.com', '@', '@-bad-.example', 'qa@', '*.example.com', '12']) {
      expect(() => loadConfig({ TESSERA_TEST_DELIVERY_TO: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ TESSERA_TEST_DELIVERY_TO: `@ok.example,${bad}` }), bad).toThrow(/^TESSERA_TEST_DELIVERY_TO: .*is not/);
    }
  });

  test('the worker says at start which rule applies (a warning when every test message is sent)', async ({ gateway: gw }) => {
    const lines: Array<[string, object, string | undefined]> = [];
    const log = {
      info: (o: object, m?: string) => void lines.push(['info', o, m]),
      warn: (o: object, m?: string) => void lines.push(['warn', o, m]),
      error: (o: object, m?: string) => void lines.push(['error', o, m]),
    };
    const started = async (transports: Transports) => {
      lines.length = 0;
      const w = new OutboxWorker({ db: gw.db, clock: gw.clock, transports, log });
      w.start(60_000);
      await w.stop();
      return lines.filter(([, o]) => 'test_delivery' in o);
    };
    expect(await started({})).toEqual([['info', { test_delivery: 'none' }, expect.stringMatching(/^test-mode email and SMS are captured: kept in the outbox .*never sent/)]]);
    expect(await started(createTransports({ testDeliveryTo: ['@staging.example.com'] })))
      .toEqual([['info', { test_delivery: 'allow-list' }, expect.stringMatching(/sent only to @staging\.example\.com .*the rest are captured/)]]);
    expect(await started(createTransports({ testDeliveryTo: ['*'] })))
      .toEqual([['warn', { test_delivery: 'all' }, expect.stringMatching(/sent like live ones/)]]);
  });
});
