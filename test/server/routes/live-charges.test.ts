import { setConnection } from '../../../server/domain/merchant/processor-connections.js';
import { bank, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';
import {
  ERROR_CARD, charge, connect, events, get, liveMerchant, liveToken, ofTransaction, post, reconcile, row, salesOf, storedSalesOf, test,
  transactionRequests,
} from './live-fixtures.js';

// Live charges through the Authorize.Net connector, end to end against its stand-in
// (test/helpers/authnet-standin.ts): POST /charge in live mode, what the processor was sent, what
// the gateway answered and recorded, and how the reconciler resolves an answer that never came.

describe('live charge: approved', () => {
  test('a card token: 200 SETTLED with the processor\'s ids; one sale sent, as the API takes it', async ({ gateway: gw, standin }) => {
    const token = await liveToken(gw, { ...visa, address_1: '1 Analytical St', city: 'London', zip: '90210' });
    const res = await charge(gw, { token, amount: 1234, description: 'Tea' });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    const [sale] = storedSalesOf(standin, t.id);
    expect(sale).toBeDefined();
    expect(t).toMatchObject({
      status: 'SETTLED', successful: true, settled: true, authorized: true, amount_authorized: 1234, amount_settled: 1234,
      amount_failed: 0, payment_method: 'credit_card', system_trace: sale.transId, error_message: null,
      processor: { connector: 'authorizenet', transaction_id: sale.transId, auth_code: sale.authCode },
    });
    expect(sale.authCode).toMatch(/^[0-9A-Z]{6}$/);
    expect(res.body).not.toContain(visa.card_number);
    // Exactly one sale, carrying what the charge said.
    const sent = salesOf(standin, t.id);
    expect(sent).toHaveLength(1);
    const tr = sent[0].transactionRequest;
    expect(tr).toMatchObject({
      transactionType: 'authCaptureTransaction', amount: '12.34', currencyCode: 'USD',
      payment: { creditCard: { cardNumber: visa.card_number, expirationDate: '2030-12', cardCode: visa.csc } },
      order: { description: 'Tea' },
      billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Analytical St', city: 'London', zip: '90210' },
      customerIP: '127.0.0.1',
    });
    // Our id is 32 hex digits; invoiceNumber (and refId) take 20: its prefix, what lookup matches by.
    expect(tr.order.invoiceNumber).toBe(t.id.slice(0, 20));
    expect(sent[0].refId).toBe(t.id.slice(0, 20));
    expect(sent[0].merchantAuthentication).toEqual({ name: 'standin-login', transactionKey: 'StandinKey123456' });
    // Recorded once, with one event; nothing pending.
    const r = await row(gw, t.id);
    expect(r).toMatchObject({ status: 'SETTLED', pending_since: null, reconcile_after: null });
    expect(await events(gw, t.id)).toEqual(['transaction.created']);
    expect(await get(gw, `/charge/${t.id}`)).toMatchObject({ status: 'SETTLED', processor: { transaction_id: sale.transId } });
  });

  test('the card code is sent only when the payer gave one', async ({ gateway: gw, standin }) => {
    const { csc: _csc, ...noCsc } = visa;
    const res = await charge(gw, { token: await liveToken(gw, noCsc), amount: 500 });
    expect(res.statusCode, res.body).toBe(200);
    const [sent] = salesOf(standin, res.json().id);
    expect(sent.transactionRequest.payment.creditCard).toEqual({ cardNumber: visa.card_number, expirationDate: '2030-12' });
    expect(sent.transactionRequest.amount).toBe('5.00');
  });

  test('an eCheck (bank token) sale: the bank account sent with entry class WEB', async ({ gateway: gw, standin }) => {
    const res = await charge(gw, { token: await liveToken(gw, bank), amount: 4321 });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ status: 'SETTLED', payment_method: 'bank_account', amount_settled: 4321, processor: { connector: 'authorizenet' } });
    const sent = salesOf(standin, t.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].transactionRequest).toMatchObject({ amount: '43.21' });
    expect(sent[0].transactionRequest.payment).toEqual({
      bankAccount: { accountType: 'checking', routingNumber: bank.bank_routing_number, accountNumber: bank.bank_account_number, nameOnAccount: 'Grace Hopper', echeckType: 'WEB' },
    });
  });
});

