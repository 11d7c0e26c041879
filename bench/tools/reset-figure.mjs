// How long POST /test_helpers/reset's work takes on a merchant with N webhook deliveries (half
// webhooks with their callback and attempt, half emails with their outbox message, each with its
// event), beside another merchant's N/2 tokens and deliveries that must stay. Uses the built
// gateway (npm run build first):
//   RESET_DELIVERIES=200000 BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test node bench/tools/reset-figure.mjs
// Without BENCH_DATABASE_URL: embedded PGlite in memory. Prints the seconds of the reset alone.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../dist/server/db/index.js';
import { createMerchant } from '../../dist/server/domain/merchant/keys.js';
import { resetPlan, resetTestEnvironment } from '../../dist/server/domain/merchant/reset.js';

const n = Number(process.env.RESET_DELIVERIES ?? 200_000);
const url = process.env.BENCH_DATABASE_URL;
const schema = `reset_fig_${randomBytes(4).toString('hex')}`;
const db = await openDatabase(url ? { databaseUrl: url, schema } : {});

/** N deliveries of one merchant's environment, in one statement per table. */
async function seed(merchantId, env, count) {
  const half = Math.floor(count / 2);
  const p = [merchantId, env];
  // Counts are numbers this script computed: written into the text, the ids go as parameters.
  await db.query(`INSERT INTO events (id, merchant_id, env, resource, type, data, created_at, dispatched_at)
    SELECT 'evt_' || $1 || $2 || g, $1, $2, 'transaction', 'transaction.created', '{}', now(), now() FROM generate_series(1, ${count}) g`, p);
  await db.query(`INSERT INTO callbacks (merchant_id, env, url, body, status, attempts, next_attempt_at, created_at, sent_at)
    SELECT $1, $2, 'http://127.0.0.1/hook', '{}', 'sent', 1, now(), now(), now() FROM generate_series(1, ${half}) g`, p);
  await db.query(`INSERT INTO callback_attempts (callback_id, merchant_id, env, attempt, at, status_code)
    SELECT id, $1, $2, 1, now(), 200 FROM callbacks WHERE merchant_id = $1 AND env = $2`, p);
  await db.query(`INSERT INTO outbox (merchant_id, env, kind, payload, status, next_attempt_at, created_at)
    SELECT $1, $2, 'email', '{}', 'sent', now(), now() FROM generate_series(1, ${count - half}) g`, p);
  await db.query(`INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, callback_id, created_at)
    SELECT $1, $2, 'evt_' || $1 || $2 || row_number() OVER (ORDER BY id), 'rule_x', 'strat_x', 'webhook', 'http://127.0.0.1/hook', id, now()
      FROM callbacks WHERE merchant_id = $1 AND env = $2`, p);
  await db.query(`INSERT INTO webhook_deliveries (merchant_id, env, event_id, rule_id, strategy_id, mode, target, outbox_id, created_at)
    SELECT $1, $2, 'evt_' || $1 || $2 || (${half} + row_number() OVER (ORDER BY id)), 'rule_x', 'strat_x', 'email', 'a@example.com', id, now()
      FROM outbox WHERE merchant_id = $1 AND env = $2`, p);
  await db.query(`INSERT INTO tokens (id, merchant_id, env, token_type, secret_enc, created_at, expires_at)
    SELECT md5($1 || $2 || g), $1, $2, 'credit_card', 'x', now(), now() FROM generate_series(1, ${half}) g`, p);
}

try {
  const now = new Date();
  const target = await createMerchant(db, 'Reset figure', now);
  const other = await createMerchant(db, 'Bystander', now);
  let t = Date.now();
  await seed(target, 'test', n);
  await seed(other, 'test', Math.floor(n / 2));
  await db.query('ANALYZE');
  console.log(`seeded ${n} deliveries (+${Math.floor(n / 2)} of another merchant) in ${((Date.now() - t) / 1000).toFixed(1)} s on ${db.kind}`);
  const plan = await resetPlan(db);
  t = Date.now();
  const { deleted } = await db.tx((q) => resetTestEnvironment(q, plan, target));
  const s = (Date.now() - t) / 1000;
  console.log(`reset: ${deleted.webhook_deliveries} deliveries, ${Object.values(deleted).reduce((a, b) => a + b, 0)} rows in ${s.toFixed(2)} s`);
  const [{ left }] = await db.query('SELECT count(*)::int AS left FROM webhook_deliveries WHERE merchant_id = $1', [other]);
  if (left !== Math.floor(n / 2)) throw new Error(`the other merchant's deliveries changed: ${left}`);
} finally {
  if (url) await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  await db.close();
}
