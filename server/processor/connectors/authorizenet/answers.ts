import type { ProcessorResult } from '../../connector.js';
import { unknownResult } from '../../connector.js';

/**
 * Reading Authorize.Net's answers. Every answer carries `messages` ({ resultCode: "Ok" | "Error",
 * message: [{ code, text }] }); a createTransactionResponse also carries `transactionResponse`,
 * whose `responseCode` is the verdict: 1 approved, 2 declined, 3 error, 4 held for review. A decline
 * comes with resultCode "Error" (E00027) AND a transactionResponse saying 2: the transactionResponse
 * is read first, the top-level messages only when there is none.
 *
 * In the JSON answers the XSD's list wrappers are arrays (`transactionResponse.messages` is
 * [{ code, description }], `errors` is [{ errorCode, errorText }], `transactions` and `batchList`
 * are arrays), as the official SDK reads them; the wrapped form ({ message: [...] }, a single
 * object for a one-item list) is read too.
 */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A list as the API may write it: an array, { <item>: array }, { <item>: object } or one object. */
export function list(v: unknown, item: string): Obj[] {
  if (Array.isArray(v)) return v.filter(isObj);
  if (isObj(v)) {
    const inner = v[item];
    if (Array.isArray(inner)) return inner.filter(isObj);
    if (isObj(inner)) return [inner];
    return Object.keys(v).length ? [v] : [];
  }
  return [];
}

/** A scalar as text (the API writes most numbers as strings, some as numbers); null when absent or empty. */
export function text(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

export interface TopMessage {
  resultCode: string | null;
  code: string | null;
  text: string | null;
}

/** The answer's top-level verdict and its first message. */
export function top(body: Obj): TopMessage {
  const m = isObj(body.messages) ? body.messages : {};
  const first = list(m.message, 'message')[0] ?? {};
  return { resultCode: text(m.resultCode), code: text(first.code), text: text(first.text) };
}

/**
 * Top-level codes that say the request reached the API but it could not be handled, with no word
 * on whether anything was done: "An error occurred during processing. Please try again" (E00001),
 * "too busy" (E00053), maintenance (E00104). A money-moving call answered so is `unknown`.
 */
export const TRANSIENT_CODES = new Set(['E00001', 'E00053', 'E00104']);

/**
 * "The transaction was unsuccessful." (E00027) is the top-level code of a transaction-level result:
 * it comes with the transactionResponse that says what happened. Without one, we do not know.
 */
const NEEDS_TRANSACTION_RESPONSE = new Set(['E00027']);

/**
 * responseReasonCode 11, "A duplicate transaction has been submitted": a transaction with the same
 * card, amount and invoice number (our reference) was sent within the duplicate window (2 minutes
 * by default). The first one exists and may have been approved, so this answer is not "nothing
 * happened": `unknown`, resolved by a lookup of the reference.
 */
export const DUPLICATE_REASON = '11';

const OUTCOMES: Record<string, ProcessorResult['outcome']> = { 1: 'approved', 2: 'declined', 3: 'invalid', 4: 'held' };

/** "0" is the transId of a test-mode (not stored) transaction: no id. */
const transId = (v: unknown) => {
  const t = text(v);
  return t && t !== '0' ? t : null;
};

/** The processor's reason (code and text) in a transactionResponse: its errors first, then its messages. */
function reason(tr: Obj): { code: string | null; message: string | null } {
  const err = list(tr.errors, 'error')[0];
  if (err && (text(err.errorCode) || text(err.errorText))) return { code: text(err.errorCode), message: text(err.errorText) };
  const msg = list(tr.messages, 'message')[0];
  if (msg && (text(msg.code) || text(msg.description))) return { code: text(msg.code), message: text(msg.description) };
  return { code: null, message: null };
}

const NOT_SETTLED_REASON = '54';

/** A createTransactionResponse (sale, void or refund) as a ProcessorResult. */
export function readTransaction(body: Obj): ProcessorResult {
  const t = top(body);
  const tr = isObj(body.transactionResponse) ? body.transactionResponse : null;
  const responseCode = tr ? text(tr.responseCode) : null;
  if (tr && responseCode && OUTCOMES[responseCode]) {
    const r = reason(tr);
    const duplicate = responseCode === '3' && r.code === DUPLICATE_REASON;
    // Reason 54: "The referenced transaction does not meet the criteria for issuing a credit": a
    // refund of a sale not settled yet.
    const notSettled = responseCode === '3' && r.code === NOT_SETTLED_REASON;
    return {
      ...(notSettled ? { notSettled } : {}),
      outcome: duplicate ? 'unknown' : OUTCOMES[responseCode],
      processorId: transId(tr.transId),
      authCode: text(tr.authCode),
      avs: text(tr.avsResultCode),
      cvv: text(tr.cvvResultCode),
      reasonCode: r.code ?? t.code,
      message: r.message ?? t.text,
    };
  }
  if (t.resultCode === 'Error' && t.code && !TRANSIENT_CODES.has(t.code) && !NEEDS_TRANSACTION_RESPONSE.has(t.code)) {
    // Refused before any transaction: authentication (E00007), a malformed or over-long element
    // (E00003), an inactive account (E00008), a permission missing (E00011)...: nothing happened.
    return { outcome: 'invalid', processorId: null, authCode: null, avs: null, cvv: null, reasonCode: t.code, message: t.text };
  }
  const why = t.code
    ? `Authorize.Net answered ${t.code}${t.text ? ` (${t.text})` : ''} without a transaction result`
    : 'Authorize.Net answered without a transaction result';
  return { ...unknownResult(why), reasonCode: t.code };
}

/** A refusal of ours, before any I/O: nothing was sent. */
export const refused = (message: string): ProcessorResult => ({
  outcome: 'invalid', processorId: null, authCode: null, avs: null, cvv: null, reasonCode: null, message,
});
