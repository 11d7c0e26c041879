import type { LookupRequest, LookupResult, Outcome, Settlement } from '../../connector.js';
import { isObj, list, text, top, type Obj } from './answers.js';
import { post, type Endpoint } from './http.js';
import { invoiceNumberOf } from './requests.js';

/**
 * Finding an operation after the fact, with the Transaction Reporting API (the "Transaction Details
 * API", off by default: the merchant turns it on in the Merchant Interface, Account > Settings >
 * Security Settings > Transaction Details API; until then every call here is refused with E00011,
 * and the lookup throws saying so).
 *
 * - With the processor's id: getTransactionDetailsRequest.
 * - With our reference alone (an unknown outcome: no id): the operation whose invoiceNumber is the
 *   reference, searched in the unsettled transactions (getUnsettledTransactionListRequest, status
 *   "any", newest first, 1000 a page) and in the batches settled since a day before the operation
 *   was recorded (getSettledBatchListRequest, at most 31 days a call; then getTransactionListRequest
 *   for each batch, 1000 a page); then getTransactionDetailsRequest on the match for its status.
 *
 * Reads may be retried (they change nothing): each call up to READ_ATTEMPTS times while the
 * deadline allows. A lookup that cannot ask throws; `{ found: false }` only when every list was read
 * and none holds the reference (or the id is unknown to the processor, E00040).
 */

const READ_ATTEMPTS = 3;
const PAGE = 1000;
const DAY_MS = 86_400_000;
/** getSettledBatchListRequest refuses a range over 31 days. */
const BATCH_RANGE_MS = 31 * DAY_MS;
/** How far back a lookup searches at most (an unknown outcome is resolved within days, not years). */
const MAX_SEARCH_MS = 400 * DAY_MS;
/** Clock skew allowed past now in the last settled-batch range. */
const SKEW_MS = 3_600_000;
/**
 * How long after it was made a sale is looked for among settled batches: a captured sale settles in
 * the next daily batch, so a few days bound the search (a lookup of an old row stays a few calls,
 * however old it is); a held sale whose review lasts longer is looked up by its id.
 */
const SETTLES_WITHIN_MS = 4 * DAY_MS;

/** "The record cannot be found." (getTransactionDetailsRequest of an id the merchant does not have). */
const NOT_FOUND = 'E00040';
/** "Access denied. You do not have permissions to call the Transaction Details API." */
const NO_REPORTING = 'E00011';

export class LookupError extends Error {}

type Ask = (payload: Obj) => Promise<Obj>;

