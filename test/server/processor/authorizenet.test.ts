import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CardInstrument, Connector, ReverseRequest, SaleRequest } from '../../../server/processor/connector.js';
import { authorizenet } from '../../../server/processor/connectors/authorizenet/index.js';
import { startAuthnetStandin, type AuthnetStandin } from '../../helpers/authnet-standin.js';

// The real connector against the stand-in over HTTP (nothing of the connector is mocked): what it
// sends (element order, lengths, the reference as invoiceNumber) and how it reads every answer.

const LOGIN = 'tessera-login';
const KEY = 'Abcdef1234567890';
let standin: AuthnetStandin;
let anet: Connector;

const ctx = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) });
let seq = 0;
const ref = () => `tx_${Date.now().toString(36)}${(seq++).toString(36)}`.slice(0, 20);

const card = (over: Partial<CardInstrument> = {}): CardInstrument => ({
  kind: 'card', number: '4111111111111111', expMonth: 12, expYear: new Date().getFullYear() + 2, csc: null, holder: 'Ada Lovelace',
  address: { line1: '1 Analytical Way', line2: null, city: 'London', state: null, zip: '10001', country: 'GB' }, ...over,
});
const sale = (over: Partial<SaleRequest> = {}): SaleRequest => ({
  reference: ref(), amount: 1234, currency: 'USD', instrument: card(), payerIp: '203.0.113.9', description: 'Order 42',
  customer: { id: 'cus_1', email: 'ada@example.com', firstName: null, lastName: null, company: null }, ...over,
});
const lastBody = () => standin.requests[standin.requests.length - 1] as Record<string, Record<string, unknown>>;
const lastTx = () => lastBody().createTransactionRequest.transactionRequest as Record<string, unknown>;
const reverse = (s: SaleRequest, processorId: string, amount: number): ReverseRequest => ({
  reference: ref(), amount, currency: 'USD',
  sale: {
    reference: s.reference, processorId, amount: s.amount,
    instrument: s.instrument.kind === 'card'
      ? { kind: 'card', last4: s.instrument.number.slice(-4), expMonth: s.instrument.expMonth, expYear: s.instrument.expYear }
      : { kind: 'bank', last4: s.instrument.account.slice(-4), routing: s.instrument.routing, type: s.instrument.type, holder: s.instrument.holder },
  },
});

beforeAll(async () => {
  standin = await startAuthnetStandin({ loginId: LOGIN, transactionKey: KEY });
  anet = authorizenet.create(
    { connector: 'authorizenet', settings: { login_id: LOGIN, endpoint: standin.url, sandbox: true }, secrets: { transaction_key: KEY } },
    { fetch: globalThis.fetch },
  );
});
afterAll(() => standin.close());
afterEach(() => standin.setLatency(0));

