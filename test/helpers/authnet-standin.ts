/**
 * A stand-in for Authorize.Net's JSON API (https://api.authorize.net/xml/v1/request.api), written
 * from the API's schema (AnetApiSchema.xsd, 2024 release, in AuthorizeNet/sdk-php), its reference
 * and its sandbox testing guide, not from Tessera's connector. A real HTTP server on 127.0.0.1 (a
 * free port): point a connector or a gateway at `url` (`tessera processor set --endpoint <url>`).
 *
 * What it does as the API does:
 * - answers JSON prefixed with a UTF-8 byte-order mark, HTTP 200 for every API-level answer;
 * - validates the request against the schema first: an element out of the xs:sequence order, an
 *   unknown element, a missing required one, a value over its maxLength or not of its type ->
 *   E00003 (resultCode "Error"), nothing done; an unknown method -> E00004;
 * - then authenticates merchantAuthentication name/transactionKey -> E00007;
 * - createTransactionRequest: authCaptureTransaction (card or eCheck), voidTransaction,
 *   refundTransaction; the sandbox's triggers (docs/decisions/authorizenet.md lists them):
 *   billTo.zip 46282 declines (reason 2); card 4222222222222 with a whole-dollar amount N answers
 *   response reason code N (2, 3, 4, 27, 44, 45, 65 declined; 252, 253 held; 5, 6, 7, 8, 11, 19,
 *   33, 78 errors); an expired card is reason 8; a card failing Luhn is reason 6; card codes 900-904
 *   set the CVV result, AVS ZIPs 46201-46217 the AVS result; an eCheck over $100.00 declines; the
 *   duplicate window (120 s unless transactionSettings duplicateWindow says) answers reason 11;
 *   a refund of a sale not settled is reason 54, over what remains is reason 55; a void of a
 *   settled or unknown transaction is reason 16, of a voided one approved with reason 310;
 * - the Transaction Reporting API: getTransactionDetailsRequest (E00040 for an unknown id),
 *   getUnsettledTransactionListRequest (status any/pendingApproval, sorting, paging),
 *   getSettledBatchListRequest (range at most 31 days, last 24 hours when absent),
 *   getTransactionListRequest (per batch, sorting, paging); E00011 for all of them when the
 *   Transaction Details API is off (`transactionDetailsApi: false`).
 *
 * Test controls: `requests` (every parsed body, in order), `transactions`, `settle()`, `fail()`
 * (faults for the next requests), `setLatency()`.
 *
 * Plain ESM with erasable types only and node: imports only: vitest imports it; Node >= 22.18 runs
 * it as is (`node test/helpers/authnet-standin.ts` starts one and prints its URL).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomInt } from 'node:crypto';

const NS = 'AnetApi/xml/v1/schema/AnetApiSchema.xsd';

// ---------------------------------------------------------------------------------------------
// The request schema: what AnetApiSchema.xsd says of the methods this stand-in answers. Each
// complex type is an xs:sequence (order matters); `choice` marks the members of an xs:choice (one
// of them takes the group's place); `any` is a type this stand-in accepts without looking inside.
// ---------------------------------------------------------------------------------------------

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

type Leaf =
  | { t: 'str'; max?: number; min?: number; pattern?: RegExp; values?: readonly string[] }
  | { t: 'dec' } | { t: 'bool' } | { t: 'int'; min?: number; max?: number } | { t: 'dt' } | { t: 'any' };
type Node = Leaf | { t: 'seq'; els: El[] };
interface El { name: string; node: Node; req?: boolean; many?: boolean; choice?: string }

const S = (max?: number, min?: number): Leaf => ({ t: 'str', max, min });
const NUM = (min?: number, max?: number): Leaf => ({ t: 'str', pattern: /^[0-9]+$/, min, max });
const ENUM = (...values: string[]): Leaf => ({ t: 'str', values });
const DEC: Leaf = { t: 'dec' };
const BOOL: Leaf = { t: 'bool' };
const ANY: Leaf = { t: 'any' };
const seq = (...els: El[]): Node => ({ t: 'seq', els });
const e = (name: string, node: Node, flags: Partial<El> = {}): El => ({ name, node, ...flags });

const merchantAuthenticationType = seq(
  e('name', S(25)),
  e('transactionKey', S(16), { req: true, choice: 'auth' }), e('sessionToken', S(), { req: true, choice: 'auth' }),
  e('password', S(40), { req: true, choice: 'auth' }), e('impersonationAuthentication', ANY, { req: true, choice: 'auth' }),
  e('fingerPrint', ANY, { req: true, choice: 'auth' }), e('clientKey', S(), { req: true, choice: 'auth' }),
  e('accessToken', S(), { req: true, choice: 'auth' }),
  e('mobileDeviceId', S(60)),
);
const apiRequest = (...els: El[]) => seq(e('merchantAuthentication', merchantAuthenticationType, { req: true }), e('clientId', S(30)), e('refId', S(20)), ...els);
const nameAndAddress: El[] = [
  e('firstName', S(50)), e('lastName', S(50)), e('company', S(50)), e('address', S(60)),
  e('city', S(40)), e('state', S(40)), e('zip', S(20)), e('country', S(60)),
];
const extendedAmount = seq(e('amount', DEC, { req: true }), e('name', S(31)), e('description', S(255)));
const creditCardType = seq(
  e('cardNumber', S(16, 4), { req: true }), e('expirationDate', S(7, 4), { req: true }), e('cardCode', NUM(3, 4)),
  e('isPaymentToken', BOOL), e('cryptogram', S()), e('tokenRequestorName', S()), e('tokenRequestorId', S()), e('tokenRequestorEci', S()),
);
const bankAccountType = seq(
  e('accountType', ENUM('checking', 'savings', 'businessChecking')), e('routingNumber', S(9), { req: true }),
  e('accountNumber', S(17), { req: true }), e('nameOnAccount', S(22), { req: true }),
  e('echeckType', ENUM('PPD', 'WEB', 'CCD', 'TEL', 'ARC', 'BOC')), e('bankName', S(50)), e('checkNumber', S(15)),
);
const paymentType = seq(
  ...['creditCard', 'bankAccount', 'trackData', 'encryptedTrackData', 'payPal', 'opaqueData', 'emv']
    .map((n) => e(n, n === 'creditCard' ? creditCardType : n === 'bankAccount' ? bankAccountType : ANY, { req: true, choice: 'payment' })),
  e('dataSource', S()),
);
const orderType = seq(
  e('invoiceNumber', S(20)), e('description', S(255)), e('discountAmount', DEC), e('taxIsAfterDiscount', BOOL),
  e('totalTaxTypeCode', S(3)), e('purchaserVATRegistrationNumber', S(21)), e('merchantVATRegistrationNumber', S(21)),
  e('vatInvoiceReferenceNumber', S(15)), e('purchaserCode', S(17)), e('summaryCommodityCode', S(4)),
  e('purchaseOrderDateUTC', S()), e('supplierOrderReference', S(25)), e('authorizedContactName', S(36)),
  e('cardAcceptorRefNumber', S(25)), e('amexDataTAA1', S(40)), e('amexDataTAA2', S(40)), e('amexDataTAA3', S(40)), e('amexDataTAA4', S(40)),
);
const customerDataType = seq(
  e('type', ENUM('individual', 'business')), e('id', S(20)), e('email', S(255)), e('driversLicense', ANY), e('taxId', S(9, 8)),
);
const customerAddressType = seq(...nameAndAddress, e('phoneNumber', S(25)), e('faxNumber', S(25)), e('email', S()));
const arrayOfSetting = seq(e('setting', seq(e('settingName', S()), e('settingValue', S())), { many: true }));
const transactionRequestType = seq(
  e('transactionType', S(), { req: true }), e('amount', DEC), e('currencyCode', S()), e('payment', paymentType),
  e('profile', ANY), e('solution', ANY), e('callId', S()), e('terminalNumber', S()), e('authCode', S()),
  e('refTransId', S()), e('splitTenderId', S()), e('order', orderType), e('lineItems', ANY),
  e('tax', extendedAmount), e('duty', extendedAmount), e('shipping', extendedAmount), e('taxExempt', BOOL),
  e('poNumber', S()), e('customer', customerDataType), e('billTo', customerAddressType), e('shipTo', seq(...nameAndAddress)),
  e('customerIP', S()), e('cardholderAuthentication', ANY), e('retail', ANY), e('employeeId', S()),
  e('transactionSettings', arrayOfSetting), e('userFields', seq(e('userField', seq(e('name', S()), e('value', S())), { many: true }))),
  e('surcharge', extendedAmount), e('merchantDescriptor', S()), e('subMerchant', ANY), e('tip', extendedAmount),
  e('processingOptions', ANY), e('subsequentAuthInformation', ANY), e('otherTax', ANY), e('shipFrom', seq(...nameAndAddress)),
  e('authorizationIndicatorType', ANY),
);
const sorting = seq(e('orderBy', ENUM('id', 'submitTimeUTC'), { req: true }), e('orderDescending', BOOL, { req: true }));
const paging = seq(e('limit', { t: 'int', min: 1, max: 1000 }, { req: true }), e('offset', { t: 'int', min: 1, max: 100_000 }, { req: true }));

const METHODS: Record<string, Node> = {
  authenticateTestRequest: apiRequest(),
  createTransactionRequest: apiRequest(e('transactionRequest', transactionRequestType, { req: true })),
  getTransactionDetailsRequest: apiRequest(e('transId', NUM(), { req: true })),
  getUnsettledTransactionListRequest: apiRequest(e('status', ENUM('any', 'pendingApproval')), e('sorting', sorting), e('paging', paging)),
  getSettledBatchListRequest: apiRequest(e('includeStatistics', BOOL), e('firstSettlementDate', { t: 'dt' }), e('lastSettlementDate', { t: 'dt' })),
  getTransactionListRequest: apiRequest(e('batchId', NUM()), e('sorting', sorting), e('paging', paging)),
};

type Verdict = { ok: true; method: string; request: { [k: string]: Json } } | { ok: false; code: string; text: string };

const q = (names: string[]) => names.map((n) => `'${n}'`).join(', ');
const invalidChild = (parent: string, child: string, expected: string[]) =>
  `The element '${parent}' in namespace '${NS}' has invalid child element '${child}' in namespace '${NS}'.`
  + (expected.length ? ` List of possible elements expected: ${q(expected)} in namespace '${NS}'.` : '');
const badValue = (name: string, value: string, type: string, why: string) =>
  `The '${NS}:${name}' element is invalid - The value '${value}' is invalid according to its datatype '${type}' - ${why}`;

/** The index of a choice group's last member. */
function lastOf(els: El[], choice: string | undefined): number {
  let last = -1;
  els.forEach((x, i) => { if (x.choice === choice) last = i; });
  return last;
}