describe('live charge: declined, refused, held', () => {
  test('a decline (billTo.zip 46282): 402 99820 with the processor\'s text; DECLINED, transaction.failed', async ({ gateway: gw, standin }) => {
    const res = await charge(gw, { token: await liveToken(gw, { ...visa, zip: '46282' }), amount: 1500 });
    const err = expectError(res, 402, '99820', /^This transaction has been declined\.$/);
    const id = err.transaction_id as string;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(salesOf(standin, id)).toHaveLength(1);
    const r = await row(gw, id);
    expect(r).toMatchObject({ status: 'DECLINED', successful: false, settled: false, amount_failed: 1500, error_code: '99820', pending_since: null });
    expect(r.processor).toMatchObject({ connector: 'authorizenet', reason_code: '2' });
    expect(await events(gw, id)).toEqual(['transaction.failed']);
    expect(await get(gw, `/charge/${id}`)).toMatchObject({ status: 'DECLINED', error_message: 'This transaction has been declined.' });
  });

  test('held for review (reason 252): 200 HELD, not settled nor successful; transaction.held', async ({ gateway: gw, standin }) => {
    const token = await liveToken(gw, { ...visa, card_number: ERROR_CARD, csc: undefined });
    const res = await charge(gw, { token, amount: 25200 });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ status: 'HELD', successful: false, settled: false, amount_settled: 0 });
    expect(storedSalesOf(standin, t.id).map((s) => s.transactionStatus)).toEqual(['FDSAuthorizedPendingReview']);
    expect(await events(gw, t.id)).toEqual(['transaction.held']);
    // Not refundable, as nothing settled.
    expectError(await post(gw, `/charge/${t.id}/cancel`, {}), 409, 'REFUND02');
    // The reconciler looks again: the review has not ended, nothing changes, no second event.
    const m = await row(gw, t.id);
    expect(m.reconcile_after).not.toBeNull();
    await reconcile(gw);
    expect(await row(gw, t.id)).toMatchObject({ status: 'HELD', system_trace: m.system_trace });
    expect(await events(gw, t.id)).toEqual(['transaction.held']);
  });
  // The stand-in has no control for a review's decision: its record is set as the Merchant Interface would.
  test.for<[string, string, string[]]>([
    ['approvedReview', 'SETTLED', ['transaction.held', 'transaction.created']],
    ['declined', 'DECLINED', ['transaction.held', 'transaction.failed']],
  ])('a held charge whose review ends (%s): the reconciler records %s, with its event', async ([decided, status, evs], { gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const res = await charge(gw, { token: await liveToken(gw, { ...visa, card_number: ERROR_CARD, csc: undefined }, m), amount: 25300 }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    expect(res.json().status).toBe('HELD');
    const [sale] = storedSalesOf(standin, id);
    expect(sale.transactionStatus).toBe('FDSPendingReview');
    sale.transactionStatus = decided;
    expect(await reconcile(gw, { merchantId: m.id })).toMatchObject({ examined: 1, resolved: 1 });
    expect(await row(gw, id)).toMatchObject({ status, pending_since: null, reconcile_after: null, system_trace: sale.transId });
    expect(await events(gw, id)).toEqual(evs);
    expect(await reconcile(gw, { merchantId: m.id })).toMatchObject({ examined: 0 });
  });

  test('a stored customer\'s card (POST /charge by customer_id): one sale, no card code', async ({ gateway: gw, standin }) => {
    const c = await post(gw, '/customers', { first_name: 'Ada', last_name: 'Lovelace', token: await liveToken(gw, visa) });
    expect(c.statusCode, c.body).toBe(200);
    const res = await charge(gw, { customer_id: c.json().id, amount: 777 });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ status: 'SETTLED', customer_id: c.json().id, amount_settled: 777 });
    const sent = salesOf(standin, t.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].transactionRequest).toMatchObject({ amount: '7.77', billTo: { firstName: 'Ada', lastName: 'Lovelace' } });
    expect(sent[0].transactionRequest.payment.creditCard).toEqual({ cardNumber: visa.card_number, expirationDate: '2030-12' });
    expect(await events(gw, t.id)).toEqual(['transaction.created']);
  });
});

