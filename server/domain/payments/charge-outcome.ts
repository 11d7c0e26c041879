import { E } from '../../errors.js';
import {
  CallContext, Instrument, PROCESSOR_DEADLINE_MS, ProcessorResult, SaleRequest, unknownResult,
} from '../../processor/processor.js';

// What a processor's answer makes of a charge row, and how the gateway asks a processor. Pure:
// no database (the charge path records what these return, charge-finish.ts and charges.ts).

/** Statuses of a charge: the first three are the spec's; the others are a live processor's. */
export type ChargeStatus = 'SETTLED' | 'DECLINED' | 'RETURNED' | 'FAILED' | 'HELD' | 'PENDING';

/**
 * What the reconciler records for an operation its processor has no record of, long after it was
 * sent: it never happened (nothing was charged or refunded).
 */
export const NO_RECORD: ProcessorResult = {
  outcome: 'invalid', processorId: null, authCode: null, avs: null, cvv: null, reasonCode: 'tessera:no_record',
  message: 'the processor has no record of this operation: nothing was charged',
};

/** The row's outcome columns for a processor's answer on a sale of `amount` cents. */
export function outcomeColumns(r: ProcessorResult, amount: number, bank: boolean) {
  const none = { authorized: false, settled: false, successful: false, amount_authorized: 0, amount_settled: 0, amount_failed: 0, error_code: null as string | null, error_message: null as string | null };
  switch (r.outcome) {
    case 'approved':
      return { ...none, status: 'SETTLED' as ChargeStatus, authorized: true, settled: true, successful: true, amount_authorized: amount, amount_settled: amount };
    case 'declined':
      // A bank's return carries its NACHA return code (R01…): authorized, then returned.
      if (bank && /^R\d\d$/.test(r.reasonCode ?? '')) {
        return { ...none, status: 'RETURNED' as ChargeStatus, authorized: true, amount_authorized: amount, amount_failed: amount, error_message: r.message };
      }
      return { ...none, status: 'DECLINED' as ChargeStatus, amount_failed: amount, error_code: E.CARD_DECLINED as string, error_message: r.message ?? 'declined by the processor' };
    case 'invalid':
      if (r.reasonCode === NO_RECORD.reasonCode) {
        return { ...none, status: 'FAILED' as ChargeStatus, amount_failed: amount, error_code: E.PROCESSOR_NO_RECORD as string, error_message: r.message };
      }
      return { ...none, status: 'FAILED' as ChargeStatus, amount_failed: amount, error_code: E.PROCESSOR_REFUSED as string, error_message: r.message ?? 'refused by the processor' };
    case 'held':
      return { ...none, status: 'HELD' as ChargeStatus, authorized: true, amount_authorized: amount, error_message: r.message };
    case 'unknown':
      return { ...none, status: 'PENDING' as ChargeStatus };
  }
}

/**
 * What is kept of a processor's answer on a charge's or refund's row (merged into its `processor`,
 * shown to the merchant): never card data.
 */
export function answerRecord(r: ProcessorResult) {
  return { id: r.processorId, auth_code: r.authCode, avs: r.avs, cvv: r.cvv, reason_code: r.reasonCode, message: r.message };
}

/** The card networks' CVV2 result (M match, N no match; the rest say it was not checked). */
export function cscCheck(r: ProcessorResult, given: boolean): string {
  if (r.cvv === 'M') return 'pass';
  if (r.cvv === 'N') return 'fail';
  return given ? 'unchecked' : 'not_provided';
}

/** The card networks' AVS result as far as the zip goes (Y, X, Z, W: it matched; A, N: it did not). */
export function avsCheck(r: ProcessorResult): string | null {
  if (r.avs === null) return null;
  if ('YXZW'.includes(r.avs)) return 'pass';
  if ('AN'.includes(r.avs)) return 'fail';
  return null;
}

/** A sale request from what the charge knows (the instrument decrypted for this call only). */
export function saleRequest(reference: string, amount: number, instrument: Instrument, extra: Partial<SaleRequest> = {}): SaleRequest {
  return {
    reference, amount, currency: 'USD', instrument, payerIp: null, description: null,
    customer: { id: null, email: null, firstName: null, lastName: null, company: null }, ...extra,
  };
}

/**
 * Asks a processor, with a deadline: past it, or for anything the connector throws, the answer is
 * `fallback(err)` (an unknown outcome). The connector is told to stop through ctx.signal; the
 * gateway stops waiting at the deadline whether it does or not.
 */
export async function ask<T>(
  call: (ctx: CallContext) => Promise<T>, fallback: (err: unknown) => T, deadlineMs = PROCESSOR_DEADLINE_MS,
): Promise<T> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`no answer from the processor within ${deadlineMs} ms`);
      ac.abort(err);
      reject(err);
    }, deadlineMs);
  });
  try {
    return await Promise.race([call({ signal: ac.signal }), expired]);
  } catch (err) {
    return fallback(err);
  } finally {
    clearTimeout(timer);
  }
}

export const unknownFrom = (err: unknown): ProcessorResult =>
  unknownResult(`no answer from the processor: ${err instanceof Error ? err.message : String(err)}`);
