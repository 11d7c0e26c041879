import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connector, SaleRequest } from '../../../server/processor/connector.js';
import { authorizenet } from '../../../server/processor/connectors/authorizenet/index.js';
import { STATUS } from '../../../server/processor/connectors/authorizenet/reporting.js';
import { startAuthnetStandin, type AuthnetStandin } from '../../helpers/authnet-standin.js';

// lookup(): by transId, or by our reference (the invoiceNumber) through the unsettled list and the
// settled batches, paging included; "could not ask" throws, found:false only on a full answer.

const LOGIN = 'lookup-login';
const KEY = 'Lookup1234567890';
let standin: AuthnetStandin;
let anet: Connector;
const ctx = (ms = 20_000) => ({ signal: AbortSignal.timeout(ms) });
let n = 0;
const sale = (over: Partial<SaleRequest> = {}): SaleRequest => ({
  reference: `lk_${Date.now().toString(36)}_${(n++).toString(36)}`, amount: 1500, currency: 'USD', payerIp: null, description: null,
  instrument: { kind: 'card', number: '4007000000027', expMonth: 1, expYear: new Date().getFullYear() + 1, csc: null, holder: null, address: { line1: null, line2: null, city: null, state: null, zip: null, country: null } },
  customer: { id: null, email: null, firstName: null, lastName: null, company: null }, ...over,
});
const byRef = (reference: string, createdAt = new Date()) => anet.lookup({ reference, processorId: null, createdAt, amount: 0 }, ctx());
const methods = () => standin.requests.map((r) => Object.keys(r as object)[0]);

beforeEach(async () => {
  standin = await startAuthnetStandin({ loginId: LOGIN, transactionKey: KEY });
  anet = authorizenet.create(
    { connector: 'authorizenet', settings: { login_id: LOGIN, endpoint: standin.url }, secrets: { transaction_key: KEY } },
    { fetch: globalThis.fetch },
  );
});
afterEach(() => standin.close());

