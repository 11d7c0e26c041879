import type { BankInstrument, CardInstrument, ReverseRequest, SaleRequest } from '../../connector.js';

/**
 * The createTransactionRequest bodies: sale (authCaptureTransaction), void (voidTransaction) and
 * refund (refundTransaction). The API converts JSON to XML and validates it against
 * AnetApiSchema.xsd, whose types are xs:sequence: an element out of order, or a value longer than
 * its maxLength, is refused whole (E00003). So every object below is written in the schema's order
 * (JavaScript keeps string keys in insertion order, JSON.stringify writes them so), an absent value
 * is left out (never null, never ""), and every length is held to the schema's limit:
 * - free text the merchant or payer typed (names, company, address, city, state, zip, country,
 *   description, name on account) is cut to the limit, at a code point, never mid-character;
 * - identifiers that would be wrong when cut (customer id, email, IP address) are left out;
 * - what the payment cannot be made without (reference, card number, expiry, card code, routing and
 *   account numbers) is never cut: a value the API would refuse is refused here, before any I/O
 *   (`Refusal`: the connector answers `invalid`, nothing was sent).
 */

/** A request we will not send: the connector answers `invalid` with this text. */
export class Refusal extends Error {}

export interface Credentials {
  loginId: string;
  transactionKey: string;
}

/** Schema limits (AnetApiSchema.xsd, 2024 release) of what we send. */
export const LIMITS = {
  refId: 20, invoiceNumber: 20, description: 255,
  firstName: 50, lastName: 50, company: 50, address: 60, city: 40, state: 40, zip: 20, country: 60,
  customerId: 20, email: 255, customerIP: 15, nameOnAccount: 22, accountNumber: 17,
  loginId: 25, transactionKey: 16,
} as const;

/** At most `n` code points (the XSD counts characters, not UTF-16 units or bytes). */
export function cut(s: string | null | undefined, n: number): string | undefined {
  if (s == null) return undefined;
  const t = s.replace(/\s+/g, ' ').trim();
  if (t === '') return undefined;
  const cps = Array.from(t);
  return cps.length <= n ? t : cps.slice(0, n).join('').trimEnd();
}

/** The value when it fits, else nothing (an identifier cut short would name someone else). */
function whole(s: string | null | undefined, n: number): string | undefined {
  if (s == null) return undefined;
  const t = s.trim();
  return t !== '' && Array.from(t).length <= n ? t : undefined;
}

/** Minor units to the API's decimal dollars: 1234 -> "12.34", 5 -> "0.05". */
export function dollars(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Refusal(`amount ${cents} is not a whole number of cents`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * customerIP: the API documents up to 15 characters, dot-delimited IPv4. An IPv4-mapped IPv6
 * address (::ffff:1.2.3.4, as Node reports a v4 peer on a dual-stack socket) is sent as its IPv4;
 * any other IPv6 address is left out (it does not fit the field).
 */
export function ipv4(ip: string | null): string | undefined {
  if (!ip) return undefined;
  const v = ip.trim().replace(/^::ffff:/i, '');
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) return undefined;
  return v;
}

/**
 * The gateway's reference as Authorize.Net's invoiceNumber (and refId) carry it: its first 20
 * characters. The gateway's ids are 32 random hex digits, so a 20-digit prefix (80 bits) still names
 * one operation; lookup() matches by the same prefix.
 */
export function invoiceNumberOf(ref: string): string {
  return Array.from(ref).slice(0, LIMITS.invoiceNumber).join('');
}

function reference(ref: string): string {
  if (ref === '') throw new Refusal('an operation needs a reference (the invoiceNumber lookup finds it by)');
  return invoiceNumberOf(ref);
}

const auth = (c: Credentials) => ({ name: c.loginId, transactionKey: c.transactionKey });

/** Drops undefined members (keeps the order of the rest); undefined when nothing is left. */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length ? (out as Partial<T>) : undefined;
}

function creditCard(i: CardInstrument) {
  const number = i.number.replace(/[\s-]/g, '');
  // creditCardSimpleType.cardNumber: 4-16 characters (a 17-19 digit card cannot be sent by this API).
  if (!/^\d{13,16}$/.test(number)) throw new Refusal('Authorize.Net takes a card number of 13 to 16 digits');
  if (i.expMonth == null || i.expYear == null || i.expMonth < 1 || i.expMonth > 12 || i.expYear < 1000 || i.expYear > 9999) {
    throw new Refusal('Authorize.Net needs the card\'s expiry month and four-digit year');
  }
  // cardCode: numericString of 3-4 digits, sent only when the payer gave one.
  if (i.csc != null && !/^\d{3,4}$/.test(i.csc)) throw new Refusal('Authorize.Net takes a card code of 3 or 4 digits');
  return compact({
    cardNumber: number,
    expirationDate: `${i.expYear}-${String(i.expMonth).padStart(2, '0')}`,
    cardCode: i.csc ?? undefined,
  });
}

const ACCOUNT_TYPE = { checking: 'checking', savings: 'savings', business_checking: 'businessChecking' } as const;

