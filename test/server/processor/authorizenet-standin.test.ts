import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizenet } from '../../../server/processor/connectors/authorizenet/index.js';
import { startAuthnetStandin, type AuthnetStandin } from '../../helpers/authnet-standin.js';

// The stand-in itself, spoken to over raw HTTP: that it refuses what the real API refuses (so the
// connector's tests mean something), and the factory's check of a connection.

const LOGIN = 'raw-login';
const KEY = 'Rawkey1234567890';
let standin: AuthnetStandin;

beforeAll(async () => {
  standin = await startAuthnetStandin({ loginId: LOGIN, transactionKey: KEY });
});
afterAll(() => standin.close());

async function call(body: unknown): Promise<{ raw: string; json: Record<string, any> }> {
  const res = await fetch(standin.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  const raw = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  return { raw, json: JSON.parse(raw.replace(/^\uFEFF/, '')) };
}
const auth = { name: LOGIN, transactionKey: KEY };
const card = { creditCard: { cardNumber: '4111111111111111', expirationDate: `${new Date().getFullYear() + 1}-05` } };
const saleBody = (transactionRequest: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
  createTransactionRequest: { merchantAuthentication: auth, ...top, transactionRequest },
});

describe('the stand-in answers as the API does', () => {
  it('answers JSON after a UTF-8 byte-order mark', async () => {
    const { raw, json } = await call({ authenticateTestRequest: { merchantAuthentication: auth } });
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    expect(() => JSON.parse(raw)).toThrow();
    expect(json.messages).toEqual({ resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] });
  });

  it('refuses an element out of the schema\'s order (E00003) and does nothing', async () => {
    const before = standin.transactions.length;
    const { json } = await call(saleBody({ amount: '5.00', transactionType: 'authCaptureTransaction', payment: card }));
    expect(json.messages.resultCode).toBe('Error');
    expect(json.messages.message[0].code).toBe('E00003');
    expect(json.messages.message[0].text).toMatch(/has invalid child element 'amount'.*'transactionType'/);
    expect(json.transactionResponse).toBeUndefined();
    expect(standin.transactions.length).toBe(before);
  });

  it('refuses refId before merchantAuthentication, an unknown element, a missing required one', async () => {
    const wrongTop = { createTransactionRequest: { refId: 'x', merchantAuthentication: auth, transactionRequest: { transactionType: 'authCaptureTransaction' } } };
    expect((await call(wrongTop)).json.messages.message[0].code).toBe('E00003');
    expect((await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '1.00', payment: card, invoiceNumber: 'x' }))).json.messages.message[0].text)
      .toMatch(/invalid child element 'invoiceNumber'/);
    expect((await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '1.00', payment: { creditCard: { cardNumber: '4111111111111111' } } }))).json.messages.message[0].text)
      .toMatch(/incomplete content.*'expirationDate'/);
  });

  it('refuses a value over its maxLength (E00003)', async () => {
    const { json } = await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '1.00', payment: card, order: { invoiceNumber: 'i'.repeat(21) } }));
    expect(json.messages.message[0]).toEqual({
      code: 'E00003',
      text: `The 'AnetApi/xml/v1/schema/AnetApiSchema.xsd:invoiceNumber' element is invalid - The value '${'i'.repeat(21)}' is invalid according to its datatype 'String' - The actual length is greater than the MaxLength value.`,
    });
    expect((await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '1.00', payment: card }, { refId: 'r'.repeat(21) }))).json.messages.message[0].code).toBe('E00003');
  });

  it('checks the schema before the credentials, then the credentials (E00007)', async () => {
    const bad = { createTransactionRequest: { merchantAuthentication: { name: LOGIN, transactionKey: 'nope' }, transactionRequest: { transactionType: 'authCaptureTransaction', amount: '1.00', payment: card } } };
    expect((await call(bad)).json.messages.message[0].code).toBe('E00007');
    expect((await call({ getNothingRequest: { merchantAuthentication: auth } })).json.messages.message[0].code).toBe('E00004');
  });

  it('a decline: resultCode Error E00027 and transactionResponse responseCode 2 with its errors', async () => {
    const { json } = await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '1.00', payment: card, billTo: { zip: '46282' } }));
    expect(json.messages.message[0].code).toBe('E00027');
    expect(json.transactionResponse).toMatchObject({ responseCode: '2', errors: [{ errorCode: '2', errorText: 'This transaction has been declined.' }] });
  });

  it('an eCheck over $100 declines', async () => {
    const bank = { bankAccount: { accountType: 'checking', routingNumber: '121042882', accountNumber: '12345678', nameOnAccount: 'A B', echeckType: 'WEB' } };
    const { json } = await call(saleBody({ transactionType: 'authCaptureTransaction', amount: '100.01', payment: bank }));
    expect(json.transactionResponse.responseCode).toBe('2');
  });
});

describe('check(connection)', () => {
  const conn = (login: unknown, key: unknown) => ({ connector: 'authorizenet', settings: { login_id: login as string }, secrets: { transaction_key: key as string } });
  it('accepts a login id and a 16-character key', () => {
    expect(() => authorizenet.check(conn('5KP3u95bQpv', '346HZ32z3fP4hTG2'))).not.toThrow();
  });
  it('refuses what is missing, too long or pasted with white space', () => {
    expect(() => authorizenet.check(conn(null, '346HZ32z3fP4hTG2'))).toThrow(/login-id/);
    expect(() => authorizenet.check(conn('5KP3u95bQpv', undefined))).toThrow(/transaction-key/);
    expect(() => authorizenet.check(conn('x'.repeat(26), '346HZ32z3fP4hTG2'))).toThrow(/at most 25/);
    expect(() => authorizenet.check(conn('5KP3u95bQpv', '346HZ32z3fP4hTG2X'))).toThrow(/at most 16/);
    expect(() => authorizenet.check(conn('5KP3u95bQpv ', '346HZ32z3fP4hTG2'))).toThrow(/white space/);
  });
});
