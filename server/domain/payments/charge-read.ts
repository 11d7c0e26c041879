import { Queryable } from '../../db/index.js';
import type { Scope } from '../merchant/keys.js';
import { CHARGE_COLUMNS, CUSTOMER_MATCH, ChargeableRow, METHODS_JOIN } from '../instruments/customers.js';
import { MerchantSettings, SETTINGS_JOINED, joinedSettings } from '../merchant/settings.js';
import { TOKEN_COLUMNS, TokenRow, usableToken } from '../instruments/tokens.js';
import { listensTo } from '../events/events.js';

/**
 * A charge's first read, with the merchant's settings, as one statement: the usable token the charge
 * names, or the customer it names and that customer's methods. A test-mode charge without an
 * Idempotency-Key is then two statements (this read, then the one that records it) instead of three;
 * each statement is a round trip and, on PostgreSQL, a socket write on each side (docs/decisions/charges-and-refunds.md,
 * "How a charge is written"). The body is not checked here: the ids are taken as the body gives them, and the
 * charge uses what was read only when the checked input names the same id (charges.ts).
 */
export interface FirstRead {
  settings: MerchantSettings;
  /**
   * Whether a webhook rule of the merchant environment listens to transaction events. Without one
   * the charge's event is written alone, no deliveries to queue (the charge stays two statements:
   * this read and its write); with one, the route reads the rules' targets and the charge's one
   * writing statement queues its deliveries. A rule made after this read is later than the charge.
   */
  heard: boolean;
  /** The token's row when it exists for this merchant and environment, unused and unexpired. */
  token?: { id: string; row: TokenRow | null };
  /** Rows of CHARGE_COLUMNS: one per method with details, a customer id of null for no such customer. */
  customer?: { id: string; rows: ChargeableRow[] };
}

/** The merchant's settings and whether a rule listens (`heard`), their merchant and env at $m and $m+1. */
const fromSettings = (m: number) =>
  `, ${listensTo(`$${m}`, `$${m + 1}`, "'transaction'")} AS heard FROM (SELECT 1) one LEFT JOIN merchant_settings s ON s.merchant_id = $${m} AND s.env = $${m + 1}`;
const TOKEN_JOINED = TOKEN_COLUMNS.map((c) => `t.${c}`).join(', ');

/** The charge's first read: its settings, whether a rule listens, and the token or customer the body names. */
export async function readForCharge(q: Queryable, scope: Scope, f: { customer_id?: string | null; token: string | null }, now: Date): Promise<FirstRead> {
  const customerId = f.customer_id ?? '';
  if (customerId !== '') {
    const rows = await q.query<ChargeableRow & { heard: boolean }>(
      `SELECT ${SETTINGS_JOINED}, ${CHARGE_COLUMNS} ${fromSettings(1)}
         LEFT JOIN customers c ON ${CUSTOMER_MATCH} ${METHODS_JOIN} ORDER BY m.seq`,
      [scope.merchantId, scope.env, customerId],
    );
    return { settings: joinedSettings(rows[0]), heard: rows[0].heard, customer: { id: customerId, rows } };
  }
  const token = f.token ?? '';
  if (token !== '') {
    const [row] = await q.query<TokenRow & { heard: boolean }>(
      `SELECT ${SETTINGS_JOINED}, ${TOKEN_JOINED} ${fromSettings(2)} LEFT JOIN tokens t ON ${usableToken(1, 't.')}`,
      [token, scope.merchantId, scope.env, now],
    );
    return { settings: joinedSettings(row), heard: row.heard, token: { id: token, row: row.id === null ? null : row } };
  }
  const [row] = await q.query<{ heard: boolean }>(`SELECT ${SETTINGS_JOINED} ${fromSettings(1)}`, [scope.merchantId, scope.env]);
  return { settings: joinedSettings(row), heard: row.heard };
}
