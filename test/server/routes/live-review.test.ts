import { describe, expect, expectError, visa } from '../../fixtures.js';
import {
  charge, events, get, liveMerchant, liveToken, post, reconcile, storedSalesOf, test,
} from './live-fixtures.js';

// Cases a review of the live path found: a sale voided at the processor is no settled charge, and a
// refund retried with its Idempotency-Key never turns a refund that did not happen into a 200.

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

describe('a refund retried with its Idempotency-Key', () => {
  test('the processor could not be asked (503 PROC05): the retry is REFUND04, never a 200, and nothing was refunded', async ({ gateway: gw, standin }) => {
    const m = await liveMerchant(gw, standin);
    const res = await charge(gw, { token: await liveToken(gw, visa, m), amount: 1800 }, {}, m.live.private_key);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const key = { 'idempotency-key': `refund-${Date.now()}` };
    standin.setTransactionDetailsApi(false);
    try {
      expectError(await post(gw, `/charge/${id}/cancel`, {}, key, m.live.private_key), 503, 'PROC05');
      expectError(await post(gw, `/charge/${id}/cancel`, {}, key, m.live.private_key), 402, 'REFUND04');
    } finally {
      standin.setTransactionDetailsApi(true);
    }
    expect(await get(gw, `/charge/${id}`, m.live.private_key)).toMatchObject({ amount_refunded: 0, refunded: false, refunds: [{ status: 'failed' }] });
  });
});
