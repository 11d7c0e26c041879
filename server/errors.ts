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
  REQ06: [503, 'the request was not answered within its deadline (30 s); retry later (with the same Idempotency-Key, a retry is answered from whatever was recorded)'],
  JSONP01: [400, 'callback must be a JavaScript identifier or dotted path'],
  TEST01: [400, 'real card or account numbers cannot be used in test mode; use a test card'],
  TEST02: [403, 'test helpers (such as the reset) work only with a test private key; live data can never be wiped'],
  TEST03: [409, 'a reset of this test environment is under way; retry when it has finished'],
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
  WEBHOOK05: [409, 'only a webhook strategy (mode webhook) can be sent a test event'],
  EVENT01: [404, 'event not found'],
  DEMO01: [403, 'the demo checkout answers its own page only; a cross-site request is refused'],
  DEMO02: [415, 'the demo checkout takes Content-Type: application/json only'],
  VAULT01: [503, "stored payment data cannot be read with this node's data key (TESSERA_DATA_KEY, TESSERA_DATA_KEYS_RETIRED); nothing was changed, the operator must configure the key it was encrypted with"],
  VAULT02: [422, 'the stored payment data of this record fails its integrity check (altered, or copied from another record) and cannot be used; tokenize the card or account again'],
  VAULT03: [503, "this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request"],
  URL01: [400, 'the URL names a host that is not public (loopback, private, link-local or reserved address); Tessera calls public addresses only, loopback too in test mode, and what the gateway operator allows'],
  CLOCK03: [409, 'an advance of this test clock is under way; GET /test_helpers/clock shows how far it has got; advance again when it has finished'],
  ADMIN01: [401, 'the admin token is missing or wrong: only the tessera command on this machine, reading the control file in the data directory, may call this route'],
  MERCHANT01: [404, 'merchant not found'],
  DASH01: [400, 'days must be an integer from 1 to 90'],
  DASH02: [400, 'q must be 1 to 100 characters and limit an integer from 1 to 20'],
  DB01: [503, 'the database is unavailable or did not answer in time; retry later (with the same Idempotency-Key, a retry is answered from whatever was recorded)'],
  INTERNAL: [500, 'internal error; nothing was changed, retry later'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof CATALOGUE;

/**
 * Every code by name: code reads `new GatewayError(E.CUSTOMER_NOT_FOUND)`, never a bare '17001'.
 * The wire carries the code (the value), never the name.
 */
export const E = {
  // spec §7
  LIMIT_INVALID: '1800',
  OFFSET_INVALID: '1801',
  LIMIT_TOO_LARGE: '1802',
  PLAN_NOT_DELETABLE: '10010',
  METHOD_IN_SUBSCRIPTION: '10208',
  BILLING_TXN_NOT_FOUND: '10210',
  BILLING_NOT_FAILED: '10212',
  TEMPLATE_NOT_FOUND: '10300',
  RECEIPT_FIELD_MISSING: '10302',
  BILLING_NOT_FOUND: '11000',
  CARD_NUMBER_INVALID: '11112',
  VISA_INVALID: '11301',
  MASTERCARD_INVALID: '11302',
  AMEX_INVALID: '11303',
  DINERS_INVALID: '11305',
  DISCOVER_INVALID: '11306',
  CUSTOMER_NOT_FOUND: '17001',
  METHOD_HAS_SCHEDULED: '17104',
  METHOD_DELETE_FAILED: '18010',
  TOKEN_NOT_FOR_MERCHANT: '23489',
  PAYMENT_TOKEN_NOT_FOUND: '34792',
  CUSTOMER_ID_REQUIRED: '34798',
  TOKEN_AMOUNT_INVALID: '38501',
  CUSTOMER_CHARGE_PARAMS_MISSING: '48291',
  AMOUNT_INVALID: '59112',
  TOKEN_CHARGE_PARAMS_MISSING: '69002',
  RECEIPT_EMAIL_MISSING: '69005',
  RECEIPT_EMAIL_INVALID: '69006',
  TOKEN_REQUIRED: '69201',
  CHARGE_NOT_FOUND: '69404',
  FAX_TOO_LONG: '81602',
  FIRST_NAME_TOO_LONG: '81603',
  LAST_NAME_TOO_LONG: '81604',
  PHONE_TOO_LONG: '81606',
  WEBSITE_TOO_LONG: '81607',
  CUSTOM_ID_TAKEN: '81608',
  CUSTOMER_EMAIL_OR_STATE_INVALID: '81609',
  METHOD_TYPE_UNKNOWN: '82001',
  METHOD_NOT_FOUND: '82002',
  DEFAULT_METHOD_UNDELETABLE: '82003',
  CARD_VERIFICATION_FAILED: '82004',
  ACCOUNT_UNVERIFIABLE: '91703',
  INVOICE_NOT_FOUND: '92000',
  INVOICE_UNDELIVERABLE: '92002',
  INVOICE_PAID_UNDELETABLE: '92007',
  INVOICE_UNDELETABLE: '92008',
  CUSTOMER_AMOUNT_INVALID: '99819',
  CARD_DECLINED: '99820',
  RULE_NOT_FOUND: '100001',
  UPDATE_BATCH_FAILED: '122000',
  UPDATE_PAYMENT_ID_INVALID: '122001',
  UPDATE_EXPIRY_INVALID: '122002',
  UPDATE_METHOD_NOT_FOUND: '122003',
  UPDATE_BODY_INVALID: '122004',
  UPDATE_METHOD_NOT_UPDATABLE: '122005',
  STRATEGY_NOT_FOUND: '200007',
  CSC_INVALID: '234722',
  TOKEN_NOT_FOUND: '882719',
  ZIP_REQUIRED: 'AVSZIP404',
  CVV_UNSUPPORTED: 'CPCVV1',
  CVV_WRONG: 'CPCVV2',
  TOKEN_RETRY: 'TKN01',
  // our own
  KEY_INVALID: 'AUTH01',
  PUBLIC_KEY_REFUSED: 'AUTH02',
  TEST_KEY_CANNOT_MAKE_LIVE: 'AUTH04',
  INVALID_REQUEST: 'REQ01',
  BODY_TOO_LARGE: 'REQ02',
  UNSUPPORTED_CONTENT: 'REQ03',
  REQUEST_TIMEOUT: 'REQ04',
  HEADERS_TOO_LARGE: 'REQ05',
  REQUEST_DEADLINE: 'REQ06',
  JSONP_CALLBACK_INVALID: 'JSONP01',
  REAL_CARD_IN_TEST: 'TEST01',
  TEST_HELPER_NEEDS_TEST_KEY: 'TEST02',
  RESET_BUSY: 'TEST03',
  NO_ENDPOINT: 'NOTFOUND',
  NO_LIVE_PROCESSOR: 'PROC01',
  REFUND_TOO_LARGE: 'REFUND01',
  REFUND_NOT_SETTLED: 'REFUND02',
  IDEMPOTENCY_KEY_INVALID: 'IDEM01',
  IDEMPOTENCY_KEY_REUSED: 'IDEM02',
  IDEMPOTENCY_IN_PROGRESS: 'IDEM03',
  RATE_LIMITED: 'RATE01',
  PAGE_INVALID: 'PAGE01',
  RECEIPT_NOT_FOUND: 'RCPT01',
  OUTBOX_NOT_FOUND: 'OUTBOX01',
  OUTBOX_SENT: 'OUTBOX02',
  INVOICE_NOT_UNPAID: 'INV01',
  INVOICE_NOT_PAYABLE: 'INV02',
  INVOICE_OVERPAID: 'INV03',
  UPDATE_BATCH_TOO_LARGE: 'UPD01',
  UPDATE_RECORD_NOT_FOUND: 'UPD02',
  PLAN_NOT_FOUND: 'PLAN01',
  SUBSCRIPTION_EXISTS: 'SUB01',
  SUBSCRIPTION_NOT_FOUND: 'SUB02',
  SUBSCRIPTION_NOT_ACTIVE: 'SUB03',
  SCHEDULED_NOT_FOUND: 'SCHED01',
  SCHEDULED_NOT_CANCELLABLE: 'SCHED02',
  CLOCK_BACKWARDS: 'CLOCK02',
  CLOCK_BUSY: 'CLOCK03',
  WEBHOOK_EVENT_UNKNOWN: 'WEBHOOK01',
  DELIVERY_NOT_FOUND: 'WEBHOOK02',
  DELIVERY_NOT_FAILED: 'WEBHOOK03',
  SECRET_ROTATION_PENDING: 'WEBHOOK04',
  WEBHOOK_NOT_A_WEBHOOK: 'WEBHOOK05',
  EVENT_NOT_FOUND: 'EVENT01',
  DEMO_CROSS_SITE: 'DEMO01',
  DEMO_JSON_ONLY: 'DEMO02',
  DATA_KEY_MISMATCH: 'VAULT01',
  DATA_INTEGRITY_FAILED: 'VAULT02',
  DATA_KEY_RETIRED: 'VAULT03',
  URL_NOT_PUBLIC: 'URL01',
  ADMIN_TOKEN_INVALID: 'ADMIN01',
  MERCHANT_NOT_FOUND: 'MERCHANT01',
  SUMMARY_DAYS_INVALID: 'DASH01',
  SEARCH_INVALID: 'DASH02',
  DATABASE_UNAVAILABLE: 'DB01',
  INTERNAL: 'INTERNAL',
} as const satisfies Record<string, ErrorCode>;

/** Compile-time proof that every catalogued code has a name in E. */
type Unnamed = Exclude<ErrorCode, (typeof E)[keyof typeof E]>;
const everyCodeNamed: [Unnamed] extends [never] ? true : Unnamed = true;
void everyCodeNamed;

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

/**
 * REQ01 (400) keeps one code on the wire for every malformed request; its words come from these
 * builders, so the same fault reads the same everywhere: `${field} ${rule}`.
 */
export const MUST = {
  BOOL: 'must be true or false',
  STRING: 'must be a string',
  OBJECT: 'must be an object or a JSON-encoded object',
  WHOLE: 'must be a whole number of 0 or more',
  HTTP_URL: 'must be an absolute http or https URL',
  HTTPS_IN_LIVE: 'must use https in live mode',
  COUNTRY: 'must be a 3-letter ISO 3166 code',
  PHONE: 'must be 7 to 15 digits, optionally with a leading +',
  REQUIRED: 'is required',
} as const;

/** 400 REQ01 naming one field: `invalid('send_receipt', MUST.BOOL)` is "send_receipt must be true or false". */
export const invalid = (field: string, rule: string) => new GatewayError(E.INVALID_REQUEST, `${field} ${rule}`);

/** 400 REQ01: a text longer than its field keeps. */
export const tooLong = (field: string, max: number) => invalid(field, `must be at most ${max} characters`);

/** 400 REQ01 for a fault of the request as a whole, or of several fields together. */
export const badRequest = (message: string) => new GatewayError(E.INVALID_REQUEST, message);

/** 400 REQ01: a body (or one of its values) nested deeper than `max` levels. */
export const tooDeep = (where: string, max: number) => badRequest(`${where} is nested more than ${max} levels deep`);

/** 400 REQ01: a body with more fields than it may have. */
export const tooManyFields = (max: number) => badRequest(`the body has more than ${max} fields`);
