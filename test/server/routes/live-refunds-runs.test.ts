import { connectorFor } from '../../../server/domain/merchant/connectors.js';
import { completeRefund } from '../../../server/domain/payments/refunds.js';
import { refundCharge } from '../../../server/domain/payments/transactions.js';
import { runDue } from '../../../server/jobs/scheduler.js';
import { type Connector, unknownResult } from '../../../server/processor/processor.js';
import { bank, describe, expect, expectError, visa } from '../../fixtures.js';
import type { TestGateway } from '../../fixtures.js';
import type { AuthnetStandin } from '../../helpers/authnet-standin.js';
import { jobDeps } from './billings-fixtures.js';
import { builtInRegistry } from '../../../server/processor/processor.js';
import {
  ERROR_CARD, charge, events, get, liveToken, post, reconcile, row, salesOf, storedSalesOf, test, transactionRequests,
} from './live-fixtures.js';

// Live refunds (void before settlement, refund after, REFUND03 for a part before) and live
// subscription and scheduled runs, through the Authorize.Net connector and its stand-in.

/** A settled-at-the-gateway live card charge of `amount`: its id and the stand-in's sale. */
async function liveCharge(gw: TestGateway, standin: AuthnetStandin, amount: number) {
  const res = await charge(gw, { token: await liveToken(gw, visa), amount });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as string;
  const [sale] = storedSalesOf(standin, id);
  expect(sale).toBeDefined();
  return { id, sale };
}
const cancel = (gw: TestGateway, id: string, body: unknown = {}) => post(gw, `/charge/${id}/cancel`, body);
/** The void and refund requests the stand-in got about the sale `transId`. */
const reversals = (standin: AuthnetStandin, transId: string) =>
  [...transactionRequests(standin, 'voidTransaction'), ...transactionRequests(standin, 'refundTransaction')]
    .filter((c) => c.transactionRequest.refTransId === transId);
/**
 * A live refund of `amount` (null: the rest) made by the domain as the route makes it, through the
 * merchant's real connector, whose void/refund answer is lost after the processor acted (as the
 * stand-in's act-then-drop would, but that fault cannot skip the settlement lookup sent first).
 * Returns what completeRefund threw.
 */
async function lostReversal(gw: TestGateway, id: string, amount: number | null): Promise<unknown> {
  const scope = { merchantId: gw.merchant.id, env: 'live' as const };
  const real = (await connectorFor(gw.db, { vault: gw.vault, processors: gw.app.services.processors }, scope))!;
  const lost = (call: Connector['void']): Connector['void'] => async (req, ctx) => {
    await call(req, ctx);
    return unknownResult('the answer was lost');
  };
  const losing: Connector = { ...real, void: lost(real.void), refund: lost(real.refund) };
  const now = gw.clock.now();
  const { txn, pending } = await gw.db.tx((q) => refundCharge(q, scope, id, amount, now, losing));
  return completeRefund(gw.db, losing, scope, txn, pending!, now).then(() => null, (err: unknown) => err);
}
const refundRows = (gw: TestGateway, id: string) =>
  gw.db.query<{ status: string; kind: string; amount: number; pending_since: Date | null }>(
    'SELECT status, kind, amount::int AS amount, pending_since FROM refunds WHERE transaction_id = $1 ORDER BY seq', [id]);

