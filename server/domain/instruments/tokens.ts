import { detectBrand, fullYear, securityCode, validatePaymentData } from '../../../src/checks.js';
import { Queryable } from '../../db/index.js';
import { E, GatewayError, invalid, isErrorCode, MUST, tooLong } from '../../errors.js';
import { TEST_BANK, findTestCard } from '../../processor/test-cards.js';
import { Vault } from '../../vault.js';
import { tokenHome } from '../../vault-homes.js';
import { Scope, newId } from '../merchant/keys.js';
import { MAX_TEXT, type PaymentData, TOKEN_COLUMNS, type TokenRow } from '../../schemas/tokens.js';

export const TOKEN_TTL_MS = 15 * 60 * 1000;

const TEXT_FIELDS = ['card_owner_name', 'bank_account_holder_first_name', 'bank_account_holder_last_name',
  'address_1', 'address_2', 'city', 'state', 'zip'] as const;

export type { TokenRow } from '../../schemas/tokens.js';
export { TOKEN_COLUMNS };

const SELECT_TOKEN = `SELECT ${TOKEN_COLUMNS.join(', ')} FROM tokens WHERE id = $1 AND merchant_id = $2 AND env = $3`;

/**
 * A token that can still be charged: this id in this merchant environment, unused and unexpired.
 * The id, merchant, env and now are parameters $n..$n+3; `alias` prefixes the columns (`t.`).
 * Every statement that reads or consumes a token to charge it uses this one condition.
 */
export const usableToken = (n: number, alias = '') => `${alias}id = $${n} AND ${alias}merchant_id = $${n + 1} AND ${alias}env = $${n + 2}
  AND ${alias}used_at IS NULL AND ${alias}expires_at > $${n + 3}`;

/** peekToken's statement: the token's row while it can still be charged. */
const PEEK_TOKEN = `SELECT ${TOKEN_COLUMNS.join(', ')} FROM tokens WHERE ${usableToken(1)}`;

/** consumeToken's statement: the row as it was for the caller, card data wiped in the row. */
const CONSUME_TOKEN = `WITH target AS (
    SELECT id, secret_enc, csc_enc FROM tokens WHERE ${usableToken(1)} FOR UPDATE)
  UPDATE tokens t SET used_at = $4, secret_enc = '', csc_enc = NULL
    FROM target WHERE t.id = target.id AND t.used_at IS NULL
  RETURNING ${TOKEN_COLUMNS.map((c) => (c === 'secret_enc' ? 'target.secret_enc' : `t.${c}`)).join(', ')},
    target.csc_enc AS old_csc`;

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v).trim());

/**
 * Validates payment data exactly as the browser tokenizer does (same module), then what only the
 * server can know: test mode takes test numbers only. Throws GatewayError; returns the columns to
 * store and, apart, the number and CVV in clear (`secret`, `csc`): the caller encrypts them for
 * the row they go to (createToken, or a method stored from card fields), or uses them at once (a
 * charge by card). `ownerOptional`: the card may come without card_owner_name (server paths only).
 */
