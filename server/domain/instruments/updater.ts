import { expired } from '../../../src/checks.js';
import { Queryable } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { emitEvent } from '../events/events.js';
import { Scope, newId } from '../merchant/keys.js';
import { clip } from '../../lib/validate.js';
import { ECHO_MAX, ENTRY_COLUMNS, UPDATE_COLUMNS, presentSummary } from '../../schemas/updater.js';
import type { BatchEntry, EntryError, SentEntry, UpdateRow, Submitted } from '../../schemas/updater.js';
import type { MethodView } from '../../schemas/methods.js';
export type { BatchEntry, EntryError, EntryRow, UpdateRow, Submitted } from '../../schemas/updater.js';
export { MAX_BATCH } from '../../schemas/updater.js';

// Account updater (spec 2.9, 4.7; docs/decisions/account-updater.md). POST /tokens/update checks every
// entry, keeps the batch, and answers at once; the review runs later (REVIEW_DELAY_MS on the
// merchant's clock) and writes the accepted expiry dates to the stored cards. The work is
// set-based so a batch of 10,000 answers quickly: one query loads every named method, one
// statement inserts every entry, one statement applies the review.

/** How long after submission the review completes, on the merchant's clock (test clock in test mode). */
export const REVIEW_DELAY_MS = 60_000;
/** Request bodies of this route may be larger than the gateway's default (10,000 form-encoded entries ≈ 2 MB). */
export const BATCH_BODY_LIMIT = 4 * 1024 * 1024;

/** A whole batch row and a whole entry row, as the statements reading or returning one name them. */
const UPDATE_SELECT = UPDATE_COLUMNS.join(', ');
const ENTRY_SELECT = ENTRY_COLUMNS.join(', ');

const METHOD_ID = /^[0-9a-f]{32}$/;
const TOKEN_ID = /^[0-9a-f]{10}$/;

/**
 * Batches join up to 10,000 ids against payment_methods. PGlite never gathers statistics, so the
 * planner believes a merchant has one method and may pick a nested loop that compares every
 * entry with every method (10,000² steps). A hash join is linear whatever the estimates say;
 * its price is one pass over the merchant's methods per batch, which a batch of one pays too.
 */
async function hashJoinsOnly(q: Queryable): Promise<void> {
  await q.query('SET LOCAL enable_nestloop = off');
}

/**
 * Month 1–12, year of four digits, and not in the past, judged exactly as the tokenizer judges a card.
 */
function expiryError(month: number | string | null, year: number | string | null, now: Date): EntryError | null {
  if (typeof month !== 'number' || month < 1 || month > 12) return { code: '122002', message: 'card_exp_month must be 1 to 12' };
  if (typeof year !== 'number' || year < 1000 || year > 9999) return { code: '122002', message: 'card_exp_year must be a four-digit year' };
  if (expired(month, year, now)) return { code: E.UPDATE_EXPIRY_INVALID, message: 'the expiry date is in the past' };
  return null;
}

interface Checked extends Omit<BatchEntry, 'errors'> {
  errors: EntryError[];
  /** The method id to look up, when payment_id is well formed. */
  lookup: string | null;
}

/** The checks that need no database: the shape of payment_id (122001) and the dates (122002). */
function checkEntry({ idx, fields: e }: SentEntry, now: Date): Checked {
  const sent = e?.payment_id ?? null;
  const row: Checked = {
    idx,
    // Echoed as sent, cut by code point and made storable: an entry's value can never fail the batch's insert.
    payment_id: sent === null ? null : clip(sent, ECHO_MAX),
    card_exp_month: e?.card_exp_month ?? null,
    card_exp_year: e?.card_exp_year ?? null,
    accepted: false, errors: [], token_id: null, lookup: null,
  };
  if (!e) {
    row.errors.push({ code: E.UPDATE_PAYMENT_ID_INVALID, message: 'each entry must be an object with payment_id, card_exp_month and card_exp_year' });
    return row;
  }
  const id = sent?.toLowerCase() ?? null;
  if (id === null) row.errors.push({ code: E.UPDATE_PAYMENT_ID_INVALID, message: 'payment_id required' });
  else if (TOKEN_ID.test(id)) row.errors.push({ code: E.UPDATE_PAYMENT_ID_INVALID, message: 'payment_id must be a payment method id (32 hex characters); a token id cannot be updated' });
  else if (!METHOD_ID.test(id)) row.errors.push({ code: E.UPDATE_PAYMENT_ID_INVALID, message: 'payment_id must be a payment method id (32 hex characters)' });
  else row.lookup = id;
  const expiry = expiryError(row.card_exp_month, row.card_exp_year, now);
  if (expiry) row.errors.push(expiry);
  return row;
}