/** What may come next at position `pos` of a sequence (up to and including its first required element). */
function expectedAt(els: El[], pos: number, done: Set<string>): string[] {
  const out: string[] = [];
  for (let i = pos; i < els.length; i++) {
    if (els[i].choice && done.has(els[i].choice!)) continue;
    out.push(els[i].name);
    const groupEnd = els[i].choice ? lastOf(els, els[i].choice) : i;
    if (els[i].req && i === groupEnd) break;
  }
  return out;
}

function checkLeaf(name: string, leaf: Leaf, v: Json): string | null {
  if (leaf.t === 'any') return null;
  if (v === null || typeof v === 'object') {
    return `The element '${name}' in namespace '${NS}' cannot contain child elements or be empty here.`;
  }
  const s = String(v);
  switch (leaf.t) {
    case 'str': {
      const n = Array.from(s).length;
      if (leaf.max !== undefined && n > leaf.max) return badValue(name, s, 'String', 'The actual length is greater than the MaxLength value.');
      if (leaf.min !== undefined && n < leaf.min) return badValue(name, s, 'String', 'The actual length is less than the MinLength value.');
      if (leaf.pattern && !leaf.pattern.test(s)) return badValue(name, s, 'String', 'The Pattern constraint failed.');
      if (leaf.values && !leaf.values.includes(s)) return badValue(name, s, 'String', 'The Enumeration constraint failed.');
      return null;
    }
    case 'dec':
      return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s.trim()) ? null : badValue(name, s, 'http://www.w3.org/2001/XMLSchema:decimal', `The string '${s}' is not a valid Decimal value.`);
    case 'bool':
      return ['true', 'false', '1', '0'].includes(s) ? null : badValue(name, s, 'http://www.w3.org/2001/XMLSchema:boolean', `The string '${s}' is not a valid Boolean value.`);
    case 'int': {
      if (!/^[+-]?\d+$/.test(s)) return badValue(name, s, 'http://www.w3.org/2001/XMLSchema:int', `The string '${s}' is not a valid Int32 value.`);
      if (leaf.min !== undefined && Number(s) < leaf.min) return badValue(name, s, 'Int', 'The MinInclusive constraint failed.');
      if (leaf.max !== undefined && Number(s) > leaf.max) return badValue(name, s, 'Int', 'The MaxInclusive constraint failed.');
      return null;
    }
    case 'dt':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(s) ? null
        : badValue(name, s, 'http://www.w3.org/2001/XMLSchema:dateTime', `The string '${s}' is not a valid XsdDateTime value.`);
  }
}