describe('lookup', () => {
  it('a reference never sent: found:false once the unsettled list and the settled batches were read', async () => {
    await anet.sale(sale(), ctx());
    standin.settle();
    standin.requests.length = 0;
    expect(await byRef('lk_never_sent')).toEqual({ found: false });
    expect(methods()).toEqual(['getUnsettledTransactionListRequest', 'getSettledBatchListRequest', 'getTransactionListRequest']);
  });

  it('an unknown transId: found:false (E00040)', async () => {
    expect(await anet.lookup({ reference: 'x', processorId: '99999999', createdAt: new Date(), amount: 0 }, ctx())).toEqual({ found: false });
  });

  it('by transId: the status read into outcome and settlement, the processor\'s own codes kept', async () => {
    const s = sale({ instrument: { ...sale().instrument, csc: '901' } as SaleRequest['instrument'] });
    const r = await anet.sale(s, ctx());
    const found = await anet.lookup({ reference: s.reference, processorId: r.processorId, createdAt: new Date(), amount: s.amount }, ctx());
    expect(found).toEqual({
      found: true, settlement: 'unsettled',
      result: { outcome: 'approved', processorId: r.processorId, authCode: r.authCode, avs: 'P', cvv: 'N', reasonCode: '1', message: 'This transaction has been approved. (transactionStatus capturedPendingSettlement)' },
    });
  });

  it('declined and held sales are found declined and held', async () => {
    const d = sale({ instrument: { ...sale().instrument, address: { line1: null, line2: null, city: null, state: null, zip: '46282', country: null } } as SaleRequest['instrument'] });
    const h = sale({ amount: 25200, instrument: { ...sale().instrument, number: '4222222222222' } as SaleRequest['instrument'] });
    await anet.sale(d, ctx());
    await anet.sale(h, ctx());
    expect(await byRef(d.reference)).toMatchObject({ found: true, settlement: 'declined', result: { outcome: 'declined', reasonCode: '2' } });
    expect(await byRef(h.reference)).toMatchObject({ found: true, settlement: 'held', result: { outcome: 'held', reasonCode: '252' } });
  });

  it('a settled sale is found in its batch; a refund by its own reference', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    standin.settle();
    expect(await byRef(s.reference)).toMatchObject({ found: true, settlement: 'settled', result: { outcome: 'approved', processorId: r.processorId } });
    const refund = await anet.refund({
      reference: `rf_${s.reference.slice(3)}`, amount: 500, currency: 'USD',
      sale: { reference: s.reference, processorId: r.processorId!, amount: s.amount, instrument: { kind: 'card', last4: '0027', expMonth: 1, expYear: 2030 } },
    }, ctx());
    expect(refund.outcome).toBe('approved');
    standin.settle();
    expect(await byRef(`rf_${s.reference.slice(3)}`)).toMatchObject({ found: true, settlement: 'settled', result: { outcome: 'approved', processorId: refund.processorId } });
  });

  it('an operation recorded 45 days ago: only the settled batches of the days around it are asked for (one range, not 45 days of them)', async () => {
    const s = sale();
    await anet.sale(s, ctx());
    standin.settle(new Date(Date.now() - 44 * 86_400_000));
    standin.requests.length = 0;
    const recorded = Date.now() - 45 * 86_400_000;
    expect(await byRef(s.reference, new Date(recorded))).toMatchObject({ found: true, settlement: 'settled' });
    const ranges = standin.requests.filter((r) => 'getSettledBatchListRequest' in (r as object))
      .map((r) => (r as { getSettledBatchListRequest: { firstSettlementDate: string; lastSettlementDate: string } }).getSettledBatchListRequest);
    expect(ranges.length).toBe(1);
    // From a day before it was recorded to four days after (a captured sale settles in the next daily batch), plus an hour's skew.
    expect(Date.parse(ranges[0].firstSettlementDate)).toBeGreaterThanOrEqual(recorded - 86_400_000 - 1000);
    expect(Date.parse(ranges[0].lastSettlementDate)).toBeLessThanOrEqual(recorded + 4 * 86_400_000 + 3_600_000 + 1000);
  });

  it('pages through the unsettled list and a batch\'s list (1000 a page)', { timeout: 60_000 }, async () => {
    const first = sale();
    await anet.sale(first, ctx());
    for (let i = 0; i < 1000; i++) await anet.sale(sale({ amount: 100 + i }), ctx());
    standin.requests.length = 0;
    expect(await byRef(first.reference)).toMatchObject({ found: true, settlement: 'unsettled' });
    const pages = standin.requests.filter((r) => 'getUnsettledTransactionListRequest' in (r as object))
      .map((r) => (r as { getUnsettledTransactionListRequest: { paging: { offset: number } } }).getUnsettledTransactionListRequest.paging.offset);
    expect(pages).toEqual([1, 2]);
    standin.settle();
    standin.requests.length = 0;
    expect(await byRef(first.reference)).toMatchObject({ found: true, settlement: 'settled' });
    expect(methods().filter((m) => m === 'getTransactionListRequest').length).toBe(2);
  });

  it('the Transaction Details API off (E00011): the lookup throws, naming the setting', async () => {
    standin.setTransactionDetailsApi(false);
    await expect(byRef('lk_any')).rejects.toThrow(/E00011.*Transaction Details API/);
  });

  it('a read that fails is retried; one that keeps failing throws (still unknown), never found:false', async () => {
    const s = sale();
    await anet.sale(s, ctx());
    standin.fail('status500');
    expect(await byRef(s.reference)).toMatchObject({ found: true });
    standin.fail('status500', 3);
    await expect(byRef(s.reference)).rejects.toThrow(/could not ask Authorize.Net: Authorize.Net answered HTTP 500/);
    standin.fail('hang', 5);
    await expect(anet.lookup({ reference: s.reference, processorId: null, createdAt: new Date(), amount: 0 }, ctx(300))).rejects.toThrow(/could not ask/);
  });
});

describe('transactionStatus mapping', () => {
  it('every status of the schema\'s transactionStatusEnum has an outcome and a settlement', () => {
    const schema = ['authorizedPendingCapture', 'capturedPendingSettlement', 'communicationError', 'refundSettledSuccessfully',
      'refundPendingSettlement', 'approvedReview', 'declined', 'couldNotVoid', 'expired', 'generalError', 'pendingFinalSettlement',
      'pendingSettlement', 'failedReview', 'settledSuccessfully', 'settlementError', 'underReview', 'updatingSettlement', 'voided',
      'FDSPendingReview', 'FDSAuthorizedPendingReview', 'returnedItem', 'chargeback', 'chargebackReversal', 'authorizedPendingRelease'];
    expect(Object.keys(STATUS).sort()).toEqual([...schema].sort());
  });
});