type MethodInfo = Pick<MethodView, 'id' | 'method_type' | 'has_details' | 'token_id'>;

/** Every entry checked: format first, then one query for every named method (122003, 122005). */
async function checkBatch(q: Queryable, scope: Scope, batch: SentEntry[], now: Date): Promise<BatchEntry[]> {
  const rows = batch.map((e) => checkEntry(e, now));
  const ids = [...new Set(rows.map((r) => r.lookup).filter((id): id is string => id !== null))];
  const found = new Map<string, MethodInfo>();
  if (ids.length) {
    await hashJoinsOnly(q);
    const methods = await q.query<MethodInfo>(
      `SELECT id, method_type, secret_enc IS NOT NULL AS has_details, token_id FROM payment_methods
        WHERE merchant_id = $1 AND env = $2 AND deleted_at IS NULL
          AND id IN (SELECT jsonb_array_elements_text($3::jsonb))`,
      [scope.merchantId, scope.env, ids],
    );
    for (const m of methods) found.set(m.id, m);
  }
  const firstEntry = new Map<string, number>();
  return rows.map(({ lookup, ...row }): BatchEntry => {
    const { errors } = row;
    if (lookup !== null) {
      const m = found.get(lookup);
      const earlier = firstEntry.get(lookup);
      if (!m) {
        errors.unshift({ code: E.UPDATE_METHOD_NOT_FOUND, message: 'no payment method with this id in this environment' });
      } else if (m.method_type !== 'credit_card') {
        errors.unshift({ code: E.UPDATE_METHOD_NOT_UPDATABLE, message: 'a bank account has no expiry date; only stored credit cards can be updated' });
      } else if (!m.has_details) {
        errors.unshift({ code: E.UPDATE_METHOD_NOT_UPDATABLE, message: 'this payment method holds no card (a placeholder); only stored credit cards can be updated' });
      } else if (earlier !== undefined) {
        errors.unshift({ code: E.UPDATE_METHOD_NOT_UPDATABLE, message: `this payment method is in entry "${earlier}" of this batch already` });
      } else if (errors.length === 0) {
        firstEntry.set(lookup, row.idx); // only an accepted entry holds the method: a rejected one may be corrected later in the batch
        row.token_id = m.token_id;
      }
    }
    const accepted = errors.length === 0;
    return { ...row, payment_id: accepted ? lookup : row.payment_id, accepted, errors: accepted ? null : errors };
  });
}

// --- submitting ------------------------------------------------------------------------------

/**
 * POST /tokens/update, with the batch its table read from the body before the transaction
 * (UpdateFields: 122004/UPD01 refuse the whole batch before any work); entry-level problems are
 * answered in the entry. The batch and its entries are kept in the caller's transaction, with the
 * `accountupdater.received` event.
 */