/** The first schema violation in `v` (an element named `name` of type `node`), or null. */
function check(name: string, node: Node, v: Json): string | null {
  if (node.t !== 'seq') return checkLeaf(name, node, v);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return `The element '${name}' in namespace '${NS}' cannot contain text. List of possible elements expected: ${q(expectedAt(node.els, 0, new Set()))} in namespace '${NS}'.`;
  }
  const els = node.els;
  const done = new Set<string>();
  let pos = 0;
  for (const [key, value] of Object.entries(v)) {
    const idx = els.findIndex((x, i) => i >= pos && x.name === key && !(x.choice && done.has(x.choice)));
    if (idx < 0) return invalidChild(name, key, expectedAt(els, pos, done));
    for (let i = pos; i < idx; i++) {
      const skipped = els[i];
      if (!skipped.req) continue;
      if (skipped.choice && (done.has(skipped.choice) || skipped.choice === els[idx].choice)) continue;
      return invalidChild(name, key, expectedAt(els, pos, done));
    }
    const el = els[idx];
    if (Array.isArray(value) && !el.many) return invalidChild(name, key, expectedAt(els, idx + 1, done));
    for (const item of Array.isArray(value) ? value : [value]) {
      const err = check(key, el.node, item);
      if (err) return err;
    }
    if (el.choice) {
      done.add(el.choice);
      pos = lastOf(els, el.choice) + 1;
    } else {
      pos = idx + 1;
    }
  }
  const missing = els.slice(pos).find((x) => x.req && !(x.choice && done.has(x.choice)));
  if (missing) {
    return `The element '${name}' in namespace '${NS}' has incomplete content. List of possible elements expected: ${q(expectedAt(els, pos, done))} in namespace '${NS}'.`;
  }
  return null;
}