// The order matters: the stand-in settles every open sale at once (settle()), so the unsettled cases come first.
describe('live refunds', () => {
  test('the whole charge before settlement is a void: refunds[0] kind void, voided; voidTransaction sent', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 1000);
    const res = await cancel(gw, id);
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ id, status: 'SETTLED', voided: true, refunded: true, amount_refunded: 1000 });
    expect(t.refunds).toEqual([expect.objectContaining({ amount: 1000, kind: 'void', status: 'succeeded' })]);
    const sent = reversals(standin, sale.transId);
    expect(sent.map((c) => c.transactionRequest)).toEqual([{ transactionType: 'voidTransaction', refTransId: sale.transId }]);
    expect(sale.transactionStatus).toBe('voided');
    expect(await events(gw, id)).toEqual(['transaction.created', 'transaction.refunded']);
    expect(await refundRows(gw, id)).toEqual([{ status: 'succeeded', kind: 'void', amount: 1000, pending_since: null }]);
    // Nothing is left to refund.
    expectError(await cancel(gw, id), 400, 'REFUND01');
    expect(reversals(standin, sale.transId)).toHaveLength(1);
  });

  test('part of a charge before settlement: 409 REFUND03, nothing sent, nothing refunded', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 1000);
    expectError(await cancel(gw, id, { amount: 400 }), 409, 'REFUND03');
    expect(reversals(standin, sale.transId)).toEqual([]);
    expect(await get(gw, `/charge/${id}`)).toMatchObject({ amount_refunded: 0, refunded: false, voided: false });
    expect(await refundRows(gw, id)).toEqual([expect.objectContaining({ status: 'failed', amount: 400, pending_since: null })]);
    expect(await events(gw, id)).toEqual(['transaction.created']);
    expect(sale.transactionStatus).toBe('capturedPendingSettlement');
  });

  test('a void whose answer is lost: pending (PROC02), then the reconciler records the void the processor made', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 800);
    const err = await lostReversal(gw, id, null);
    expect(err).toMatchObject({ code: 'PROC02', details: { transaction_id: id } });
    expect(sale.transactionStatus).toBe('voided'); // it happened at the processor
    expect(await refundRows(gw, id)).toEqual([expect.objectContaining({ status: 'pending', kind: 'void', amount: 800 })]);
    await reconcile(gw, { notFoundAfterMs: 0 });
    expect(await refundRows(gw, id)).toEqual([{ status: 'succeeded', kind: 'void', amount: 800, pending_since: null }]);
    expect(await get(gw, `/charge/${id}`)).toMatchObject({ amount_refunded: 800, refunded: true, voided: true });
  });

  test('after settlement: a part is a refund (last four + XXXX), then over-refund is refused, then the rest', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 1000);
    standin.settle();
    expect(sale.transactionStatus).toBe('settledSuccessfully');
    const res = await cancel(gw, id, { amount: 400 });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({ amount_refunded: 400, refunded: false, voided: false, status: 'SETTLED' });
    expect(t.refunds).toEqual([expect.objectContaining({ amount: 400, kind: 'refund', status: 'succeeded' })]);
    const sent = reversals(standin, sale.transId);
    expect(sent).toHaveLength(1);
    expect(sent[0].transactionRequest).toMatchObject({
      transactionType: 'refundTransaction', amount: '4.00', currencyCode: 'USD',
      payment: { creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } }, refTransId: sale.transId,
    });
    expect(JSON.stringify(sent[0])).not.toContain(visa.card_number);
    expect(sale.refundedCents).toBe(400);
    // Over what remains: refused by the gateway, nothing sent.
    expectError(await cancel(gw, id, { amount: 601 }), 400, 'REFUND01');
    expect(reversals(standin, sale.transId)).toHaveLength(1);
    // The rest, with no amount: a refund too (settled), not a void.
    const rest = await cancel(gw, id);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ amount_refunded: 1000, refunded: true, voided: false });
    expect(rest.json().refunds.map((r: any) => [r.kind, r.amount, r.status])).toEqual([['refund', 400, 'succeeded'], ['refund', 600, 'succeeded']]);
    expect(sale.refundedCents).toBe(1000);
    expect(await events(gw, id)).toEqual(['transaction.created', 'transaction.refunded', 'transaction.refunded']);
  });

  test('the processor cannot say whether the charge settled: the refund is tried, and goes through once settled', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 500);
    standin.settle();
    standin.fail('status500', 3); // the settlement lookup, read three times
    const res = await cancel(gw, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount_refunded: 500, refunded: true, voided: false, refunds: [expect.objectContaining({ status: 'succeeded', kind: 'refund' })] });
    expect(transactionRequests(standin, 'refundTransaction').filter((c) => c.transactionRequest.refTransId === sale.transId)).toHaveLength(1);
  });

  test('an eCheck refund after settlement names the account by routing number and last four, its type kept', async ({ gateway: gw, standin }) => {
    const res = await charge(gw, { token: await liveToken(gw, { ...bank, bank_account_type: 'savings' }), amount: 6000 });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const [sale] = storedSalesOf(standin, id);
    expect(salesOf(standin, id)[0].transactionRequest.payment.bankAccount).toMatchObject({ accountType: 'savings', echeckType: 'WEB' });
    standin.settle();
    const refunded = await cancel(gw, id, { amount: 1000 });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const [sent] = reversals(standin, sale.transId);
    expect(sent.transactionRequest.payment).toEqual({
      bankAccount: { accountType: 'savings', routingNumber: bank.bank_routing_number, accountNumber: 'XXXX6789', nameOnAccount: 'Grace Hopper' },
    });
    expect(sale.refundedCents).toBe(1000);
  });

  test('a refund whose answer is lost after settlement: pending (PROC02), then the reconciler records the refund it finds', async ({ gateway: gw, standin }) => {
    const { id, sale } = await liveCharge(gw, standin, 900);
    standin.settle();
    const err = await lostReversal(gw, id, 300);
    expect(err).toMatchObject({ code: 'PROC02', details: { transaction_id: id } });
    expect(sale.refundedCents).toBe(300); // it happened at the processor
    expect(await refundRows(gw, id)).toEqual([expect.objectContaining({ status: 'pending', kind: 'refund', amount: 300 })]);
    expect(await get(gw, `/charge/${id}`)).toMatchObject({ amount_refunded: 0 });
    await reconcile(gw, { notFoundAfterMs: 0 });
    expect(await refundRows(gw, id)).toEqual([{ status: 'succeeded', kind: 'refund', amount: 300, pending_since: null }]);
    expect(await get(gw, `/charge/${id}`)).toMatchObject({ amount_refunded: 300, refunded: false });
    expect(await events(gw, id)).toEqual(['transaction.created', 'transaction.refunded']);
  });
});