describe('live charge: the processor\'s answer is lost', () => {
  test('HTTP 500: 502 PROC02 naming the charge, PENDING; the processor has no record, so the reconciler fails it (PROC04)', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const token = await liveToken(gw, visa, m);
    standin.fail('status500');
    const res = await charge(gw, { token, amount: 2000 }, {}, m.live.private_key);
    const err = expectError(res, 502, 'PROC02');
    const id = err.transaction_id as string;
    expect(err.message).toContain(id);
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'PENDING', successful: false, settled: false });
    expect(await events(gw, id)).toEqual([]);
    expect(transactionRequests(standin, 'authCaptureTransaction').filter(ofTransaction(id))).toHaveLength(1); // sent once, never again
    // Not found, but too soon to call it never made (the default wait): it stays pending.
    expect(await reconcile(gw, { merchantId: m.id })).toEqual({ examined: 1, resolved: 0, not_found: 0, unresolved: 1 });
    expect(await row(gw, id)).toMatchObject({ status: 'PENDING', pending_since: expect.any(Date) });
    expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toEqual({ examined: 1, resolved: 0, not_found: 1, unresolved: 0 });
    const t = await get(gw, `/charge/${id}`, m.live.private_key);
    expect(t).toMatchObject({ status: 'FAILED', successful: false, amount_settled: 0 });
    expect(await row(gw, id)).toMatchObject({ error_code: 'PROC04', pending_since: null, reconcile_after: null });
    expect(storedSalesOf(standin, id)).toHaveLength(0);
    expect(salesOf(standin, id)).toHaveLength(1);
    expect(await events(gw, id)).toEqual(['transaction.failed']);
  });

  test('the processor charged and the answer was dropped: PROC02, then the reconciler records the sale it finds (once); the Idempotency-Key retry never charges again', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const token = await liveToken(gw, visa, m);
    const key = { 'idempotency-key': `drop-${Date.now()}` };
    standin.fail('act-then-drop');
    const first = await charge(gw, { token, amount: 3100 }, key, m.live.private_key);
    const id = expectError(first, 502, 'PROC02').transaction_id as string;
    // Retried while pending: the same answer, nothing sent.
    const again = await charge(gw, { token, amount: 3100 }, key, m.live.private_key);
    expect(expectError(again, 502, 'PROC02').transaction_id).toBe(id);
    expect(salesOf(standin, id)).toHaveLength(1);
    const [sale] = storedSalesOf(standin, id);
    expect(sale.transactionStatus).toBe('capturedPendingSettlement');
    // Found by its reference (the invoice number), though the gateway never heard its id.
    expect(await reconcile(gw, { merchantId: m.id })).toMatchObject({ examined: 1, resolved: 1 });
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({
      status: 'SETTLED', successful: true, amount_settled: 3100, system_trace: sale.transId,
      processor: { connector: 'authorizenet', transaction_id: sale.transId, auth_code: sale.authCode },
    });
    expect(await events(gw, id)).toEqual(['transaction.created']);
    // A second pass: nothing left to look at, nothing written.
    expect(await reconcile(gw, { merchantId: m.id })).toEqual({ examined: 0, resolved: 0, not_found: 0, unresolved: 0 });
    expect(await events(gw, id)).toEqual(['transaction.created']);
    // The retry now answers the recorded charge; still one sale at the processor.
    const replay = await charge(gw, { token, amount: 3100 }, key, m.live.private_key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({ id, status: 'SETTLED' });
    expect(storedSalesOf(standin, id)).toHaveLength(1);
    expect(salesOf(standin, id)).toHaveLength(1);
  });

  test('while the processor cannot be asked (Transaction Details API off), a lost charge stays pending however old', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    standin.fail('act-then-drop');
    const id = expectError(await charge(gw, { token: await liveToken(gw, visa, m), amount: 3400 }, {}, m.live.private_key), 502, 'PROC02').transaction_id as string;
    standin.setTransactionDetailsApi(false);
    try {
      expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toEqual({ examined: 1, resolved: 0, not_found: 0, unresolved: 1 });
      expect(await row(gw, id)).toMatchObject({ status: 'PENDING', error_code: null });
    } finally {
      standin.setTransactionDetailsApi(true);
    }
    expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toMatchObject({ resolved: 1 });
    expect(await row(gw, id)).toMatchObject({ status: 'SETTLED' });
    expect(await events(gw, id)).toEqual(['transaction.created']);
  });

  test('two reconciler passes at once record one outcome and one event', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    standin.fail('act-then-drop');
    const id = expectError(await charge(gw, { token: await liveToken(gw, visa, m), amount: 3300 }, {}, m.live.private_key), 502, 'PROC02').transaction_id as string;
    const [a, b] = await Promise.all([reconcile(gw, { merchantId: m.id }), reconcile(gw, { merchantId: m.id })]);
    expect(a.resolved + b.resolved).toBe(1);
    expect(a.not_found + b.not_found).toBe(0);
    expect(await row(gw, id)).toMatchObject({ status: 'SETTLED', pending_since: null });
    expect(await events(gw, id)).toEqual(['transaction.created']);
    expect(storedSalesOf(standin, id)).toHaveLength(1);
  });

  test('no answer within the deadline (the processor acted, then hung): PROC02; the reconciler finds the one sale', { timeout: 60_000 }, async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const token = await liveToken(gw, visa, m);
    standin.fail('act-then-hang');
    const started = Date.now();
    const id = expectError(await charge(gw, { token, amount: 3200 }, {}, m.live.private_key), 502, 'PROC02').transaction_id as string;
    expect(Date.now() - started).toBeGreaterThanOrEqual(20_000);
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'PENDING' });
    expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toMatchObject({ examined: 1, resolved: 1, not_found: 0 });
    const [sale] = storedSalesOf(standin, id);
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'SETTLED', system_trace: sale.transId });
    expect(storedSalesOf(standin, id)).toHaveLength(1);
    expect(await events(gw, id)).toEqual(['transaction.created']);
  });
});