/** Validates one request body as the API does before anything else (E00003, E00004). */
export function validate(body: Json): Verdict {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, code: 'E00003', text: 'Root element is missing.' };
  const names = Object.keys(body);
  if (names.length !== 1) return { ok: false, code: 'E00003', text: 'There are multiple root elements.' };
  const method = names[0];
  const node = METHODS[method];
  if (!node) return { ok: false, code: 'E00004', text: 'The name of the requested API method is invalid.' };
  const err = check(method, node, body[method]);
  if (err) return { ok: false, code: 'E00003', text: err };
  return { ok: true, method, request: body[method] as { [k: string]: Json } };
}

export type Fault = 'hang' | 'status500' | 'malformed' | 'slow' | 'drop' | 'act-then-drop' | 'act-then-hang';

export interface StandinOptions {
  loginId?: string;
  transactionKey?: string;
  /** false: every reporting call answers E00011 (the API's default for a new merchant). */
  transactionDetailsApi?: boolean;
  /** How long a 'slow' answer waits (default 30 s). */
  slowMs?: number;
}

export interface StandinTransaction {
  transId: string;
  transactionType: 'authCaptureTransaction' | 'refundTransaction';
  transactionStatus: string;
  responseCode: number;
  responseReasonCode: number;
  responseReasonDescription: string;
  authCode: string;
  avs: string;
  cvv: string;
  /** Dollars, as the API writes them. */
  amount: string;
  /** Cents refunded so far (a sale). */
  refundedCents: number;
  refTransId: string | null;
  invoiceNumber: string | null;
  description: string | null;
  refId: string | null;
  submitTimeUTC: string;
  batchId: string | null;
  payment: { kind: 'card'; number: string; expirationDate: string } | { kind: 'bank'; routing: string; account: string; accountType: string; name: string; echeckType: string | null };
  firstName: string | null;
  lastName: string | null;
  customerIP: string | null;
}

export interface StandinBatch {
  batchId: string;
  settlementTimeUTC: string;
  paymentMethod: 'creditCard' | 'eCheck';
}

export interface AuthnetStandin {
  url: string;
  requests: Json[];
  transactions: StandinTransaction[];
  batches: StandinBatch[];
  settle(at?: Date): StandinBatch[];
  fail(next: Fault, count?: number): void;
  setLatency(ms: number): void;
  setTransactionDetailsApi(on: boolean): void;
  close(): Promise<void>;
}

const BOM = '\uFEFF';

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const cents = (s: string) => Math.round(Number(s) * 100);
const money = (c: number) => (c / 100).toFixed(2);
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const messages = (resultCode: 'Ok' | 'Error', code: string, text: string) => ({ resultCode, message: [{ code, text }] });
const OK = messages('Ok', 'I00001', 'Successful.');
const NO_RECORDS = messages('Ok', 'I00004', 'No records found.');

/** Response reason codes this stand-in answers (text as the API's response code reference words them). */
const REASONS: Record<number, { code: 1 | 2 | 3 | 4; text: string }> = {
  1: { code: 1, text: 'This transaction has been approved.' },
  2: { code: 2, text: 'This transaction has been declined.' },
  3: { code: 2, text: 'This transaction has been declined.' },
  4: { code: 2, text: 'This transaction has been declined.' },
  5: { code: 3, text: 'A valid amount is required.' },
  6: { code: 3, text: 'The credit card number is invalid.' },
  7: { code: 3, text: 'Credit card expiration date is invalid.' },
  8: { code: 3, text: 'The credit card has expired.' },
  11: { code: 3, text: 'A duplicate transaction has been submitted.' },
  16: { code: 3, text: 'The transaction cannot be found.' },
  19: { code: 3, text: 'An error occurred during processing. Please try again in 5 minutes.' },
  27: { code: 2, text: 'The transaction has been declined because of an AVS mismatch. The address provided does not match billing address of cardholder.' },
  33: { code: 3, text: 'A required field is missing.' },
  44: { code: 2, text: 'This transaction has been declined.' },
  45: { code: 2, text: 'This transaction has been declined.' },
  54: { code: 3, text: 'The referenced transaction does not meet the criteria for issuing a credit.' },
  55: { code: 3, text: 'The sum of credits against the referenced transaction would exceed original debit amount.' },
  65: { code: 2, text: 'This transaction has been declined.' },
  78: { code: 3, text: 'The Card Code (CVV2/CVC2/CID) is invalid.' },
  252: { code: 4, text: 'Your order has been received. Thank you for your business!' },
  253: { code: 4, text: 'Your order has been received. Thank you for your business!' },
  310: { code: 1, text: 'This transaction has already been voided.' },
};
const ERROR_CARD = '4222222222222';
const AVS_ZIPS: Record<string, string> = { 46201: 'A', 46203: 'E', 46204: 'G', 46205: 'N', 46206: 'P', 46207: 'R', 46208: 'S', 46209: 'U', 46211: 'W', 46214: 'X', 46217: 'Z' };
const CVV_CODES: Record<string, string> = { 900: 'M', 901: 'N', 902: 'S', 903: 'U', 904: 'P' };

