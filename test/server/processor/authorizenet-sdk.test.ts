import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector, ReverseRequest, SaleRequest } from '../../../server/processor/connector.js';
import { authorizenet } from '../../../server/processor/connectors/authorizenet/index.js';
import { startAuthnetStandin, type AuthnetStandin } from '../../helpers/authnet-standin.js';

// Cross-check against Authorize.Net's official Node SDK (the `authorizenet` package, a
// devDependency; its contract classes are generated from AnetApiSchema.xsd and build their JSON in
// the schema's order): for the same input, the body our connector puts on the wire is the SDK's
// getJSON(), key order included. The SDK adds `clientId` ("sdk-node-<version>") when it sends;
// getJSON() leaves it null: it is optional and we do not send it, so it is dropped before comparing.

const sdk = createRequire(import.meta.url)('authorizenet') as { APIContracts: any };
const C = sdk.APIContracts;

const LOGIN = 'sdk-check-login';
const KEY = 'Sdkcheck12345678';
let standin: AuthnetStandin;
let anet: Connector;

/** The SDK's JSON as it would be sent (nulls out, clientId out), as ordered plain data. */
function sdkJson(request: { getJSON(): unknown }): unknown {
  const json = JSON.parse(JSON.stringify(request.getJSON()));
  for (const method of Object.values(json) as Record<string, unknown>[]) delete method.clientId;
  return json;
}
/** Same shape with every object's keys listed in order, so toEqual compares order too. */
const ordered = (v: unknown): unknown => (Array.isArray(v) ? v.map(ordered)
  : v && typeof v === 'object' ? Object.entries(v).map(([k, x]) => [k, ordered(x)]) : v);
const sent = () => standin.requests[standin.requests.length - 1];

function auth() {
  const a = new C.MerchantAuthenticationType();
  a.setName(LOGIN);
  a.setTransactionKey(KEY);
  return a;
}

beforeAll(async () => {
  standin = await startAuthnetStandin({ loginId: LOGIN, transactionKey: KEY });
  anet = authorizenet.create(
    { connector: 'authorizenet', settings: { login_id: LOGIN, endpoint: standin.url }, secrets: { transaction_key: KEY } },
    { fetch: globalThis.fetch },
  );
});
afterAll(() => standin.close());