/** One read, retried on no answer (network, 5xx, a body not JSON, a transient E00001/E00053/E00104). */
export function reader(ep: Endpoint, signal: AbortSignal): Ask {
  return async (payload) => {
    let last = '';
    for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
      if (signal.aborted) break;
      const a = await post(ep, payload, signal);
      if (a.ok) {
        const t = top(a.body);
        if (t.resultCode === 'Ok' || t.code === NOT_FOUND) return a.body;
        if (t.code === NO_REPORTING) {
          throw new LookupError(`Authorize.Net refused the Transaction Details API (${t.code}: ${t.text ?? 'access denied'}); `
            + 'the merchant must enable it in the Merchant Interface (Account > Settings > Security Settings > Transaction Details API)');
        }
        if (!['E00001', 'E00053', 'E00104'].includes(t.code ?? '')) {
          throw new LookupError(`Authorize.Net refused the lookup: ${t.code ?? 'no code'}${t.text ? ` (${t.text})` : ''}`);
        }
        last = `Authorize.Net answered ${t.code}${t.text ? ` (${t.text})` : ''}`;
      } else {
        last = a.reason;
      }
      if (attempt < READ_ATTEMPTS) await pause(250 * attempt, signal);
    }
    throw new LookupError(`could not ask Authorize.Net: ${last || 'the deadline came first'}`);
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** transactionStatus -> our outcome and settlement (docs/decisions/authorizenet.md has the table). */
export const STATUS: Record<string, { outcome: Outcome; settlement: Settlement }> = {
  authorizedPendingCapture: { outcome: 'approved', settlement: 'unsettled' },
  capturedPendingSettlement: { outcome: 'approved', settlement: 'unsettled' },
  pendingSettlement: { outcome: 'approved', settlement: 'unsettled' },
  pendingFinalSettlement: { outcome: 'approved', settlement: 'unsettled' },
  updatingSettlement: { outcome: 'approved', settlement: 'unsettled' },
  approvedReview: { outcome: 'approved', settlement: 'unsettled' },
  couldNotVoid: { outcome: 'approved', settlement: 'unsettled' },
  refundPendingSettlement: { outcome: 'approved', settlement: 'unsettled' },
  settledSuccessfully: { outcome: 'approved', settlement: 'settled' },
  refundSettledSuccessfully: { outcome: 'approved', settlement: 'settled' },
  chargeback: { outcome: 'approved', settlement: 'settled' },
  chargebackReversal: { outcome: 'approved', settlement: 'settled' },
  voided: { outcome: 'approved', settlement: 'voided' },
  settlementError: { outcome: 'approved', settlement: 'failed' },
  returnedItem: { outcome: 'approved', settlement: 'failed' },
  FDSPendingReview: { outcome: 'held', settlement: 'held' },
  FDSAuthorizedPendingReview: { outcome: 'held', settlement: 'held' },
  underReview: { outcome: 'held', settlement: 'held' },
  authorizedPendingRelease: { outcome: 'held', settlement: 'held' },
  declined: { outcome: 'declined', settlement: 'declined' },
  failedReview: { outcome: 'declined', settlement: 'declined' },
  expired: { outcome: 'declined', settlement: 'failed' },
  generalError: { outcome: 'invalid', settlement: 'failed' },
  communicationError: { outcome: 'invalid', settlement: 'failed' },
};

/** Which of several operations with one reference tells the truth about the money: one that moved it. */
const RANK: Record<Outcome, number> = { approved: 0, held: 1, declined: 2, invalid: 3, unknown: 4 };

/** A getTransactionDetailsResponse's transaction as a lookup result. */
function found(tx: Obj): LookupResult {
  const status = text(tx.transactionStatus) ?? '';
  const m = STATUS[status];
  if (!m) throw new LookupError(`Authorize.Net reports transaction ${text(tx.transId)} in a status this connector does not know: "${status}"`);
  const reasonText = text(tx.responseReasonDescription);
  return {
    found: true,
    settlement: m.settlement,
    result: {
      outcome: m.outcome,
      processorId: text(tx.transId),
      authCode: text(tx.authCode),
      avs: text(tx.AVSResponse),
      cvv: text(tx.cardCodeResponse),
      reasonCode: text(tx.responseReasonCode),
      message: [reasonText, `(transactionStatus ${status})`].filter(Boolean).join(' '),
    },
  };
}

const base = (ep: Endpoint) => ({ merchantAuthentication: { name: ep.loginId, transactionKey: ep.transactionKey } });

async function details(ask: Ask, ep: Endpoint, transId: string): Promise<Obj | null> {
  const body = await ask({ getTransactionDetailsRequest: { ...base(ep), transId } });
  if (top(body).code === NOT_FOUND) return null;
  if (!isObj(body.transaction)) throw new LookupError('Authorize.Net answered getTransactionDetails without the transaction');
  return body.transaction;
}

/** Reads every page of a transaction list request; `keepGoing` may stop early (sorted newest first). */
async function pages(ask: Ask, name: string, fields: Obj, keepGoing: (page: Obj[]) => boolean): Promise<Obj[]> {
  const all: Obj[] = [];
  for (let offset = 1; offset <= 100_000; offset++) {
    const body = await ask({
      [name]: { ...fields, sorting: { orderBy: 'submitTimeUTC', orderDescending: true }, paging: { limit: PAGE, offset } },
    });
    const page = list(body.transactions, 'transaction');
    all.push(...page);
    if (page.length < PAGE || !keepGoing(page)) break;
  }
  return all;
}

const utc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The summaries of every operation whose invoiceNumber is the reference. */
async function search(ask: Ask, ep: Endpoint, req: LookupRequest): Promise<Obj[]> {
  const now = Date.now();
  const since = Math.max(req.createdAt.getTime() - DAY_MS, now - MAX_SEARCH_MS);
  const wanted = invoiceNumberOf(req.reference);
  const matches = (t: Obj) => text(t.invoiceNumber) === wanted;
  const olderThanSince = (t: Obj) => {
    const at = Date.parse(text(t.submitTimeUTC) ?? '');
    return Number.isFinite(at) && at < since;
  };
  const unsettled = await pages(ask, 'getUnsettledTransactionListRequest', { ...base(ep), status: 'any' },
    (page) => !olderThanSince(page[page.length - 1]));
  const hits = unsettled.filter(matches);
  const until = Math.min(now, req.createdAt.getTime() + SETTLES_WITHIN_MS);
  for (let from = since; from < until; from += BATCH_RANGE_MS) {
    // A little past now: a batch settled a moment ago (after the unsettled list was read) is included.
    const to = Math.min(from + BATCH_RANGE_MS - 1000, until + SKEW_MS);
    const body = await ask({
      getSettledBatchListRequest: {
        ...base(ep), includeStatistics: false, firstSettlementDate: utc(new Date(from)), lastSettlementDate: utc(new Date(to)),
      },
    });
    for (const batch of list(body.batchList, 'batch')) {
      const batchId = text(batch.batchId);
      if (!batchId) continue;
      const txs = await pages(ask, 'getTransactionListRequest', { ...base(ep), batchId }, () => true);
      hits.push(...txs.filter(matches));
    }
  }
  return hits;
}

/**
 * probe(): one page of one unsettled transaction, which needs the credentials and the Transaction
 * Details API that lookup() needs. A refusal is what the operator must fix.
 */
export async function probe(ep: Endpoint, signal: AbortSignal): Promise<string[]> {
  try {
    await reader(ep, signal)({
      getUnsettledTransactionListRequest: {
        ...base(ep), status: 'any', sorting: { orderBy: 'submitTimeUTC', orderDescending: true }, paging: { limit: 1, offset: 1 },
      },
    });
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}

/** lookup(): by the processor's id when the gateway has it, else by our reference. */
export async function lookup(ep: Endpoint, req: LookupRequest, signal: AbortSignal): Promise<LookupResult> {
  const ask = reader(ep, signal);
  if (req.processorId) {
    if (!/^\d+$/.test(req.processorId)) return { found: false };
    const tx = await details(ask, ep, req.processorId);
    return tx ? found(tx) : { found: false };
  }
  const hits = await search(ask, ep, req);
  if (hits.length === 0) return { found: false };
  const ids = [...new Set(hits.map((h) => text(h.transId)).filter((id): id is string => !!id))];
  const results: LookupResult[] = [];
  for (const id of ids) {
    const tx = await details(ask, ep, id);
    if (tx) results.push(found(tx));
  }
  const best = results
    .filter((r): r is Extract<LookupResult, { found: true }> => r.found)
    .sort((a, b) => RANK[a.result.outcome] - RANK[b.result.outcome])[0];
  if (!best) throw new LookupError(`Authorize.Net lists the reference ${req.reference} but has no details for it`);
  return best;
}
