// The one catalogue: every error code the gateway can answer with, its HTTP status and message.
// Spec §7 codes keep their spelling; our own codes are short upper-case strings.
// Statuses follow Stripe: 400 bad parameter (including a missing record named in the body),
// 401/403 keys, 402 card refused, 404 record named in the path, 409 state conflict.

export const CATALOGUE = {
  // spec §7
  '1800': [400, 'limit must be a positive integer'],
  '1801': [400, 'offset must be a positive integer'],
  '1802': [400, 'limit must not be greater than 100'],
  '10010': [409, 'plan cannot be deleted'],
  '10208': [409, 'method is in use by a subscription'],
  '10210': [404, 'billing with this transaction id not found'],
  '10212': [409, 'billing is not in failed status'],
  '10300': [404, 'receipt template not found'],
  '10302': [400, 'required field missing (phone_number for SMS receipts, receipt_text for templates)'],
  '11000': [404, 'billing id not available for the merchant'],
  '11112': [400, 'invalid card number or improper format'],
  '11301': [400, 'invalid Visa card number'],
  '11302': [400, 'invalid Mastercard card number'],
  '11303': [400, 'invalid American Express card number'],
  '11305': [400, 'invalid Diners Club card number'],
  '11306': [400, 'invalid Discover card number'],
  '17001': [404, 'customer not found'],
  '17104': [409, 'method has unbilled scheduled payments'],
  '18010': [409, 'error while deleting the method'],
  '23489': [400, 'token not found for merchant'],
  '34792': [400, 'payment token not found'],
  '34798': [400, 'valid customer_id required'],
  '38501': [400, 'amount must be a number of cents above zero'],
  '48291': [400, 'parameters missing (customer_id, amount)'],
  '59112': [400, 'amount must be a number of cents above zero'],
  '69002': [400, 'parameters missing (token, amount)'],
  '69005': [400, 'email_address needed to send a receipt'],
  '69006': [400, 'receipt email address invalid'],
  '69201': [400, 'valid token required'],
  '69404': [404, 'charge not found'],
  '81602': [400, 'fax too long'],
  '81603': [400, 'first name too long'],
  '81604': [400, 'last name too long'],
  '81606': [400, 'phone too long'],
  '81607': [400, 'website too long'],
  '81608': [409, 'custom id already taken'],
  '81609': [400, 'customer email invalid or state not a two-character abbreviation'],
  '82001': [400, 'method type not recognized'],
  '82002': [404, 'method not found'],
  '82003': [409, 'the default method cannot be deleted'],
  '82004': [402, 'card verification failed'],
  '91703': [400, 'account cannot be verified'],
  '92000': [404, 'invoice not found'],
  '92002': [422, 'invoice email could not be delivered'],
  '92007': [409, 'a paid invoice cannot be deleted'],
  '92008': [409, 'invoice cannot be deleted'],
  '99819': [400, 'amount must be a positive number of cents'],
  '99820': [402, 'card declined'],
  '100001': [404, 'rule not found'],
  '122000': [503, 'batch update failed, retry later'],
  '122001': [400, 'invalid payment id'],
  '122002': [400, 'invalid card expiration month/year'],
  '122003': [400, 'payment method information not found'],
  '122004': [400, 'body needs a numerically keyed payment_methods object'],
  '122005': [400, 'payment method cannot be updated'],
  '200007': [404, 'strategy not found'],
  '234722': [400, 'security code missing or invalid'],
  '882719': [404, 'token not found'],
  AVSZIP404: [400, 'merchant requires zip for address verification'],
  CPCVV1: [402, 'issuer does not support CVV while merchant requires it'],
  CPCVV2: [402, 'card verification code wrong'],
  TKN01: [503, 'token request failed, retry'],
  // our own
  AUTH01: [401, 'missing, unknown or expired API key (HTTP Basic: key as username, empty password)'],
  AUTH02: [403, 'a public key cannot be used here; use the private key from your server'],
  AUTH04: [403, 'a test key cannot create live keys; sign in with a live private key'],
  REQ01: [400, 'invalid request'],
  REQ02: [413, 'request body too large'],
  REQ03: [415, 'unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br'],
  REQ04: [408, 'the request was not received in time (30 s)'],
  REQ05: [431, 'request headers too large'],
  JSONP01: [400, 'callback must be a JavaScript identifier or dotted path'],
  TEST01: [400, 'real card or account numbers cannot be used in test mode; use a test card'],
  TEST02: [403, 'test helpers (such as the reset) work only with a test private key; live data can never be wiped'],
  NOTFOUND: [404, 'no such endpoint'],
  PROC01: [503, 'no payment processor is configured for live mode; live charges are refused'],
  REFUND01: [400, 'refund amount exceeds the amount settled minus the amount already refunded'],
  REFUND02: [409, 'only a settled, successful charge can be refunded'],
  IDEM01: [400, 'Idempotency-Key must be 1 to 255 printable characters'],
  IDEM02: [422, 'Idempotency-Key was already used with a different request body'],
  IDEM03: [409, 'a request with this Idempotency-Key is still in progress; retry later'],
  RATE01: [429, 'too many requests; retry later'],
  PAGE01: [400, 'limit must be an integer from 1 to 100 and offset an integer of 0 or more'],
  RCPT01: [404, 'receipt not found'],
  OUTBOX01: [404, 'outbox message not found'],
  OUTBOX02: [409, 'this message was sent already; only pending or failed messages can be queued again'],
  INV01: [409, 'only an unpaid invoice can be updated'],
  INV02: [409, 'only an unpaid or partially paid invoice can be marked as paid'],
  INV03: [400, 'amount exceeds the balance of the invoice'],
  UPD01: [400, 'an account updater batch holds at most 10,000 payment methods; split larger batches'],
  UPD02: [404, 'account updater record not found'],
  PLAN01: [404, 'plan not found'],
  SUB01: [409, 'the customer already has an active subscription to this plan'],
  SUB02: [404, 'subscription not found'],
  SUB03: [409, 'only an active subscription can be changed'],
  SCHED01: [404, 'scheduled transaction not found'],
  SCHED02: [409, 'only a scheduled transaction that has not billed yet can be cancelled'],
  CLOCK02: [400, 'the test clock only moves forward'],
  WEBHOOK01: [400, 'unknown event_resource or event type; GET /webhooks/event_types lists them'],
  WEBHOOK02: [404, 'webhook delivery not found'],
  WEBHOOK03: [409, 'only a failed delivery can be queued again'],
  WEBHOOK04: [409, 'the secret before the last rotation still signs deliveries; rotate again with expire_old now, or after it expires'],
  EVENT01: [404, 'event not found'],
  DEMO01: [403, 'the demo checkout answers its own page only; a cross-site request is refused'],
  DEMO02: [415, 'the demo checkout takes Content-Type: application/json only'],
  VAULT01: [503, "stored payment data cannot be read with this node's data key (TESSERA_DATA_KEY, TESSERA_DATA_KEYS_RETIRED); nothing was changed, the operator must configure the key it was encrypted with"],
  VAULT02: [422, 'the stored payment data of this record fails its integrity check (altered, or copied from another record) and cannot be used; tokenize the card or account again'],
  URL01: [400, 'the URL names a host that is not public (loopback, private, link-local or reserved address); Tessera calls public addresses only, loopback too in test mode, and what the gateway operator allows'],
  INTERNAL: [500, 'internal error; nothing was changed, retry later'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof CATALOGUE;

export class GatewayError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Extra fields of the error item, e.g. the transaction_id of a recorded decline. */
    readonly details: Record<string, string> = {},
  ) {
    super(message ?? CATALOGUE[code][1]);
    this.status = CATALOGUE[code][0];
  }
  toJSON() {
    return { errors: [{ code: this.code, message: this.message, ...this.details }] };
  }
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(CATALOGUE, code);
}