export function preparePaymentData(scope: Scope, data: PaymentData, now: Date, opts: { ownerOptional?: boolean } = {}) {
  const failed = validatePaymentData(data, now, opts.ownerOptional);
  if (failed) throw new GatewayError(isErrorCode(failed.code) ? failed.code : E.INVALID_REQUEST, failed.message);
  for (const f of TEXT_FIELDS) {
    const v = str(data[f]);
    if (v && v.length > MAX_TEXT) throw tooLong(f, MAX_TEXT);
  }
  const country = (str(data.country) ?? 'USA').toUpperCase();
  if (!/^[A-Z]{3}$/.test(country)) throw invalid('country', MUST.COUNTRY);

  const address = {
    address_1: str(data.address_1), address_2: str(data.address_2), city: str(data.city),
    state: str(data.state), zip: str(data.zip), country,
  };
  const csc = str(securityCode(data));

  if ((str(data.token_type) ?? 'credit_card') === 'bank_account') {
    const account = String(data.bank_account_number).replace(/[\s-]/g, '');
    const routing = String(data.bank_routing_number).trim();
    if (scope.env === 'test' && routing !== TEST_BANK.routing_number) {
      throw new GatewayError(E.REAL_CARD_IN_TEST, `test mode takes the sample routing number ${TEST_BANK.routing_number}`);
    }
    const type = String(data.bank_account_type).trim().toLowerCase();
    return {
      token_type: 'bank_account' as const,
      last_4: account.slice(-4),
      bin_brand: 'ACH', bin_type: type.toUpperCase(), bin_level: null,
      bank_routing_number: routing,
      bank_account_holder_first_name: str(data.bank_account_holder_first_name),
      bank_account_holder_last_name: str(data.bank_account_holder_last_name),
      bank_account_type: type,
      ...address,
      secret: account,
      csc: null,
    };
  }

  const number = String(data.card_number).replace(/[\s-]/g, '');
  const brand = detectBrand(number)!; // validatePaymentData refused unknown brands
  const test = findTestCard(number);
  if (scope.env === 'test' && !test) throw new GatewayError(E.REAL_CARD_IN_TEST);
  return {
    token_type: 'credit_card' as const,
    card_type: brand,
    card_owner_name: str(data.card_owner_name),
    last_4: number.slice(-4),
    bin: number.slice(0, 6),
    card_exp_month: Number(data.card_exp_month),
    card_exp_year: fullYear(data.card_exp_year),
    bin_brand: brand.toUpperCase(),
    // Live mode has no BIN database behind it yet: the kind and level are unknown there.
    bin_type: test?.bin_type ?? 'UNKNOWN',
    bin_level: test?.bin_level ?? 'UNKNOWN',
    ...address,
    secret: number,
    csc,
  };
}

/** Columns a card or bank token leaves null (the insert names only the ones it sets). */
const EMPTY_TOKEN = Object.fromEntries(
  ['card_type', 'card_owner_name', 'last_4', 'bin', 'card_exp_month', 'card_exp_year', 'bin_brand', 'bin_type', 'bin_level',
    'bank_routing_number', 'bank_account_holder_first_name', 'bank_account_holder_last_name', 'bank_account_type'].map((c) => [c, null]),
);

export async function createToken(
  q: Queryable,
  vault: Vault,
  scope: Scope,
  data: PaymentData,
  now: Date,
): Promise<TokenRow> {
  const { secret, csc, ...fields } = preparePaymentData(scope, data, now);
  const base: Record<string, unknown> = {
    ...fields,
    merchant_id: scope.merchantId,
    env: scope.env,
    created_at: now,
    expires_at: new Date(now.getTime() + TOKEN_TTL_MS),
  };
  const cols = [...Object.keys(base), 'secret_enc', 'csc_enc'];
  // RETURNING only the id: returning the whole wide row costs more than the insert (measured).
  const sql = `INSERT INTO tokens (id, ${cols.join(', ')})
               VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
               ON CONFLICT (id) DO NOTHING RETURNING id`;
  // 40 random bits: a collision is rare but possible, so draw again. The blobs are sealed to the
  // row's id, so each draw encrypts for its own id.
  for (let i = 0; i < 5; i++) {
    const id = newId(5);
    const home = { id, merchant_id: scope.merchantId, env: scope.env };
    const row = {
      ...base,
      secret_enc: vault.encrypt(secret, tokenHome(home, 'secret_enc')),
      csc_enc: csc ? vault.encrypt(csc, tokenHome(home, 'csc_enc')) : null,
    };
    const [saved] = await q.query(sql, [id, ...Object.values(row)]);
    // Object.assign, not a spread over EMPTY_TOKEN: V8's slow path for that costs ~100 us (charges.ts).
    if (saved) return Object.assign({}, EMPTY_TOKEN, row, { id, used_at: null }) as unknown as TokenRow;
  }
  throw new GatewayError(E.TOKEN_RETRY);
}

