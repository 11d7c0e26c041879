// Shared set-up of the live-processing route tests (live-charges, live-refunds-runs): one
// Authorize.Net stand-in per file (test/helpers/authnet-standin.ts), the gateway merchant's live
// connection pointed at it, and calls with the live keys.
import { setConnection } from '../../../server/domain/merchant/processor-connections.js';
import { reconcilePending } from '../../../server/domain/payments/reconcile.js';
import type { ReconcileSummary } from '../../../server/domain/payments/reconcile.js';
import { sendChargeReceipt } from '../../../server/domain/documents/receipts.js';
import { resolveRuns } from '../../../server/domain/billing/run-outcome.js';
import { AuthnetStandin, Json, startAuthnetStandin } from '../../helpers/authnet-standin.js';
import { test as base, basic, expect, tokenFor } from '../../fixtures.js';
import type { Merchant, TestGateway } from '../../fixtures.js';

export const LOGIN_ID = 'standin-login';
export const TRANSACTION_KEY = 'StandinKey123456';
/** The stand-in's card that answers reason N for a whole-dollar amount of N dollars. */
export const ERROR_CARD = '4222222222222';

/** Points `m`'s live environment at the stand-in (as `tessera processor set --endpoint` does). */
export async function connect(gw: TestGateway, standin: AuthnetStandin, m: Merchant = gw.merchant) {
  await setConnection(gw.db, gw.vault, gw.app.services.processors, {
    merchantId: m.id, env: 'live', connector: 'authorizenet', fields: { login_id: LOGIN_ID, transaction_key: TRANSACTION_KEY }, endpoint: standin.url,
  }, gw.clock.now());
}

/** Another merchant whose live environment is connected to the stand-in: its rows are its own (reconciler tests). */
export async function liveMerchant(gw: TestGateway, standin: AuthnetStandin): Promise<Merchant> {
  const m = await gw.newMerchant();
  await connect(gw, standin, m);
  return m;
}

/** The gateway fixture, plus a stand-in (started once per file) that the merchant's live connection uses. */
export const test = base.extend<{ standin: AuthnetStandin }>({
  standin: [async ({ gateway }, use) => {
    const standin = await startAuthnetStandin({ loginId: LOGIN_ID, transactionKey: TRANSACTION_KEY });
    try {
      await connect(gateway, standin);
      await use(standin);
    } finally {
      await standin.close();
    }
  }, { scope: 'file' }],
});

export const liveToken = (gw: TestGateway, data: Record<string, unknown>, m: Merchant = gw.merchant) => tokenFor(gw, data, m.live.public_key);

export const post = (gw: TestGateway, url: string, payload: unknown, headers: Record<string, string> = {}, key = gw.merchant.live.private_key) =>
  gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...basic(key), ...headers }, payload: payload as any });
export const charge = (gw: TestGateway, payload: unknown, headers: Record<string, string> = {}, key?: string) => post(gw, '/charge', payload, headers, key);
export const get = async (gw: TestGateway, url: string, key = gw.merchant.live.private_key) => {
  const res = await gw.app.inject({ url: `/api/v1${url}`, headers: basic(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

type Obj = { [k: string]: any };
/** The stand-in's createTransactionRequest bodies (transactionRequest), oldest first; of one type if given. */
export function transactionRequests(standin: AuthnetStandin, type?: string): Obj[] {
  return (standin.requests as Json[])
    .filter((r): r is Obj => !!r && typeof r === 'object' && 'createTransactionRequest' in (r as Obj))
    .map((r) => (r as Obj).createTransactionRequest as Obj)
    .filter((c) => !type || c.transactionRequest?.transactionType === type);
}

/**
 * The invoice number a sale of ours carries is derived from our transaction id (a prefix of it: the
 * field takes 20 characters, our id is 32; connector.ts, SaleRequest.reference).
 */
export const ofTransaction = (id: string) => (c: Obj) => {
  const inv = c.transactionRequest?.order?.invoiceNumber;
  return typeof inv === 'string' && inv.length >= 16 && id.startsWith(inv);
};
export const salesOf = (standin: AuthnetStandin, id: string) => transactionRequests(standin, 'authCaptureTransaction').filter(ofTransaction(id));
export const storedSalesOf = (standin: AuthnetStandin, id: string) =>
  standin.transactions.filter((t) => t.transactionType === 'authCaptureTransaction' && !!t.invoiceNumber && id.startsWith(t.invoiceNumber));

/** The transaction events of charge `id`, oldest first. */
export const events = async (gw: TestGateway, id: string) =>
  (await gw.db.query<{ type: string }>("SELECT type FROM events WHERE type LIKE 'transaction.%' AND data->>'id' = $1 ORDER BY seq", [id])).map((e) => e.type);
export const row = async (gw: TestGateway, id: string) =>
  (await gw.db.query<Obj>('SELECT * FROM transactions WHERE id = $1', [id]))[0];

/** One reconciler pass over the merchant's live environment, every unresolved row now. */
export const reconcile = (gw: TestGateway, opts: { notFoundAfterMs?: number; merchantId?: string } = {}): Promise<ReconcileSummary> =>
  reconcilePending(gw.db, {
    vault: gw.vault, processors: gw.app.services.processors, clock: gw.clock, notFoundAfterMs: opts.notFoundAfterMs, resolveRuns, sendReceipt: sendChargeReceipt,
  },
    { merchantId: opts.merchantId ?? gw.merchant.id, env: 'live', all: true });