export async function submitUpdate(q: Queryable, scope: Scope, batch: SentEntry[], now: Date): Promise<Submitted> {
  const entries = await checkBatch(q, scope, batch, now);
  const accepted = entries.filter((e) => e.accepted).length;
  const head: UpdateRow = {
    merchant_id: scope.merchantId, env: scope.env, id: newId(8), status: 'received', accepted_count: accepted,
    rejected_count: entries.length - accepted, applied_count: null, unapplied: null, created_at: now,
    review_at: new Date(now.getTime() + REVIEW_DELAY_MS), completed_at: null,
  };
  await q.query(
    `INSERT INTO account_updates (${UPDATE_SELECT}) VALUES (${UPDATE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
    UPDATE_COLUMNS.map((c) => head[c]),
  );
  await q.query(
    `INSERT INTO account_update_entries
            (merchant_id, env, update_id, idx, payment_id, card_exp_month, card_exp_year, accepted, errors, token_id)
     SELECT $1, $2, $3, e.idx, e.payment_id, e.card_exp_month, e.card_exp_year, e.accepted, e.errors, e.token_id
       FROM jsonb_to_recordset($4::jsonb) AS e(idx integer, payment_id text, card_exp_month jsonb, card_exp_year jsonb,
                                               accepted boolean, errors jsonb, token_id text)`,
    [scope.merchantId, scope.env, head.id, entries],
  );
  await emitEvent(q, scope, 'accountupdater.received', presentSummary(head), now);
  return { head, entries };
}

// --- the review ------------------------------------------------------------------------------

/**
 * Completes one due review inside `q`: writes the accepted dates to methods that still hold the
 * card they held when the entry was accepted (not deleted, not replaced by a new token since),
 * records which accepted entries it could not write, and emits `accountupdater.completed`. Returns false
 * when the batch is not due, completed already, or being completed by another process.
 */
export async function completeReview(q: Queryable, scope: Scope, id: string, now: Date): Promise<boolean> {
  const [head] = await q.query<UpdateRow>(
    `SELECT ${UPDATE_SELECT} FROM account_updates WHERE merchant_id = $1 AND env = $2 AND id = $3 AND status = 'received' AND review_at <= $4
       FOR UPDATE SKIP LOCKED`,
    [scope.merchantId, scope.env, id, now],
  );
  if (!head) return false;
  await hashJoinsOnly(q);
  const accepted = await q.query<{ idx: number; id: string; m: number; y: number; t: string | null }>(
    `SELECT idx, payment_id AS id, (card_exp_month #>> '{}')::integer AS m, (card_exp_year #>> '{}')::integer AS y, token_id AS t
       FROM account_update_entries WHERE merchant_id = $1 AND env = $2 AND update_id = $3 AND accepted`,
    [scope.merchantId, scope.env, id],
  );
  const written = await q.query<{ id: string }>(
    `UPDATE payment_methods pm SET card_exp_month = e.m, card_exp_year = e.y, updated_at = $4
       FROM jsonb_to_recordset($3::jsonb) AS e(id text, m integer, y integer, t text)
      WHERE pm.merchant_id = $1 AND pm.env = $2 AND pm.id = e.id AND pm.deleted_at IS NULL
        AND pm.method_type = 'credit_card' AND pm.secret_enc IS NOT NULL AND pm.token_id IS NOT DISTINCT FROM e.t
     RETURNING pm.id`,
    [scope.merchantId, scope.env, accepted, now],
  );
  const done = new Set(written.map((w) => w.id));
  const [completed] = await q.query<UpdateRow>(
    `UPDATE account_updates SET status = 'completed', completed_at = $4, applied_count = $5, unapplied = $6
      WHERE merchant_id = $1 AND env = $2 AND id = $3 RETURNING ${UPDATE_SELECT}`,
    [scope.merchantId, scope.env, id, now, done.size, accepted.filter((e) => !done.has(e.id)).map((e) => e.idx)],
  );
  await emitEvent(q, scope, 'accountupdater.completed', presentSummary(completed), now);
  return true;
}

/**
 * For the background loop (jobs/sweeps.ts): the reviews that are due, across merchants, each on
 * its merchant's clock (real time plus the test-clock offset in test mode), with that clock's now.
 */
export async function listDueReviews(q: Queryable, realNow: Date, limit = 100): Promise<{ scope: Scope; id: string; now: Date }[]> {
  const due = await q.query<{ merchant_id: string; env: 'test' | 'live'; id: string; offset_ms: number }>(
    `SELECT u.merchant_id, u.env, u.id, COALESCE(c.offset_ms, 0) AS offset_ms
       FROM account_updates u
       LEFT JOIN test_clocks c ON c.merchant_id = u.merchant_id AND u.env = 'test'
      WHERE u.status = 'received' AND u.review_at <= $1::timestamptz + COALESCE(c.offset_ms, 0)::float8 * interval '1 millisecond'
      ORDER BY u.review_at LIMIT $2`,
    [realNow, limit],
  );
  return due.map((d) => ({ scope: { merchantId: d.merchant_id, env: d.env }, id: d.id, now: new Date(realNow.getTime() + Number(d.offset_ms)) }));
}

// --- reading ---------------------------------------------------------------------------------

/**
 * GET /tokens/update/:id (UPD02 when unknown). A review that is due is completed first, so the
 * answer never shows a batch as received after its review time, with or without the loop: the
 * caller's transaction is the review's.
 */
export async function getUpdate(q: Queryable, scope: Scope, id: string, now: Date): Promise<Submitted> {
  const read = () => q.query<UpdateRow>(`SELECT ${UPDATE_SELECT} FROM account_updates WHERE merchant_id = $1 AND env = $2 AND id = $3`,
    [scope.merchantId, scope.env, id]);
  let [head] = await read();
  if (!head) throw new GatewayError(E.UPDATE_RECORD_NOT_FOUND);
  if (head.status === 'received' && new Date(head.review_at) <= now) {
    await completeReview(q, scope, id, now);
    [head] = await read();
  }
  const entries = await q.query<BatchEntry>(
    `SELECT ${ENTRY_SELECT} FROM account_update_entries
      WHERE merchant_id = $1 AND env = $2 AND update_id = $3 ORDER BY idx`,
    [scope.merchantId, scope.env, id],
  );
  return { head, entries };
}

