// "Send test event" (the dashboard's webhook page): one signed sample event POSTed to a webhook
// strategy's URL now, through the same outbound client (address checks at connect time, one
// deadline, capped answer) and the same signature header as every delivery (jobs/callbacks.ts,
// domain/merchant/signing.ts). The answer says what happened, and the send is recorded as a delivery
// (recordTestDelivery) so it is listed with the others, marked as a test. No Fastify here; the
// route is in routes/webhooks.ts.
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/index.js';
import { E, GatewayError } from '../../errors.js';
import { OutboundError, OutboundPolicy, post } from '../../net/outbound.js';
import type { Vault } from '../../vault.js';
import { Scope, newId } from '../merchant/keys.js';
import { signCallback, webhookSecret } from '../merchant/signing.js';
import { getStrategy } from './strategies.js';
import { webhookBody } from './dispatch.js';

/** The same deadline as a delivery attempt (deliverCallbacks' default). */
export const TEST_EVENT_TIMEOUT_MS = 5_000;

export interface TestEventDeps {
  db: Db;
  vault: Vault;
  clock: Clock;
  outbound?: OutboundPolicy;
}

export interface TestEventResult {
  strategy_id: string;
  url: string;
  event_id: string;
  status: 'delivered' | 'failed';
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

/**
 * POSTs `{id: 'evt_test_…', type: 'test', created_at, data: {test: true, strategy_id, message}}`
 * to the strategy's URL, signed with the environment's secret (both secrets while a rotation
 * overlaps). 2xx is `delivered`; another status, a timeout or a refused address is `failed`, with
 * the same public error text as a delivery attempt. 200007 for an unknown strategy, WEBHOOK05 for
 * an email or SMS one. `now` is the environment's (the event's created_at).
 */
export async function sendTestEvent(deps: TestEventDeps, scope: Scope, strategyId: string, now: Date): Promise<TestEventResult> {
  const strategy = await getStrategy(deps.db, scope, strategyId);
  if (strategy.mode !== 'webhook' || !strategy.url) throw new GatewayError(E.WEBHOOK_NOT_A_WEBHOOK);
  const event = {
    id: `evt_test_${newId(12)}`,
    type: 'test',
    created_at: now,
    data: { test: true, strategy_id: strategy.id, message: 'A test event sent from the Tessera dashboard; no record changed.' },
  };
  const body = webhookBody(event);
  const { secret, previous } = await webhookSecret(deps.db, deps.vault, scope, deps.clock.now());
  const startedAt = deps.clock.now();
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await post(strategy.url, {
      caller: scope.env,
      policy: deps.outbound,
      timeoutMs: TEST_EVENT_TIMEOUT_MS,
      headers: { 'content-type': 'application/json', 'user-agent': 'Tessera-Callback/1', 'tessera-test': 'true' },
      body,
      lateHeaders: () => {
        const sentAt = deps.clock.now();
        const also = previous && previous.expires_at > sentAt ? [previous.secret] : [];
        return { 'tessera-signature': signCallback(secret, Math.floor(sentAt.getTime() / 1000), body, also) };
      },
    });
    status = res.status;
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    error = err.message;
  }
  const result: TestEventResult = {
    strategy_id: strategy.id,
    url: strategy.url,
    event_id: event.id,
    status: error === null ? 'delivered' : 'failed',
    status_code: status,
    error,
    duration_ms: status === null ? null : Date.now() - started,
  };
  await recordTestDelivery(deps.db, scope, { ...event, body, startedAt, sentAt: deps.clock.now() }, result);
  return result;
}

/** The rule_id of a test delivery: no rule sent it. */
export const TEST_RULE_ID = 'test';

/**
 * The test send as GET /webhooks/deliveries lists every delivery: an event of type `test`
 * (resource `test`), recorded as already dispatched so no rule ever sees it; its callback, done
 * (sent or failed, one attempt of one, never claimed by the deliverer unless a failed one is
 * resent); the attempt; and the delivery row, rule `test`. One statement. Times other than the
 * event's are real, as for every callback.
 */
async function recordTestDelivery(
  db: Db, scope: Scope,
  e: { id: string; created_at: Date; data: object; body: string; startedAt: Date; sentAt: Date },
  r: TestEventResult,
): Promise<void> {
  const state = r.status === 'delivered' ? 'sent' : 'failed';
  await db.query(
    `WITH ev AS (
       INSERT INTO events (id, merchant_id, env, resource, type, data, created_at, dispatched_at)
       VALUES ($3, $1, $2, 'test', 'test', $4::jsonb, $5, $5) RETURNING id),
     cb AS (
       INSERT INTO callbacks (merchant_id, env, billing_id, url, body, status, attempts, max_attempts, next_attempt_at,
                              last_status, last_error, created_at, sent_at)
       VALUES ($1, $2, NULL, $6, $7, $8, 1, 1, $9, $10, $11, $9, CASE WHEN $8 = 'sent' THEN $12::timestamptz END) RETURNING id),
     att AS (
       INSERT INTO callback_attempts (callback_id, merchant_id, env, attempt, at, status_code, error, duration_ms)
       SELECT cb.id, $1, $2, 1, $9, $10, $11, $13 FROM cb)
     INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, created_at)
     SELECT $1, $2, ev.id, $14, $15, 'webhook', $6, cb.id, $9 FROM ev, cb`,
    [scope.merchantId, scope.env, e.id, JSON.stringify(e.data), e.created_at, r.url, e.body, state, e.startedAt,
      r.status_code, r.error, e.sentAt, r.duration_ms, TEST_RULE_ID, r.strategy_id],
  );
}