const year = new Date().getFullYear() + 3;
const saleInput: SaleRequest = {
  reference: 'tx_sdk_cross_check1', amount: 4321, currency: 'USD', payerIp: '192.0.2.44', description: 'Two widgets',
  instrument: {
    kind: 'card', number: '5424000000000015', expMonth: 7, expYear: year, csc: '123', holder: 'Grace Hopper',
    address: { line1: '7 Compiler Court', line2: 'Suite 2', city: 'Arlington', state: 'VA', zip: '22201', country: 'US' },
  },
  customer: { id: 'cus_42', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
};

describe('the official SDK builds the same request', () => {
  it('sale (authCaptureTransaction, card)', async () => {
    const r = await anet.sale(saleInput, { signal: AbortSignal.timeout(10_000) });
    expect(r.outcome).toBe('approved');

    const cc = new C.CreditCardType();
    cc.setCardNumber('5424000000000015');
    cc.setExpirationDate(`${year}-07`);
    cc.setCardCode('123');
    const payment = new C.PaymentType();
    payment.setCreditCard(cc);
    const order = new C.OrderType();
    order.setInvoiceNumber('tx_sdk_cross_check1');
    order.setDescription('Two widgets');
    const customer = new C.CustomerDataType();
    customer.setId('cus_42');
    customer.setEmail('grace@example.com');
    const billTo = new C.CustomerAddressType();
    billTo.setFirstName('Grace');
    billTo.setLastName('Hopper');
    billTo.setCompany('Navy');
    billTo.setAddress('7 Compiler Court Suite 2');
    billTo.setCity('Arlington');
    billTo.setState('VA');
    billTo.setZip('22201');
    billTo.setCountry('US');
    const tr = new C.TransactionRequestType();
    tr.setTransactionType(C.TransactionTypeEnum.AUTHCAPTURETRANSACTION);
    tr.setAmount('43.21');
    tr.setCurrencyCode('USD');
    tr.setPayment(payment);
    tr.setOrder(order);
    tr.setCustomer(customer);
    tr.setBillTo(billTo);
    tr.setCustomerIP('192.0.2.44');
    const req = new C.CreateTransactionRequest();
    req.setMerchantAuthentication(auth());
    req.setRefId('tx_sdk_cross_check1');
    req.setTransactionRequest(tr);

    expect(ordered(sent())).toEqual(ordered(sdkJson(req)));
  });

  it('sale (authCaptureTransaction, eCheck)', async () => {
    const input: SaleRequest = {
      ...saleInput, reference: 'tx_sdk_cross_check2', payerIp: null, description: null,
      instrument: { kind: 'bank', routing: '121042882', account: '1234567890', type: 'checking', holder: 'Grace Hopper', entryClass: 'WEB' },
      customer: { id: null, email: null, firstName: null, lastName: null, company: null },
    };
    expect((await anet.sale(input, { signal: AbortSignal.timeout(10_000) })).outcome).toBe('approved');

    const bank = new C.BankAccountType();
    bank.setAccountType(C.BankAccountTypeEnum.CHECKING);
    bank.setRoutingNumber('121042882');
    bank.setAccountNumber('1234567890');
    bank.setNameOnAccount('Grace Hopper');
    bank.setEcheckType(C.EcheckTypeEnum.WEB);
    const payment = new C.PaymentType();
    payment.setBankAccount(bank);
    const order = new C.OrderType();
    order.setInvoiceNumber('tx_sdk_cross_check2');
    const billTo = new C.CustomerAddressType();
    billTo.setFirstName('Grace');
    billTo.setLastName('Hopper');
    const tr = new C.TransactionRequestType();
    tr.setTransactionType(C.TransactionTypeEnum.AUTHCAPTURETRANSACTION);
    tr.setAmount('43.21');
    tr.setCurrencyCode('USD');
    tr.setPayment(payment);
    tr.setOrder(order);
    tr.setBillTo(billTo);
    const req = new C.CreateTransactionRequest();
    req.setMerchantAuthentication(auth());
    req.setRefId('tx_sdk_cross_check2');
    req.setTransactionRequest(tr);

    expect(ordered(sent())).toEqual(ordered(sdkJson(req)));
  });

  const reverse = (reference: string, processorId: string, amount: number): ReverseRequest => ({
    reference, amount, currency: 'USD',
    sale: { reference: 'tx_sdk_cross_check1', processorId, amount: 4321, instrument: { kind: 'card', last4: '0015', expMonth: 7, expYear: year } },
  });

  it('void (voidTransaction)', async () => {
    await anet.void(reverse('vd_sdk_cross_check', '60123456789', 4321), { signal: AbortSignal.timeout(10_000) });
    const tr = new C.TransactionRequestType();
    tr.setTransactionType(C.TransactionTypeEnum.VOIDTRANSACTION);
    tr.setRefTransId('60123456789');
    const req = new C.CreateTransactionRequest();
    req.setMerchantAuthentication(auth());
    req.setRefId('vd_sdk_cross_check');
    req.setTransactionRequest(tr);
    expect(ordered(sent())).toEqual(ordered(sdkJson(req)));
  });

  it('refund (refundTransaction, card by its last four digits)', async () => {
    await anet.refund(reverse('rf_sdk_cross_check', '60123456789', 1000), { signal: AbortSignal.timeout(10_000) });
    const cc = new C.CreditCardType();
    cc.setCardNumber('0015');
    cc.setExpirationDate('XXXX');
    const payment = new C.PaymentType();
    payment.setCreditCard(cc);
    const order = new C.OrderType();
    order.setInvoiceNumber('rf_sdk_cross_check');
    const tr = new C.TransactionRequestType();
    tr.setTransactionType(C.TransactionTypeEnum.REFUNDTRANSACTION);
    tr.setAmount('10.00');
    tr.setCurrencyCode('USD');
    tr.setPayment(payment);
    tr.setRefTransId('60123456789');
    tr.setOrder(order);
    const req = new C.CreateTransactionRequest();
    req.setMerchantAuthentication(auth());
    req.setRefId('rf_sdk_cross_check');
    req.setTransactionRequest(tr);
    expect(ordered(sent())).toEqual(ordered(sdkJson(req)));
  });

  it('the reporting requests of a lookup by reference', async () => {
    standin.requests.length = 0;
    await anet.lookup({ reference: 'tx_sdk_cross_check1', processorId: null, createdAt: new Date(), amount: 4321 }, { signal: AbortSignal.timeout(10_000) });
    const [unsettled] = standin.requests;
    const sorting = new C.TransactionListSorting();
    sorting.setOrderBy(C.TransactionListOrderFieldEnum.SUBMITTIMEUTC);
    sorting.setOrderDescending(true);
    const paging = new C.Paging();
    paging.setLimit(1000);
    paging.setOffset(1);
    const req = new C.GetUnsettledTransactionListRequest();
    req.setMerchantAuthentication(auth());
    req.setStatus(C.TransactionGroupStatusEnum.ANY);
    req.setSorting(sorting);
    req.setPaging(paging);
    expect(ordered(unsettled)).toEqual(ordered(sdkJson(req)));

    const batches = standin.requests.find((r) => 'getSettledBatchListRequest' in (r as object)) as { getSettledBatchListRequest: Record<string, string> };
    const b = new C.GetSettledBatchListRequest();
    b.setMerchantAuthentication(auth());
    b.setIncludeStatistics(false);
    b.setFirstSettlementDate(batches.getSettledBatchListRequest.firstSettlementDate);
    b.setLastSettlementDate(batches.getSettledBatchListRequest.lastSettlementDate);
    expect(ordered(batches)).toEqual(ordered(sdkJson(b)));

    const details = standin.requests[standin.requests.length - 1];
    const d = new C.GetTransactionDetailsRequest();
    d.setMerchantAuthentication(auth());
    d.setTransId((details as { getTransactionDetailsRequest: { transId: string } }).getTransactionDetailsRequest.transId);
    expect(ordered(details)).toEqual(ordered(sdkJson(d)));
  });
});