describe('live charge: the processor refuses the request', () => {
  test('wrong credentials (E00007): 402 PROC03 with the processor\'s text, FAILED, transaction.failed; nothing charged', async ({ gateway: gw, standin }) => {
    const m = await gw.newMerchant();
    await setConnection(gw.db, gw.vault, gw.app.services.processors, {
      merchantId: m.id, env: 'live', connector: 'authorizenet', fields: { login_id: 'standin-login', transaction_key: 'WrongKey12345678' }, endpoint: standin.url,
    }, gw.clock.now());
    const err = expectError(await charge(gw, { token: await liveToken(gw, visa, m), amount: 1100 }, {}, m.live.private_key), 402, 'PROC03', /authentication failed/);
    const id = err.transaction_id as string;
    expect(await row(gw, id)).toMatchObject({ status: 'FAILED', successful: false, amount_failed: 1100, error_code: 'PROC03', pending_since: null });
    expect(await events(gw, id)).toEqual(['transaction.failed']);
    expect(storedSalesOf(standin, id)).toEqual([]);
  });
});

describe('live mode without a connection; test mode', () => {
  test('no live connection: 503 PROC01, nothing recorded, the token still usable once connected', async ({ gateway: gw, standin }) => {
    const m = await gw.newMerchant();
    const token = await liveToken(gw, visa, m);
    const before = standin.requests.length;
    expectError(await charge(gw, { token, amount: 1000 }, {}, m.live.private_key), 503, 'PROC01');
    expect(await gw.db.query('SELECT id FROM transactions WHERE merchant_id = $1', [m.id])).toEqual([]);
    expect(standin.requests.length).toBe(before);
    await connect(gw, standin, m);
    const res = await charge(gw, { token, amount: 1000 }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    expect(salesOf(standin, res.json().id)).toHaveLength(1);
  });

  test('test mode charges through the simulator even with a live connection: the stand-in hears nothing', async ({ gateway: gw, standin }) => {
    const before = standin.requests.length;
    const token = await tokenFor(gw, visa);
    const res = await charge(gw, { token, amount: 1234 }, {}, gw.merchant.test.private_key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SETTLED', processor: null });
    expect(standin.requests.length).toBe(before);
  });
});