function bankAccount(i: BankInstrument) {
  if (!/^\d{9}$/.test(i.routing)) throw new Refusal('Authorize.Net takes a routing number of 9 digits');
  if (!/^\d{1,17}$/.test(i.account)) throw new Refusal(`Authorize.Net takes an account number of 1 to ${LIMITS.accountNumber} digits`);
  const name = cut(i.holder, LIMITS.nameOnAccount);
  if (!name) throw new Refusal('Authorize.Net needs the name on the bank account');
  return {
    accountType: ACCOUNT_TYPE[i.type],
    routingNumber: i.routing,
    accountNumber: i.account,
    nameOnAccount: name,
    echeckType: i.entryClass,
  };
}

/** "Ada King Lovelace" -> first "Ada King", last "Lovelace"; one word is a last name. */
export function splitName(full: string | null): { first?: string; last?: string } {
  const words = (full ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { last: words[0] };
  return { first: words.slice(0, -1).join(' '), last: words[words.length - 1] };
}

function billTo(req: SaleRequest) {
  const i = req.instrument;
  const fromHolder = splitName(i.kind === 'card' ? i.holder : i.holder);
  const first = req.customer.firstName ?? (req.customer.lastName ? undefined : fromHolder.first);
  const last = req.customer.lastName ?? (req.customer.firstName ? undefined : fromHolder.last);
  const a = i.kind === 'card' ? i.address : null;
  const street = a ? [a.line1, a.line2].filter((s) => s && s.trim()).join(' ') : '';
  return compact({
    firstName: cut(first, LIMITS.firstName),
    lastName: cut(last, LIMITS.lastName),
    company: cut(req.customer.company, LIMITS.company),
    address: cut(street, LIMITS.address),
    city: cut(a?.city, LIMITS.city),
    state: cut(a?.state, LIMITS.state),
    zip: cut(a?.zip, LIMITS.zip),
    country: cut(a?.country, LIMITS.country),
  });
}

/** createTransactionRequest for a sale: authCaptureTransaction, card or eCheck. */
export function saleRequest(c: Credentials, req: SaleRequest) {
  const ref = reference(req.reference);
  const payment = req.instrument.kind === 'card'
    ? { creditCard: creditCard(req.instrument) }
    : { bankAccount: bankAccount(req.instrument) };
  return {
    createTransactionRequest: {
      merchantAuthentication: auth(c),
      refId: ref,
      transactionRequest: compact({
        transactionType: 'authCaptureTransaction',
        amount: dollars(req.amount),
        currencyCode: req.currency,
        payment,
        order: compact({ invoiceNumber: ref, description: cut(req.description, LIMITS.description) }),
        customer: compact({ id: whole(req.customer.id, LIMITS.customerId), email: whole(req.customer.email, LIMITS.email) }),
        billTo: billTo(req),
        customerIP: ipv4(req.payerIp),
      }),
    },
  };
}

/** createTransactionRequest for a void: voidTransaction of the sale's transId. */
export function voidRequest(c: Credentials, req: ReverseRequest) {
  const ref = reference(req.reference);
  if (!/^\d+$/.test(req.sale.processorId)) throw new Refusal(`"${req.sale.processorId}" is not an Authorize.Net transaction id`);
  return {
    createTransactionRequest: {
      merchantAuthentication: auth(c),
      refId: ref,
      transactionRequest: { transactionType: 'voidTransaction', refTransId: req.sale.processorId },
    },
  };
}

/**
 * createTransactionRequest for a refund (refundTransaction): the sale's transId, and the instrument
 * named without its full number, as the API takes it for a refund of a transaction it holds: a card
 * by its last four digits with the expiry "XXXX"; a bank account by its routing number and "XXXX"
 * and the last four digits of the account (the XSD's masked form), its type and name.
 */
export function refundRequest(c: Credentials, req: ReverseRequest) {
  const ref = reference(req.reference);
  const s = req.sale;
  if (!/^\d+$/.test(s.processorId)) throw new Refusal(`"${s.processorId}" is not an Authorize.Net transaction id`);
  if (!/^\d{4}$/.test(s.instrument.last4)) throw new Refusal('a refund needs the last four digits of the sale\'s card or account');
  let payment;
  if (s.instrument.kind === 'card') {
    payment = { creditCard: { cardNumber: s.instrument.last4, expirationDate: 'XXXX' } };
  } else {
    if (!s.instrument.routing || !/^\d{9}$/.test(s.instrument.routing)) {
      throw new Refusal('a refund to a bank account needs the sale\'s 9-digit routing number');
    }
    payment = {
      bankAccount: {
        accountType: ACCOUNT_TYPE[s.instrument.type],
        routingNumber: s.instrument.routing,
        accountNumber: `XXXX${s.instrument.last4}`,
        nameOnAccount: cut(s.instrument.holder, LIMITS.nameOnAccount) ?? 'Account holder',
      },
    };
  }
  return {
    createTransactionRequest: {
      merchantAuthentication: auth(c),
      refId: ref,
      transactionRequest: {
        transactionType: 'refundTransaction',
        amount: dollars(req.amount),
        currencyCode: req.currency,
        payment,
        refTransId: s.processorId,
        order: { invoiceNumber: ref },
      },
    },
  };
}
