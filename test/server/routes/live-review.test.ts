import { describe, expect, expectError, visa } from '../../fixtures.js';
import type { AuthnetStandin } from '../../helpers/authnet-standin.js';
import {
  ERROR_CARD, charge, events, get, liveMerchant, liveToken, post, reconcile, storedSalesOf, test, transactionRequests,
} from './live-fixtures.js';

/** The void and refund requests the stand-in got about the sale `transId`, by type, in order. */
const reversalsOf = (standin: AuthnetStandin, transId: string) => transactionRequests(standin)
  .filter((c) => c.transactionRequest.refTransId === transId).map((c) => c.transactionRequest.transactionType as string);

// Cases a review of the live path found: a sale voided at the processor is no settled charge; a
// refund does not depend on the processor's reporting (off by default at Authorize.Net), and one
// retried with its Idempotency-Key never turns a refund that did not happen into a 200.

describe('what the reconciler records', () => {
  test('a pending sale the merchant voided at the processor is recorded declined, never SETTLED', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    standin.fail('act-then-drop');
    const first = await charge(gw, { token: await liveToken(gw, visa, m), amount: 2600 }, {}, m.live.private_key);
    const id = expectError(first, 502, 'PROC02').transaction_id as string;
    const [sale] = storedSalesOf(standin, id);
    sale.transactionStatus = 'voided';
    expect(await reconcile(gw, { merchantId: m.id })).toMatchObject({ examined: 1, resolved: 1 });
    const t = await get(gw, `/charge/${id}`, m.live.private_key);
    expect(t).toMatchObject({ status: 'DECLINED', successful: false, settled: false, amount_settled: 0, error_code: '99820' });
    expect(await events(gw, id)).toEqual(['transaction.failed']);
  });
});

describe('a refund when the processor cannot say whether the sale settled (its reporting off)', () => {
  test('the whole of an unsettled sale: the refund is refused as not settled (reason 54), so the sale is voided', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const res = await charge(gw, { token: await liveToken(gw, visa, m), amount: 1800 }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const [sale] = storedSalesOf(standin, id);
    standin.setTransactionDetailsApi(false);
    try {
      const done = await post(gw, `/charge/${id}/cancel`, {}, {}, m.live.private_key);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ voided: true, refunded: true, amount_refunded: 1800, refunds: [{ kind: 'void', status: 'succeeded' }] });
    } finally {
      standin.setTransactionDetailsApi(true);
    }
    expect(sale.transactionStatus).toBe('voided');
    expect(reversalsOf(standin, sale.transId)).toEqual(['refundTransaction', 'voidTransaction']);
  });

  test('part of an unsettled sale: REFUND03, and its Idempotency-Key retry answers the same, nothing sent again, nothing refunded', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const res = await charge(gw, { token: await liveToken(gw, visa, m), amount: 1800 }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const [sale] = storedSalesOf(standin, id);
    const key = { 'idempotency-key': `refund-${Date.now()}` };
    standin.setTransactionDetailsApi(false);
    try {
      expectError(await post(gw, `/charge/${id}/cancel`, { amount: 500 }, key, m.live.private_key), 409, 'REFUND03');
      expectError(await post(gw, `/charge/${id}/cancel`, { amount: 500 }, key, m.live.private_key), 409, 'REFUND03');
    } finally {
      standin.setTransactionDetailsApi(true);
    }
    expect(reversalsOf(standin, sale.transId)).toEqual(['refundTransaction']);
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ amount_refunded: 0, refunded: false, voided: false, refunds: [{ status: 'failed' }] });
  });
});

describe('a processor account changed while an operation is unresolved', () => {
  test("the new account's 'no record' is not taken as never charged: the charge stays pending until the account it went to answers", async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    standin.fail('status500');
    const first = await charge(gw, { token: await liveToken(gw, visa, m), amount: 2700 }, {}, m.live.private_key);
    const id = expectError(first, 502, 'PROC02').transaction_id as string;
    const account = (await gw.db.query<{ a: string }>("SELECT processor->>'account' AS a FROM transactions WHERE id = $1", [id]))[0].a;
    expect(account).toMatch(/^authorizenet:/);
    await gw.db.query(`UPDATE transactions SET processor = processor || '{"account": "authorizenet:another"}'::jsonb WHERE id = $1`, [id]);
    expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toEqual({ examined: 1, resolved: 0, not_found: 0, unresolved: 1 });
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'PENDING' });
    await gw.db.query('UPDATE transactions SET processor = jsonb_set(processor, \'{account}\', to_jsonb($2::text)) WHERE id = $1', [id, account]);
    expect(await reconcile(gw, { merchantId: m.id, notFoundAfterMs: 0 })).toEqual({ examined: 1, resolved: 0, not_found: 1, unresolved: 0 });
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'FAILED', error_code: 'PROC04' });
  });
});

describe('a receipt asked for by a charge the reconciler settles', () => {
  test('a held charge approved by review gets its receipt when the reconciler records it (none while held)', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const token = await liveToken(gw, { ...visa, card_number: ERROR_CARD, csc: undefined }, m);
    const res = await charge(gw, { token, amount: 25300, send_receipt: true, email_address: 'ada@example.com' }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    expect(res.json()).toMatchObject({ status: 'HELD', receipt: { due: true, receipt_id: null } });
    const receipts = () => gw.db.query('SELECT id FROM receipts WHERE transaction_id = $1', [id]);
    expect(await receipts()).toHaveLength(0);
    storedSalesOf(standin, id)[0].transactionStatus = 'approvedReview';
    expect(await reconcile(gw, { merchantId: m.id })).toMatchObject({ resolved: 1 });
    expect(await receipts()).toHaveLength(1);
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ status: 'SETTLED', receipt: { due: true, receipt_id: expect.any(Number) } });
  });
});