function luhn(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function cardType(n: string): string {
  if (/^4/.test(n)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(n)) return 'MasterCard';
  if (/^3[47]/.test(n)) return 'AmericanExpress';
  if (/^6(011|5)/.test(n)) return 'Discover';
  if (/^35/.test(n)) return 'JCB';
  if (/^3[068]/.test(n)) return 'DinersClub';
  return 'Visa';
}

/** expirationDate as the API takes it: YYYY-MM, MMYY, MM/YY, MMYYYY, YYYYMM; null when unreadable. */
function expiry(s: string): { y: number; m: number } | null {
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})$/.exec(s))) return { y: +m[1], m: +m[2] };
  if ((m = /^(\d{2})\/?(\d{2})$/.exec(s))) return { y: 2000 + +m[2], m: +m[1] };
  if ((m = /^(\d{2})\/?(\d{4})$/.exec(s))) return { y: +m[2], m: +m[1] };
  return null;
}

export async function startAuthnetStandin(opts: StandinOptions = {}): Promise<AuthnetStandin> {
  const loginId = opts.loginId ?? 'standin-login';
  const transactionKey = opts.transactionKey ?? 'StandinKey123456';
  let reporting = opts.transactionDetailsApi ?? true;
  const slowMs = opts.slowMs ?? 30_000;
  let latency = 0;
  const faults: Fault[] = [];
  const requests: Json[] = [];
  const transactions: StandinTransaction[] = [];
  const batches: StandinBatch[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let nextId = 60_000_000_000 + randomInt(1_000_000) * 1000;
  let nextBatch = 10_000_000 + randomInt(1_000_000);

  const byId = (id: string | null) => transactions.find((t) => t.transId === id);

  function transactionResponse(t: Pick<StandinTransaction, 'responseCode' | 'responseReasonCode' | 'responseReasonDescription' | 'authCode' | 'avs' | 'cvv' | 'transId' | 'refTransId' | 'payment'>) {
    const p = t.payment;
    const last4 = p.kind === 'card' ? p.number.slice(-4) : p.account.slice(-4);
    const ok = t.responseCode === 1 || t.responseCode === 4;
    return {
      responseCode: String(t.responseCode),
      authCode: t.authCode,
      avsResultCode: t.avs,
      cvvResultCode: t.cvv,
      cavvResultCode: '',
      transId: t.transId,
      refTransID: t.refTransId ?? '',
      transHash: '',
      testRequest: '0',
      accountNumber: `XXXX${last4}`,
      accountType: p.kind === 'card' ? cardType(p.number) : 'eCheck',
      ...(ok
        ? { messages: [{ code: String(t.responseReasonCode), description: t.responseReasonDescription }] }
        : { errors: [{ errorCode: String(t.responseReasonCode), errorText: t.responseReasonDescription }] }),
      transHashSha2: '',
      SupplementalDataQualificationIndicator: 0,
    };
  }

  function answerTransaction(refId: string | null, t: Parameters<typeof transactionResponse>[0]) {
    const ok = t.responseCode === 1 || t.responseCode === 4;
    return {
      transactionResponse: transactionResponse(t),
      ...(refId ? { refId } : {}),
      messages: ok ? OK : messages('Error', 'E00027', 'The transaction was unsuccessful.'),
    };
  }

  /** An answer with a reason and no stored transaction (errors: transId 0). */
  function refusal(refId: string | null, reason: number, payment: StandinTransaction['payment'], refTransId: string | null = null) {
    const r = REASONS[reason];
    return answerTransaction(refId, {
      responseCode: r.code, responseReasonCode: reason, responseReasonDescription: r.text,
      authCode: '', avs: 'P', cvv: '', transId: '0', refTransId, payment,
    });
  }

  function duplicate(tr: Obj, payment: StandinTransaction['payment'], amount: string, invoice: string | null): boolean {
    const settings = isObj(tr.transactionSettings) ? tr.transactionSettings.setting : undefined;
    const list = Array.isArray(settings) ? settings : settings ? [settings] : [];
    const win = list.filter(isObj).find((s) => s.settingName === 'duplicateWindow');
    const windowS = win ? Number(win.settingValue) : 120;
    const since = Date.now() - windowS * 1000;
    return transactions.some((t) => t.transactionType === str(tr.transactionType) && t.amount === amount && t.invoiceNumber === invoice
      && Date.parse(t.submitTimeUTC) >= since && JSON.stringify(t.payment) === JSON.stringify(payment));
  }

  function sale(refId: string | null, tr: Obj) {
    const pay = tr.payment as Obj;
    const amount = money(cents(str(tr.amount) ?? '0'));
    const order = isObj(tr.order) ? tr.order : {};
    const bill = isObj(tr.billTo) ? tr.billTo : {};
    const invoice = str(order.invoiceNumber);
    let payment: StandinTransaction['payment'];
    if (isObj(pay.creditCard)) {
      const c = pay.creditCard;
      payment = { kind: 'card', number: str(c.cardNumber) ?? '', expirationDate: str(c.expirationDate) ?? '' };
    } else if (isObj(pay.bankAccount)) {
      const b = pay.bankAccount;
      payment = { kind: 'bank', routing: str(b.routingNumber) ?? '', account: str(b.accountNumber) ?? '', accountType: str(b.accountType) ?? 'checking', name: str(b.nameOnAccount) ?? '', echeckType: str(b.echeckType) };
    } else {
      return refusal(refId, 33, { kind: 'card', number: '0000', expirationDate: '' });
    }
    if (cents(amount) <= 0) return refusal(refId, 5, payment);
    let reason = 1;
    let avs = 'Y';
    let cvv = '';
    if (payment.kind === 'card') {
      const exp = expiry(payment.expirationDate);
      const now = new Date();
      if (!luhn(payment.number)) return refusal(refId, 6, payment);
      if (!exp || exp.m < 1 || exp.m > 12) return refusal(refId, 7, payment);
      if (exp.y < now.getUTCFullYear() || (exp.y === now.getUTCFullYear() && exp.m < now.getUTCMonth() + 1)) return refusal(refId, 8, payment);
      const code = isObj(pay.creditCard) ? str(pay.creditCard.cardCode) : null;
      if (code) cvv = CVV_CODES[code] ?? 'M';
      const zip = str(bill.zip);
      avs = zip ? (AVS_ZIPS[zip] ?? 'Y') : (str(bill.address) ? 'Y' : 'P');
      if (zip === '46282') reason = 2;
      const c = cents(amount);
      if (payment.number === ERROR_CARD && c % 100 === 0 && REASONS[c / 100]) reason = c / 100;
    } else {
      avs = 'P';
      if (cents(amount) > 10_000) reason = 2;
    }
    if (duplicate(tr, payment, amount, invoice)) return refusal(refId, 11, payment);
    const r = REASONS[reason];
    if (r.code === 3) return refusal(refId, reason, payment);
    const status = r.code === 1 ? 'capturedPendingSettlement' : r.code === 2 ? 'declined' : reason === 252 ? 'FDSAuthorizedPendingReview' : 'FDSPendingReview';
    const t: StandinTransaction = {
      transId: String(nextId++), transactionType: 'authCaptureTransaction', transactionStatus: status,
      responseCode: r.code, responseReasonCode: reason, responseReasonDescription: r.text,
      authCode: r.code === 2 ? '000000' : randomInt(36 ** 6).toString(36).toUpperCase().padStart(6, '0'),
      avs, cvv, amount, refundedCents: 0, refTransId: null, invoiceNumber: invoice, description: str(order.description), refId,
      submitTimeUTC: new Date().toISOString(), batchId: null, payment,
      firstName: str(bill.firstName), lastName: str(bill.lastName), customerIP: str(tr.customerIP),
    };
    transactions.push(t);
    return answerTransaction(refId, t);
  }

  function voidTx(refId: string | null, tr: Obj) {
    const orig = byId(str(tr.refTransId));
    const blank: StandinTransaction['payment'] = orig?.payment ?? { kind: 'card', number: '0000', expirationDate: '' };
    if (!orig || orig.batchId || ['declined', 'expired', 'generalError'].includes(orig.transactionStatus)) {
      return refusal(refId, 16, blank, str(tr.refTransId));
    }
    const reason = orig.transactionStatus === 'voided' ? 310 : 1;
    orig.transactionStatus = 'voided';
    return answerTransaction(refId, { ...orig, responseCode: 1, responseReasonCode: reason, responseReasonDescription: REASONS[reason].text, refTransId: orig.transId, transId: orig.transId });
  }

  function refund(refId: string | null, tr: Obj) {
    const orig = byId(str(tr.refTransId));
    const pay = isObj(tr.payment) ? tr.payment : {};
    const given: StandinTransaction['payment'] = isObj(pay.bankAccount)
      ? { kind: 'bank', routing: str(pay.bankAccount.routingNumber) ?? '', account: str(pay.bankAccount.accountNumber) ?? '', accountType: str(pay.bankAccount.accountType) ?? 'checking', name: str(pay.bankAccount.nameOnAccount) ?? '', echeckType: null }
      : { kind: 'card', number: isObj(pay.creditCard) ? str(pay.creditCard.cardNumber) ?? '' : '', expirationDate: 'XXXX' };
    if (!orig || orig.transactionType !== 'authCaptureTransaction' || orig.transactionStatus !== 'settledSuccessfully') return refusal(refId, 54, given, str(tr.refTransId));
    const o = orig.payment;
    const matches = o.kind === 'card'
      ? given.kind === 'card' && given.number.slice(-4) === o.number.slice(-4)
      : given.kind === 'bank' && given.routing.slice(-4) === o.routing.slice(-4) && given.account.slice(-4) === o.account.slice(-4);
    if (!matches) return refusal(refId, 54, given, orig.transId);
    const c = cents(str(tr.amount) ?? '0');
    if (c <= 0) return refusal(refId, 5, given, orig.transId);
    if (c > cents(orig.amount) - orig.refundedCents) return refusal(refId, 55, given, orig.transId);
    orig.refundedCents += c;
    const order = isObj(tr.order) ? tr.order : {};
    const t: StandinTransaction = {
      ...orig, transId: String(nextId++), transactionType: 'refundTransaction', transactionStatus: 'refundPendingSettlement',
      responseCode: 1, responseReasonCode: 1, responseReasonDescription: REASONS[1].text, authCode: '', avs: 'P', cvv: '',
      amount: money(c), refundedCents: 0, refTransId: orig.transId, invoiceNumber: str(order.invoiceNumber), refId,
      submitTimeUTC: new Date().toISOString(), batchId: null,
    };
    transactions.push(t);
    return answerTransaction(refId, t);
  }

  function summary(t: StandinTransaction) {
    const p = t.payment;
    return {
      transId: t.transId, submitTimeUTC: iso(new Date(t.submitTimeUTC)), submitTimeLocal: iso(new Date(t.submitTimeUTC)).slice(0, -1),
      transactionStatus: t.transactionStatus,
      ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}),
      ...(t.firstName ? { firstName: t.firstName } : {}), ...(t.lastName ? { lastName: t.lastName } : {}),
      accountType: p.kind === 'card' ? cardType(p.number) : 'eCheck',
      accountNumber: `XXXX${(p.kind === 'card' ? p.number : p.account).slice(-4)}`,
      settleAmount: Number(t.amount), marketType: 'eCommerce', product: 'Card Not Present', hasReturnedItems: false,
    };
  }

  function details(t: StandinTransaction) {
    const p = t.payment;
    const batch = batches.find((b) => b.batchId === t.batchId);
    return {
      transId: t.transId, ...(t.refTransId ? { refTransId: t.refTransId } : {}),
      submitTimeUTC: iso(new Date(t.submitTimeUTC)), submitTimeLocal: iso(new Date(t.submitTimeUTC)).slice(0, -1),
      transactionType: t.transactionType, transactionStatus: t.transactionStatus,
      responseCode: t.responseCode, responseReasonCode: t.responseReasonCode, responseReasonDescription: t.responseReasonDescription,
      ...(t.authCode ? { authCode: t.authCode } : {}), AVSResponse: t.avs, ...(t.cvv ? { cardCodeResponse: t.cvv } : {}),
      ...(batch ? { batch: { batchId: batch.batchId, settlementTimeUTC: batch.settlementTimeUTC, settlementTimeLocal: batch.settlementTimeUTC.slice(0, -1), settlementState: 'settledSuccessfully', marketType: 'eCommerce', product: 'Card Not Present' } } : {}),
      order: { ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}), ...(t.description ? { description: t.description } : {}), discountAmount: 0.0, taxIsAfterDiscount: false },
      authAmount: Number(t.amount), settleAmount: Number(t.amount), taxExempt: false,
      payment: p.kind === 'card'
        ? { creditCard: { cardNumber: `XXXX${p.number.slice(-4)}`, expirationDate: 'XXXX', cardType: cardType(p.number) } }
        : { bankAccount: { accountType: p.accountType, routingNumber: `XXXX${p.routing.slice(-4)}`, accountNumber: `XXXX${p.account.slice(-4)}`, nameOnAccount: p.name, ...(p.echeckType ? { echeckType: p.echeckType } : {}) } },
      ...(t.firstName || t.lastName ? { billTo: { ...(t.firstName ? { firstName: t.firstName } : {}), ...(t.lastName ? { lastName: t.lastName } : {}) } } : {}),
      recurringBilling: false, ...(t.customerIP ? { customerIP: t.customerIP } : {}), product: 'Card Not Present', marketType: 'eCommerce',
    };
  }

  /** Sorting and paging of a transaction list request; totalNumInResultSet is the count before paging. */
  function listed(req: Obj, txs: StandinTransaction[]) {
    const sorting = isObj(req.sorting) ? req.sorting : null;
    const desc = sorting ? sorting.orderDescending === true || sorting.orderDescending === 'true' : false;
    const key = (t: StandinTransaction) => (sorting?.orderBy === 'id' ? Number(t.transId) : Date.parse(t.submitTimeUTC) * 1e3 + (Number(t.transId) % 1e3));
    const sorted = [...txs].sort((a, b) => (desc ? key(b) - key(a) : key(a) - key(b)));
    const paging = isObj(req.paging) ? req.paging : null;
    const limit = paging ? Number(paging.limit) : 1000;
    const offset = paging ? Number(paging.offset) : 1;
    const page = sorted.slice((offset - 1) * limit, offset * limit);
    if (page.length === 0) return { messages: NO_RECORDS };
    return { transactions: page.map(summary), totalNumInResultSet: sorted.length, messages: OK };
  }

  function report(method: string, req: Obj): Obj {
    if (!reporting) return { messages: messages('Error', 'E00011', 'Access denied. You do not have permissions to call the Transaction Details API.') };
    if (method === 'getTransactionDetailsRequest') {
      const t = byId(str(req.transId));
      return t ? { transaction: details(t) as unknown as Obj, messages: OK } : { messages: messages('Error', 'E00040', 'The record cannot be found.') };
    }
    if (method === 'getUnsettledTransactionListRequest') {
      const held = (t: StandinTransaction) => /Review|PendingRelease/.test(t.transactionStatus) && t.transactionStatus !== 'approvedReview';
      const pool = transactions.filter((t) => !t.batchId && (req.status === 'pendingApproval' ? held(t) : true));
      return listed(req, pool) as Obj;
    }
    if (method === 'getSettledBatchListRequest') {
      const now = Date.now();
      const first = str(req.firstSettlementDate);
      const last = str(req.lastSettlementDate);
      const from = first ? Date.parse(first) : now - 86_400_000;
      const to = last ? Date.parse(last) : now;
      if ((first && Number.isNaN(from)) || (last && Number.isNaN(to)) || to < from) return { messages: messages('Error', 'E00013', 'Date is invalid.') };
      if (to - from > 31 * 86_400_000) return { messages: messages('Error', 'E00013', 'The date range can not exceed 31 days.') };
      const inRange = batches.filter((b) => Date.parse(b.settlementTimeUTC) >= from && Date.parse(b.settlementTimeUTC) <= to);
      if (inRange.length === 0) return { messages: NO_RECORDS };
      return {
        batchList: inRange.map((b) => ({ batchId: b.batchId, settlementTimeUTC: b.settlementTimeUTC, settlementTimeLocal: b.settlementTimeUTC.slice(0, -1), settlementState: 'settledSuccessfully', paymentMethod: b.paymentMethod, marketType: 'eCommerce', product: 'Card Not Present' })),
        messages: OK,
      };
    }
    // getTransactionListRequest
    const batchId = str(req.batchId);
    if (!batchId || !batches.some((b) => b.batchId === batchId)) return { messages: NO_RECORDS };
    return listed(req, transactions.filter((t) => t.batchId === batchId)) as Obj;
  }

  /** The API's answer to one request body (the method's side effects included). */
  function handle(body: Json): Obj {
    const v = validate(body);
    if ('code' in v) return { messages: messages('Error', v.code, v.text) };
    const [method, req] = [v.method, v.request];
    const auth = req.merchantAuthentication as Obj;
    if (auth.name !== loginId || auth.transactionKey !== transactionKey) {
      return { messages: messages('Error', 'E00007', 'User authentication failed due to invalid authentication values.') };
    }
    const refId = str(req.refId);
    if (method === 'authenticateTestRequest') return { messages: OK };
    if (method !== 'createTransactionRequest') return report(method, req);
    const tr = req.transactionRequest as Obj;
    const type = str(tr.transactionType);
    if (type === 'authCaptureTransaction') {
      if (!isObj(tr.payment)) return refusal(refId, 33, { kind: 'card', number: '0000', expirationDate: '' }) as Obj;
      return sale(refId, tr) as Obj;
    }
    if (type === 'voidTransaction') return voidTx(refId, tr) as Obj;
    if (type === 'refundTransaction') return refund(refId, tr) as Obj;
    return { ...(refId ? { refId } : {}), messages: messages('Error', 'E00003', `The transaction type '${type}' is not supported by this stand-in.`) };
  }

  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => { timers.delete(t); f(); }, ms);
    timers.add(t);
  };

  function send(res: ServerResponse, status: number, text: string, type = 'application/json; charset=utf-8') {
    const out = () => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (latency > 0) later(latency, out);
    else out();
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
    let body: Json;
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      body = null;
    }
    requests.push(body);
    const fault = faults.shift();
    if (fault === 'hang') return;
    if (fault === 'drop') return req.socket.destroy();
    if (fault === 'status500') return send(res, 500, '<html><body>Internal Server Error</body></html>', 'text/html');
    if (fault === 'malformed') return send(res, 200, `${BOM}{"transactionResponse":{"responseCode":"1","tra`);
    if (req.method !== 'POST' || body === null) {
      return send(res, 200, BOM + JSON.stringify({ messages: messages('Error', 'E00003', 'Root element is missing.') }));
    }
    const answer = handle(body);
    if (fault === 'act-then-hang') return;
    if (fault === 'act-then-drop') return req.socket.destroy();
    const text = BOM + JSON.stringify(answer);
    if (fault === 'slow') return later(slowMs, () => send(res, 200, text));
    send(res, 200, text);
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/xml/v1/request.api`,
    requests,
    transactions,
    batches,
    settle(at = new Date()) {
      const made: StandinBatch[] = [];
      for (const method of ['creditCard', 'eCheck'] as const) {
        const txs = transactions.filter((t) => !t.batchId && (t.payment.kind === 'card') === (method === 'creditCard')
          && !/Review|PendingRelease/.test(t.transactionStatus));
        if (txs.length === 0) continue;
        const b: StandinBatch = { batchId: String(nextBatch++), settlementTimeUTC: iso(at), paymentMethod: method };
        for (const t of txs) {
          t.batchId = b.batchId;
          if (t.transactionStatus === 'capturedPendingSettlement' || t.transactionStatus === 'approvedReview') t.transactionStatus = 'settledSuccessfully';
          if (t.transactionStatus === 'refundPendingSettlement') t.transactionStatus = 'refundSettledSuccessfully';
        }
        batches.push(b);
        made.push(b);
      }
      return made;
    },
    fail(next, count = 1) {
      for (let i = 0; i < count; i++) faults.push(next);
    },
    setLatency(ms) {
      latency = ms;
    },
    setTransactionDetailsApi(on) {
      reporting = on;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// `node test/helpers/authnet-standin.ts` (Node with type stripping): one stand-in until Ctrl-C.
if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startAuthnetStandin({ loginId: process.env.AUTHNET_LOGIN_ID, transactionKey: process.env.AUTHNET_TRANSACTION_KEY });
  console.log(s.url);
}

export { NS as AUTHNET_NAMESPACE };
