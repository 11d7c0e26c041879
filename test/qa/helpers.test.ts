import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestGateway, cardData, cards, startTestGateway, startWebhookReceiver, tesseraClient } from '../../server/testing/index.js';

// The helpers a checkout test calls: charge (server side, private key), waitForEmail (outbox),
// the webhook receiver, and reset through the client.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('charge()', () => {
  test('answers the transaction on success and never throws on a refusal', async () => {
    const ok = await gw.charge(await gw.tokenize(cardData(cards.visa)), 2000, { description: 'Order 1' });
    expect(ok).toMatchObject({ status: 200, ok: true, errors: [], transaction: { status: 'SETTLED', amount_settled: 2000, description: 'Order 1' } });

    const declined = await gw.charge(await gw.tokenize(cardData(cards.declined)), 2000);
    expect(declined.status).toBe(402);
    expect(declined.ok).toBe(false);
    expect(declined.errors[0]).toMatchObject({ code: '99820', transaction_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // The recorded decline, fetched for the test.
    expect(declined.transaction).toMatchObject({ id: declined.errors[0].transaction_id, status: 'DECLINED' });

    const missing = await gw.charge('0000000000', 2000);
    expect(missing).toMatchObject({ ok: false, transaction: null });
    expect(missing.errors[0].code).toBe('69201');
  });
});

describe('waitForEmail()', () => {
  test('finds the receipt email of a charge, by recipient, subject or a predicate', async () => {
    await gw.reset();
    const paid = await gw.charge(await gw.tokenize(cardData(cards.visa)), 4321, { send_receipt: true, email_address: 'ada@example.com' });
    expect(paid.ok).toBe(true);
    const byTo = await gw.waitForEmail({ to: 'ada@example.com' });
    expect(byTo).toMatchObject({ class: 'outbox_message', kind: 'email', to: 'ada@example.com' });
    expect(byTo.text).toContain('$43.21');
    expect((await gw.waitForEmail({ subject: /receipt/i, text: /43\.21/ })).id).toBe(byTo.id);
    expect((await gw.waitForEmail((m) => m.text.includes(paid.transaction!.id))).id).toBe(byTo.id);
  });

  test('waits for a message that arrives later', async () => {
    await gw.reset();
    const waiting = gw.waitForEmail({ to: 'late@example.com' }, { timeout: 10_000, interval: 50 });
    await new Promise((r) => setTimeout(r, 300));
    await gw.charge(await gw.tokenize(cardData(cards.visa)), 1000, { send_receipt: true, email_address: 'late@example.com' });
    expect((await waiting).to).toBe('late@example.com');
  });

  test('gives up after the timeout, listing what the outbox holds', async () => {
    await gw.reset();
    await gw.charge(await gw.tokenize(cardData(cards.visa)), 1000, { send_receipt: true, email_address: 'someone@example.com' });
    const started = Date.now();
    await expect(gw.waitForEmail({ to: 'nobody@example.com' }, { timeout: 400 })).rejects.toThrow(
      /no matching email in the outbox after 400 ms; it holds 1:\n {2}#\d+ to someone@example\.com/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('says so plainly when the gateway has no outbox endpoint', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NOTFOUND","message":"no such endpoint"}]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = tesseraClient({ url, publicKey: gw.publicKey, privateKey: gw.privateKey });
      await expect(client.waitForEmail({}, { timeout: 100 })).rejects.toThrow(/has no outbox endpoint \(GET .*\/api\/v1\/outbox answered 404\)/);
    } finally {
      server.close();
    }
  });
});

describe('the webhook receiver', () => {
  test('records requests, resolves waiters for past and future ones, answers the chosen status', async () => {
    const hooks = await startWebhookReceiver();
    try {
      expect(hooks.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
      const send = (body: unknown, path = '') =>
        fetch(hooks.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sig': 't=1' }, body: JSON.stringify(body) });

      expect((await send({ type: 'charge.settled', id: 'a' })).status).toBe(200);
      const past = await hooks.waitFor((w) => w.json?.id === 'a');
      expect(past).toMatchObject({ method: 'POST', path: '/hooks', json: { type: 'charge.settled', id: 'a' } });
      expect(past.headers['x-sig']).toBe('t=1');
      expect(past.body).toBe('{"type":"charge.settled","id":"a"}');

      const future = hooks.waitFor((w) => w.json?.id === 'b', { timeout: 5_000 });
      hooks.respondWith(500);
      expect((await send({ id: 'b' }, '/retry')).status).toBe(500);
      expect((await future).path).toBe('/hooks/retry');
      expect(hooks.received).toHaveLength(2);

      hooks.clear();
      expect(hooks.received).toHaveLength(0);
      expect((await send({ id: 'c' })).status).toBe(200); // clear() restores 200
      await expect(hooks.waitFor((w) => w.json?.id === 'z', { timeout: 200 })).rejects.toThrow(/no matching webhook within 200 ms; received 1/);
    } finally {
      await hooks.close();
    }
  });
});

describe('webhooks from the gateway to the receiver', () => {
  test('a signed transaction.created arrives; a reset keeps the signing secret and removes the rule', async () => {
    await gw.reset();
    const hooks = await startWebhookReceiver();
    try {
      const rule = await gw.request('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
      const strategy = await gw.request('POST', '/webhooks/strategies', { mode: 'webhook', url: hooks.url });
      expect((await gw.request('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: strategy.body.id })).status).toBe(200);
      const { secret } = (await gw.request('GET', '/webhooks/secret')).body;

      const paid = await gw.charge(await gw.tokenize(cardData(cards.visa)), 1234);
      const hook = await hooks.waitFor((w) => w.json?.type === 'transaction.created', { timeout: 20_000 });
      expect(hook.json.data).toMatchObject({ id: paid.transaction!.id, amount_settled: 1234 });
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hook.headers['tessera-signature']))!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex'));

      await gw.reset();
      expect((await gw.request('GET', '/webhooks/secret')).body.secret).toBe(secret);
      expect((await gw.request('GET', '/webhooks/rules')).body.list ?? []).toEqual([]);
    } finally {
      await hooks.close();
    }
  });
});
