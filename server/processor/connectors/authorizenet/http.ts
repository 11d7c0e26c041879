/**
 * One POST to Authorize.Net's JSON API, bounded by the caller's deadline (ctx.signal) and by a cap
 * of its own. It never retries: a createTransactionRequest sent twice may charge twice, so the
 * retry of a read (reporting) is the caller's decision (reporting.ts), never this file's.
 *
 * What comes back is either the parsed answer (a JSON object: the API writes a UTF-8 byte-order
 * mark before it, stripped here) or the reason no answer could be read: HTTP status not 2xx, a
 * network error, an abort, a body that is not a JSON object. The caller reads "no answer" as
 * `unknown` for a money-moving call: the processor may or may not have acted.
 */

/** Production and sandbox endpoints (docs: "API endpoints"). */
export const PRODUCTION_URL = 'https://api.authorize.net/xml/v1/request.api';
export const SANDBOX_URL = 'https://apitest.authorize.net/xml/v1/request.api';

/**
 * Our own cap on one call, inside the caller's deadline (PROCESSOR_DEADLINE_MS is 25 s): a call
 * that neither answers nor fails is given up a little before the gateway gives up on the whole
 * operation, so the connector, not the deadline, says why.
 */
export const CALL_CAP_MS = 24_000;

/** The largest answer read (a reporting page of 1000 transactions is a few hundred KB). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface Endpoint {
  url: string;
  fetch: typeof fetch;
  loginId: string;
  transactionKey: string;
}

export type Answer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; reason: string };

/** Both signals, aborted by whichever comes first (AbortSignal.any needs Node 20.3). */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  return AbortSignal.any([a, b]);
}

/** Reads the body as text, stopping at the signal or at MAX_BODY_BYTES. */
async function readBody(res: Response, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let fail = () => {};
  const aborted = new Promise<never>((_, reject) => {
    fail = () => reject(new Error('aborted while reading the answer'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) throw new Error(`answer larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', fail);
    reader.cancel().catch(() => {});
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/** Strips the UTF-8 byte-order mark the API puts before its JSON (and any whitespace). */
export function parseAnswer(text: string): Record<string, unknown> | null {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(trimmed);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The error in words, without anything of the request (the key is in the body, never in an error). */
function describe(err: unknown, signal: AbortSignal, cap: AbortSignal): string {
  if (signal.aborted) return 'the call reached its deadline before Authorize.Net answered';
  if (cap.aborted) return `Authorize.Net did not answer within ${CALL_CAP_MS / 1000} s`;
  const e = err as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  return `could not reach Authorize.Net: ${msg}${cause ? ` (${String(cause)})` : ''}`;
}

/** POSTs `payload` (one API request object, its elements already in schema order) and reads the answer. */
export async function post(ep: Endpoint, payload: unknown, signal: AbortSignal, capMs = CALL_CAP_MS): Promise<Answer> {
  if (signal.aborted) return { ok: false, reason: 'the call reached its deadline before it was sent' };
  const cap = AbortSignal.timeout(capMs);
  const both = either(signal, cap);
  let res: Response;
  try {
    res = await ep.fetch(ep.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      signal: both,
      redirect: 'error',
    });
  } catch (err) {
    return { ok: false, reason: describe(err, signal, cap) };
  }
  let text: string;
  try {
    text = await readBody(res, both);
  } catch (err) {
    return { ok: false, reason: describe(err, signal, cap) };
  }
  if (res.status < 200 || res.status > 299) {
    return { ok: false, reason: `Authorize.Net answered HTTP ${res.status}` };
  }
  const body = parseAnswer(text);
  if (!body) return { ok: false, reason: 'Authorize.Net answered with a body that is not the expected JSON' };
  return { ok: true, body };
}
