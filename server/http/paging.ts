import type { OpenPage } from '../lib/validate.js';

/** The list envelope every list answers with (design §Wire). An open page's limit is the rows answered. */
export function listEnvelope<T>(list: T[], page: OpenPage, total: number) {
  return { list, meta: { limit: page.limit ?? list.length, offset: page.offset, total_results: total } };
}