describe('sale', () => {
  it('a card sale is approved; the request follows the schema order with the reference as refId and invoiceNumber', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    expect(r).toMatchObject({ outcome: 'approved', reasonCode: '1', message: 'This transaction has been approved.', avs: 'Y' });
    expect(r.processorId).toMatch(/^\d+$/);
    expect(r.authCode).toMatch(/^[0-9A-Z]{6}$/);
    const body = lastBody().createTransactionRequest;
    expect(Object.keys(body)).toEqual(['merchantAuthentication', 'refId', 'transactionRequest']);
    expect(body.merchantAuthentication).toEqual({ name: LOGIN, transactionKey: KEY });
    expect(body.refId).toBe(s.reference);
    const tr = lastTx();
    expect(Object.keys(tr)).toEqual(['transactionType', 'amount', 'currencyCode', 'payment', 'order', 'customer', 'billTo', 'customerIP']);
    expect(tr).toMatchObject({ transactionType: 'authCaptureTransaction', amount: '12.34', currencyCode: 'USD', customerIP: '203.0.113.9' });
    expect(tr.payment).toEqual({ creditCard: { cardNumber: '4111111111111111', expirationDate: `${new Date().getFullYear() + 2}-12` } });
    expect(tr.order).toEqual({ invoiceNumber: s.reference, description: 'Order 42' });
    expect(tr.customer).toEqual({ id: 'cus_1', email: 'ada@example.com' });
    expect(Object.keys(tr.billTo as object)).toEqual(['firstName', 'lastName', 'address', 'city', 'zip', 'country']);
    expect(tr.billTo).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', address: '1 Analytical Way', zip: '10001' });
  });

  it('sends cardCode only when given (after the expiry), and a one-digit month as two digits', async () => {
    const r = await anet.sale(sale({ instrument: card({ csc: '900', expMonth: 3 }) }), ctx());
    expect(r).toMatchObject({ outcome: 'approved', cvv: 'M' });
    expect(Object.keys((lastTx().payment as { creditCard: object }).creditCard)).toEqual(['cardNumber', 'expirationDate', 'cardCode']);
    expect((lastTx().payment as { creditCard: { expirationDate: string; cardCode: string } }).creditCard).toMatchObject({ expirationDate: `${new Date().getFullYear() + 2}-03`, cardCode: '900' });
  });

  it('holds every field to its schema length: text cut, identifiers left out, nothing refused by the API', async () => {
    const long = (n: number) => 'é'.repeat(n);
    const r = await anet.sale(sale({
      description: long(300), payerIp: '2001:db8::1',
      customer: { id: 'c'.repeat(21), email: `${'a'.repeat(250)}@example.com`, firstName: long(60), lastName: long(60), company: long(60) },
      instrument: card({ address: { line1: long(50), line2: long(50), city: long(50), state: long(50), zip: '1'.repeat(25), country: long(70) } }),
    }), ctx());
    expect(r.outcome).toBe('approved');
    const tr = lastTx();
    const cps = (v: unknown) => Array.from(String(v)).length;
    expect(cps((tr.order as Record<string, string>).description)).toBe(255);
    const b = tr.billTo as Record<string, string>;
    expect([cps(b.firstName), cps(b.lastName), cps(b.company), cps(b.address), cps(b.city), cps(b.state), cps(b.zip), cps(b.country)])
      .toEqual([50, 50, 50, 60, 40, 40, 20, 60]);
    expect(tr.customer).toBeUndefined();
    expect(tr.customerIP).toBeUndefined();
  });

  it('an IPv4-mapped IPv6 address is sent as its IPv4', async () => {
    await anet.sale(sale({ payerIp: '::ffff:198.51.100.7' }), ctx());
    expect(lastTx().customerIP).toBe('198.51.100.7');
  });

  it('an eCheck sale: bankAccount with its type, name on account (cut to 22) and entry class', async () => {
    const r = await anet.sale(sale({
      amount: 5000,
      instrument: { kind: 'bank', routing: '121042882', account: '123456789', type: 'business_checking', holder: 'Analytical Engines Limited Partnership', entryClass: 'CCD' },
    }), ctx());
    expect(r.outcome).toBe('approved');
    expect(lastTx().payment).toEqual({
      bankAccount: { accountType: 'businessChecking', routingNumber: '121042882', accountNumber: '123456789', nameOnAccount: 'Analytical Engines Lim', echeckType: 'CCD' },
    });
  });

  it('a decline (top-level Error E00027 with responseCode 2) is declined, with the processor\'s text', async () => {
    const r = await anet.sale(sale({ instrument: card({ address: { line1: null, line2: null, city: null, state: null, zip: '46282', country: null } }) }), ctx());
    expect(r).toMatchObject({ outcome: 'declined', reasonCode: '2', message: 'This transaction has been declined.' });
    expect(r.processorId).toMatch(/^\d+$/);
  });

  it('held for review (responseCode 4) is held', async () => {
    const r = await anet.sale(sale({ amount: 25300, instrument: card({ number: '4222222222222' }) }), ctx());
    expect(r).toMatchObject({ outcome: 'held', reasonCode: '253' });
    expect(standin.transactions.find((t) => t.transId === r.processorId)?.transactionStatus).toBe('FDSPendingReview');
  });

  it('an error (responseCode 3) is invalid, with its reason', async () => {
    const r = await anet.sale(sale({ instrument: card({ expYear: new Date().getFullYear() - 1 }) }), ctx());
    expect(r).toMatchObject({ outcome: 'invalid', reasonCode: '8', message: 'The credit card has expired.', processorId: null });
  });

  it('a duplicate (reason 11) is unknown: the first one may have been approved, a lookup says', async () => {
    const s = sale();
    expect((await anet.sale(s, ctx())).outcome).toBe('approved');
    const again = await anet.sale(s, ctx());
    expect(again).toMatchObject({ outcome: 'unknown', reasonCode: '11' });
    const found = await anet.lookup({ reference: s.reference, processorId: null, createdAt: new Date(), amount: s.amount }, ctx());
    expect(found).toMatchObject({ found: true, settlement: 'unsettled', result: { outcome: 'approved' } });
  });

  it('what the API would refuse is refused before any I/O (invalid, nothing sent)', async () => {
    const before = standin.requests.length;
    for (const s of [
      sale({ reference: '' }),
      sale({ instrument: card({ number: '4111111111111111111' }) }),
      sale({ instrument: card({ expMonth: null }) }),
      sale({ instrument: card({ csc: '12' }) }),
      sale({ instrument: { kind: 'bank', routing: '12345', account: '1', type: 'checking', holder: 'A B', entryClass: 'WEB' } }),
    ]) {
      expect((await anet.sale(s, ctx())).outcome).toBe('invalid');
    }
    expect(standin.requests.length).toBe(before);
  });

  it("a gateway id (32 hex digits) travels as its 20-character prefix, and lookup by the whole id finds it", async () => {
    const id = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const s = sale({ reference: id, amount: 4321 });
    expect((await anet.sale(s, ctx())).outcome).toBe('approved');
    const sent = standin.transactions.find((t) => t.invoiceNumber === id.slice(0, 20));
    expect(sent).toBeDefined();
    expect(standin.transactions.filter((t) => t.invoiceNumber?.startsWith('a1b2c3d4'))).toHaveLength(1);
    const found = await anet.lookup({ reference: id, processorId: null, createdAt: new Date(), amount: 4321 }, ctx());
    expect(found).toMatchObject({ found: true, result: { outcome: 'approved', processorId: sent!.transId } });
  });

  it('bad credentials (E00007, no transactionResponse) are invalid', async () => {
    const wrong = authorizenet.create(
      { connector: 'authorizenet', settings: { login_id: LOGIN, endpoint: standin.url }, secrets: { transaction_key: 'WrongKey12345678' } },
      { fetch: globalThis.fetch },
    );
    const r = await wrong.sale(sale(), ctx());
    expect(r).toMatchObject({ outcome: 'invalid', reasonCode: 'E00007', message: 'User authentication failed due to invalid authentication values.' });
  });
});

