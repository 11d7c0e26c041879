import { E, GatewayError } from '../errors.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../lib/paging.js';

/** limit 1..100 (default 10), offset ≥ 0 (default 0); anything else is PAGE01, never a silent clamp. */
export function parsePage(query: unknown): { limit: number; offset: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  const read = (v: unknown, dflt: number) => {
    if (v === undefined || v === '') return dflt;
    const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
    return /^\d+$/.test(s) ? Number(s) : NaN;
  };
  const limit = read(q.limit, DEFAULT_LIMIT);
  const offset = read(q.offset, 0);
  if (!(limit >= 1 && limit <= MAX_LIMIT) || !(offset >= 0 && Number.isSafeInteger(offset))) {
    throw new GatewayError(E.PAGE_INVALID);
  }
  return { limit, offset };
}

/** A page whose `limit` is null: every row from `offset` on (SQL `LIMIT NULL` is no limit). */
export interface OpenPage {
  limit: number | null;
  offset: number;
}

/**
 * For the lists the spec calls "all" (GET /plans, /subscriptions…): without `limit` every row,
 * since the clients of this API family read them in one call; a `limit` or `offset` sent is read
 * as by parsePage.
 */
export function parsePageOrAll(query: unknown): OpenPage {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = parsePage(q);
  return q.limit === undefined || q.limit === '' ? { limit: null, offset: page.offset } : page;
}

/** The list envelope every list answers with (design §Wire). An open page's limit is the rows answered. */
export function listEnvelope<T>(list: T[], page: OpenPage, total: number) {
  return { list, meta: { limit: page.limit ?? list.length, offset: page.offset, total_results: total } };
}

export function listSchema(item: object) {
  return {
    type: 'object',
    properties: {
      list: { type: 'array', items: item },
      meta: {
        type: 'object',
        properties: { limit: { type: 'integer' }, offset: { type: 'integer' }, total_results: { type: 'integer' } },
      },
    },
  };
}