export async function getToken(q: Queryable, scope: Scope, id: string): Promise<TokenRow | null> {
  const [row] = await q.query<TokenRow>(SELECT_TOKEN, [
    id,
    scope.merchantId,
    scope.env,
  ]);
  return row ?? null;
}

export interface ConsumedToken extends TokenRow {
  /** The card or account number, decrypted; the stored copy is wiped by the same statement. */
  number: string;
  /** The CVV given at tokenisation, decrypted; the stored copy is wiped by the same statement. */
  csc: string | null;
}

/**
 * Marks the token used and wipes its card data (number and CVV) from the row, at most once: the
 * row lock plus the `used_at IS NULL` re-check make every concurrent caller but one get null. The
 * caller gets the data as it was. Run it inside the transaction of the operation the token pays
 * for, so a failed operation rolls the wipe back and leaves the token usable.
 */
export async function consumeToken(
  q: Queryable,
  vault: Vault,
  scope: Scope,
  id: string,
  now: Date,
): Promise<ConsumedToken | null> {
  const [row] = await q.query<TokenRow & { old_csc: string | null }>(CONSUME_TOKEN, [id, scope.merchantId, scope.env, now]);
  if (!row) return null;
  // A blob that does not decrypt here (VAULT01/VAULT02) throws: the caller's transaction rolls the wipe back.
  const { old_csc, ...token } = row;
  return Object.assign(token, {
    number: vault.decrypt(token.secret_enc, tokenHome(row, 'secret_enc')),
    csc: old_csc ? vault.decrypt(old_csc, tokenHome(row, 'csc_enc')) : null,
  });
}

/**
 * The token as consumeToken would return it, without consuming it: for a charge that consumes it
 * in the statement that records the charge (charges.ts, chargeTokenAtOnce). Null when it is used,
 * expired or unknown. A concurrent caller may consume it after this read: the recording statement
 * re-checks `used_at IS NULL`, so only one of them records anything.
 */
export async function peekToken(q: Queryable, vault: Vault, scope: Scope, id: string, now: Date): Promise<ConsumedToken | null> {
  const [row] = await q.query<TokenRow>(PEEK_TOKEN, [id, scope.merchantId, scope.env, now]);
  return row ? openToken(vault, row) : null;
}

/** A usable token's row with its card data decrypted (peekToken, and domain/payments/charge-read.ts's read). */
export function openToken(vault: Vault, row: TokenRow): ConsumedToken {
  // Object.assign onto the row, not `{ ...row, number, csc }`: that spread is V8's slow path (charges.ts).
  return Object.assign(row, {
    number: vault.decrypt(row.secret_enc, tokenHome(row, 'secret_enc')),
    csc: row.csc_enc ? vault.decrypt(row.csc_enc, tokenHome(row, 'csc_enc')) : null,
  });
}

/**
 * consumeToken's wipe as a CTE (`WITH tok AS (...)`) for a statement that records what the token
 * paid for: the parameters are the token id, merchant, env and now at $n..$n+3; it yields the row
 * id only when this statement consumed it.
 */
export const consumeTokenCte = (n: number) => `tok AS (UPDATE tokens SET used_at = $${n + 3}, secret_enc = '', csc_enc = NULL
   WHERE ${usableToken(n)} RETURNING id)`;

/**
 * A token's card data lives only while the token can be used: consuming wipes it, and this sweep
 * (hourly, start.ts) wipes what tokens that expired unused still hold. The rows stay, so
 * GET /tokens/:id keeps answering (it never shows the number). Returns how many were wiped.
 */
export async function wipeExpiredTokens(q: Queryable, now: Date): Promise<number> {
  const rows = await q.query(
    `UPDATE tokens SET secret_enc = '', csc_enc = NULL WHERE expires_at <= $1 AND secret_enc <> '' RETURNING id`, [now],
  );
  return rows.length;
}