describe('no readable answer is unknown', () => {
  it('HTTP 500', async () => {
    standin.fail('status500');
    expect(await anet.sale(sale(), ctx())).toMatchObject({ outcome: 'unknown', message: 'Authorize.Net answered HTTP 500' });
  });

  it('a body that is not the expected JSON', async () => {
    standin.fail('malformed');
    expect((await anet.sale(sale(), ctx())).outcome).toBe('unknown');
  });

  it('a dropped connection', async () => {
    standin.fail('drop');
    expect((await anet.sale(sale(), ctx())).outcome).toBe('unknown');
  });

  it('no answer by the deadline: the abort ends the call at once', async () => {
    standin.fail('hang');
    const t0 = Date.now();
    const r = await anet.sale(sale(), ctx(400));
    expect(r.outcome).toBe('unknown');
    expect(r.message).toMatch(/deadline/);
    // The stand-in never answers: without the abort the call would last until the test's timeout.
    // The bound is loose so that a loaded machine's late timers cannot fail it.
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a slow answer past the deadline', async () => {
    standin.setLatency(1500);
    const r = await anet.sale(sale(), ctx(300));
    expect(r.outcome).toBe('unknown');
  });

  it('the processor acts but the answer never comes: unknown, then the lookup by reference finds it approved', async () => {
    const s = sale();
    standin.fail('act-then-drop');
    expect((await anet.sale(s, ctx())).outcome).toBe('unknown');
    const held = standin.transactions.find((t) => t.invoiceNumber === s.reference);
    expect(held?.transactionStatus).toBe('capturedPendingSettlement');
    const found = await anet.lookup({ reference: s.reference, processorId: null, createdAt: new Date(), amount: s.amount }, ctx());
    expect(found).toMatchObject({ found: true, settlement: 'unsettled', result: { outcome: 'approved', processorId: held!.transId } });
  });

  it('act-then-hang: unknown at the deadline, found by the lookup', async () => {
    const s = sale({ amount: 777 });
    standin.fail('act-then-hang');
    expect((await anet.sale(s, ctx(400))).outcome).toBe('unknown');
    const found = await anet.lookup({ reference: s.reference, processorId: null, createdAt: new Date(), amount: s.amount }, ctx());
    expect(found).toMatchObject({ found: true, result: { outcome: 'approved' } });
  });
});