describe('live runs: subscriptions and scheduled transactions', () => {
  const live = (gw: TestGateway) => ({
    ok: async (url: string, body: unknown) => {
      const res = await post(gw, url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json();
    },
  });
  async function subscribed(gw: TestGateway, card: string, amount: number) {
    const a = live(gw);
    const token = await liveToken(gw, { ...visa, card_number: card, csc: undefined });
    const c = await a.ok('/customers', { first_name: 'Ada', last_name: 'Lovelace', token });
    const p = await a.ok('/plans', { name: 'Gold', frequency: 'monthly', amount });
    return a.ok(`/plans/${p.id}/subscription/${c.id}`, {});
  }
  const billings = async (gw: TestGateway, subscriptionId: number) =>
    (await get(gw, `/billings?subscription_id=${subscriptionId}&limit=100`)).list as any[];

  test('a subscription run charges through the processor: billing success, one sale', async ({ gateway: gw, standin }) => {
    const s = await subscribed(gw, visa.card_number, 1500);
    const out = await runDue(jobDeps(gw), new Date(s.next_billing));
    expect(out).toMatchObject({ billings: 1, failed_billings: 0, errors: 0 });
    const [b] = await billings(gw, s.id);
    expect(b).toMatchObject({ status: 'success', amount: 1500 });
    const sent = salesOf(standin, b.transaction_id);
    expect(sent).toHaveLength(1);
    expect(sent[0].transactionRequest).toMatchObject({ amount: '15.00', payment: { creditCard: { cardNumber: visa.card_number, expirationDate: '2030-12' } } });
    expect(sent[0].transactionRequest.payment.creditCard).not.toHaveProperty('cardCode');
    expect(await get(gw, `/charge/${b.transaction_id}`)).toMatchObject({ status: 'SETTLED', source: 'subscription', recurring: true });
  });

  test('one round asks the processor for several live runs at once, and counts each by its outcome', async ({ gateway: gw, standin }) => {
    const subs = [await subscribed(gw, visa.card_number, 1600), await subscribed(gw, visa.card_number, 1700), await subscribed(gw, ERROR_CARD, 200)];
    let inFlight = 0;
    let most = 0;
    // The processor's HTTP client, counting the sales under way at once (each answered after 300 ms).
    const counting: typeof fetch = async (url, init) => {
      const sale = String(init?.body ?? '').includes('authCaptureTransaction');
      if (sale) most = Math.max(most, ++inFlight);
      try {
        return await fetch(url, init);
      } finally {
        if (sale) inFlight--;
      }
    };
    standin.setLatency(300);
    try {
      const due = new Date(Math.max(...subs.map((x) => Date.parse(x.next_billing))));
      const out = await runDue({ ...jobDeps(gw), processors: builtInRegistry({ fetch: counting }) }, due);
      expect(out).toMatchObject({ billings: 2, failed_billings: 1, errors: 0 });
    } finally {
      standin.setLatency(0);
    }
    expect(most).toBeGreaterThan(1);
    const statuses = await Promise.all(subs.map(async (x) => (await billings(gw, x.id))[0].status));
    expect(statuses).toEqual(['success', 'success', 'failed']);
  });

  test('a declined subscription run: billing failed with the processor\'s decline', async ({ gateway: gw, standin }) => {
    const s = await subscribed(gw, ERROR_CARD, 200); // $2.00 on the error card: reason 2, declined
    const out = await runDue(jobDeps(gw), new Date(s.next_billing));
    expect(out).toMatchObject({ billings: 0, failed_billings: 1, errors: 0 });
    const [b] = await billings(gw, s.id);
    expect(b).toMatchObject({ status: 'failed', error_code: '99820' });
    expect(salesOf(standin, b.transaction_id)).toHaveLength(1);
    expect((await row(gw, b.transaction_id)).status).toBe('DECLINED');
  });

  test('a live retry of a failed billing is charged through the processor; a lost answer leaves it pending for the reconciler', async ({ gateway: gw, standin }) => {
    const s = await subscribed(gw, ERROR_CARD, 200);
    await runDue(jobDeps(gw), new Date(s.next_billing));
    const [failed] = await billings(gw, s.id);
    expect(failed.status).toBe('failed');
    // Declined again: answered 200, the new billing failed; one more sale sent.
    const retried = await post(gw, '/billings/retry', { id: failed.transaction_id });
    expect(retried.statusCode, retried.body).toBe(200);
    const second = retried.json();
    expect(second).toMatchObject({ status: 'failed', error_code: '99820' });
    expect(second.transaction_id).not.toBe(failed.transaction_id);
    expect(salesOf(standin, second.transaction_id)).toHaveLength(1);
    // Its answer lost: the billing waits (pending) until the reconciler reads the sale.
    standin.fail('act-then-drop');
    const lost = await post(gw, '/billings/retry', { id: second.transaction_id });
    expect(lost.statusCode, lost.body).toBe(200);
    const third = lost.json();
    expect(third.status).toBe('pending'); // not in BillingSchema's enum (success, failed, retried): reported
    expect((await row(gw, third.transaction_id)).status).toBe('PENDING');
    expect(salesOf(standin, third.transaction_id)).toHaveLength(1);
    await reconcile(gw, { notFoundAfterMs: 0 });
    expect(await row(gw, third.transaction_id)).toMatchObject({ status: 'DECLINED', error_code: '99820' });
    expect(await get(gw, `/billings/${third.transaction_id}`)).toMatchObject({ status: 'failed', error_code: '99820' });
  });

  test('a run whose answer is lost stays pending; the reconciler settles it and the billing with it', async ({ gateway: gw, standin }) => {
    const s = await subscribed(gw, visa.card_number, 1700);
    standin.fail('act-then-drop');
    await runDue(jobDeps(gw), new Date(s.next_billing));
    const [pending] = await gw.db.query<{ status: string; transaction_id: string }>('SELECT status, transaction_id FROM billings WHERE subscription_id = $1', [s.id]);
    expect(pending.status).toBe('pending');
    expect((await row(gw, pending.transaction_id)).status).toBe('PENDING');
    await reconcile(gw, { notFoundAfterMs: 0 });
    const [b] = await billings(gw, s.id);
    expect(b).toMatchObject({ status: 'success', transaction_id: pending.transaction_id });
    expect(storedSalesOf(standin, b.transaction_id)).toHaveLength(1);
  });

  test('a scheduled transaction run charges through the processor: billed, one sale', async ({ gateway: gw, standin }) => {
    const a = live(gw);
    const token = await liveToken(gw, { ...visa, csc: undefined });
    const c = await a.ok('/customers', { first_name: 'Ada', last_name: 'Lovelace', token });
    const st = await a.ok('/scheduled_transactions', { customer_id: c.id, amount: 2200, bill_on: '2026-01-20' });
    await runDue(jobDeps(gw), new Date('2026-01-20T00:00:01Z'));
    const done = await get(gw, `/scheduled_transactions/${st.id}`);
    expect(done).toMatchObject({ status: 'billed' });
    expect(salesOf(standin, done.transaction_id).map((r) => r.transactionRequest.amount)).toEqual(['22.00']);
  });
});