describe('void and refund', () => {
  it('void of an unsettled sale is approved; the sale is voided', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    const v = await anet.void(reverse(s, r.processorId!, s.amount), ctx());
    expect(v.outcome).toBe('approved');
    expect(lastTx()).toEqual({ transactionType: 'voidTransaction', refTransId: r.processorId });
    const found = await anet.lookup({ reference: s.reference, processorId: r.processorId, createdAt: new Date(), amount: s.amount }, ctx());
    expect(found).toMatchObject({ found: true, settlement: 'voided' });
  });

  it('refund of an unsettled sale is invalid with reason 54', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    const f = await anet.refund(reverse(s, r.processorId!, 500), ctx());
    expect(f).toMatchObject({ outcome: 'invalid', reasonCode: '54', notSettled: true, message: 'The referenced transaction does not meet the criteria for issuing a credit.' });
    const tr = lastTx();
    expect(Object.keys(tr)).toEqual(['transactionType', 'amount', 'currencyCode', 'payment', 'refTransId', 'order']);
    expect(tr.payment).toEqual({ creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } });
  });

  it('after settlement: partial refunds approved up to the sale, then over it refused (55); a void of the settled sale refused', async () => {
    const s = sale({ amount: 10_000 });
    const r = await anet.sale(s, ctx());
    standin.settle();
    const first = reverse(s, r.processorId!, 4000);
    const a = await anet.refund(first, ctx());
    expect(a.outcome).toBe('approved');
    expect((lastTx().order as { invoiceNumber: string }).invoiceNumber).toBe(first.reference);
    expect((await anet.refund(reverse(s, r.processorId!, 6000), ctx())).outcome).toBe('approved');
    expect(await anet.refund(reverse(s, r.processorId!, 1), ctx())).toMatchObject({ outcome: 'invalid', reasonCode: '55' });
    expect((await anet.void(reverse(s, r.processorId!, s.amount), ctx())).outcome).toBe('invalid');
    const found = await anet.lookup({ reference: first.reference, processorId: null, createdAt: new Date(), amount: 4000 }, ctx());
    expect(found).toMatchObject({ found: true, settlement: 'unsettled', result: { outcome: 'approved', processorId: a.processorId } });
  });

  it('an eCheck refund names the account by routing number and XXXX + last four', async () => {
    const s = sale({ amount: 2000, instrument: { kind: 'bank', routing: '121042882', account: '987654321', type: 'savings', holder: 'Ada Lovelace', entryClass: 'WEB' } });
    const r = await anet.sale(s, ctx());
    standin.settle();
    const f = await anet.refund(reverse(s, r.processorId!, 2000), ctx());
    expect(f.outcome).toBe('approved');
    expect(lastTx().payment).toEqual({ bankAccount: { accountType: 'savings', routingNumber: '121042882', accountNumber: 'XXXX4321', nameOnAccount: 'Ada Lovelace' } });
  });
});

describe('reading answers (the connector\'s reader on answers the stand-in does not give)', () => {
  const ok = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };
  it('E00027 without a transactionResponse is unknown; E00007 without one is invalid; Ok without one is unknown', async () => {
    const { readTransaction } = await import('../../../server/processor/connectors/authorizenet/answers.js');
    expect(readTransaction({ messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] } }).outcome).toBe('unknown');
    expect(readTransaction({ messages: { resultCode: 'Error', message: [{ code: 'E00001', text: 'An error occurred during processing. Please try again.' }] } }).outcome).toBe('unknown');
    expect(readTransaction({ messages: { resultCode: 'Error', message: [{ code: 'E00007', text: 'User authentication failed' }] } }).outcome).toBe('invalid');
    expect(readTransaction({ messages: ok }).outcome).toBe('unknown');
  });
  it('reads the wrapped list forms and numbers as well as the JSON API\'s arrays and strings', async () => {
    const { readTransaction } = await import('../../../server/processor/connectors/authorizenet/answers.js');
    expect(readTransaction({
      transactionResponse: { responseCode: 1, transId: 60001, messages: { message: { code: '1', description: 'This transaction has been approved.' } } }, messages: ok,
    })).toMatchObject({ outcome: 'approved', processorId: '60001', reasonCode: '1', message: 'This transaction has been approved.' });
    expect(readTransaction({
      transactionResponse: { responseCode: '2', transId: '0', errors: { error: [{ errorCode: '2', errorText: 'This transaction has been declined.' }] } },
      messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
    })).toMatchObject({ outcome: 'declined', processorId: null, reasonCode: '2', message: 'This transaction has been declined.' });
    expect(readTransaction({ transactionResponse: { responseCode: '9' }, messages: ok }).outcome).toBe('unknown');
  });
});
