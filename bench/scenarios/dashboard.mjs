import { basic } from '../lib/api.mjs';
import { dist } from '../lib/dist.mjs';
import { startGateway } from '../lib/gateway.mjs';
import { loopLoad } from '../lib/load.mjs';

/** Transactions of the measured merchant's test mode (as many again go to its live mode: rows the index must skip). */
const ROWS = Number(process.env.BENCH_DASHBOARD_ROWS ?? 100_000);
/** Callers at once: one is a merchant looking at the dashboard. */
const CONCURRENCY = Number(process.env.BENCH_DASHBOARD_CONCURRENCY ?? 1);

/**
 * `rows` charges (every 10th declined, every 20th partly refunded) spread over the last 90 days,
 * and rows / 20 customers, in one merchant environment: set-based INSERTs, then ANALYZE.
 */
async function seed(db, merchantId, env, rows, now) {
  await db.query(
    `INSERT INTO transactions (id, merchant_id, env, source, payment_method, status, successful, reference_number, csc_check,
       amount_authorized, amount_settled, amount_failed, settled, card_type, card_number, card_owner_name, email, created_at)
     SELECT md5($1 || $2 || g), $1, $2, 'token', 'credit_card', CASE WHEN g % 10 = 0 THEN 'DECLINED' ELSE 'SETTLED' END, g % 10 <> 0,
            'bench' || g, 'M', CASE WHEN g % 10 = 0 THEN 0 ELSE 100 + g % 10000 END, CASE WHEN g % 10 = 0 THEN 0 ELSE 100 + g % 10000 END,
            CASE WHEN g % 10 = 0 THEN 100 + g % 10000 ELSE 0 END, g % 10 <> 0, 'visa', 'XXXXXXXXXXXX' || lpad((g % 10000)::text, 4, '0'),
            'Owner ' || g, 'buyer' || g || '@example.com',
            $3::timestamptz - ((g::bigint * 7919) % (90 * 86400)) * interval '1 second'
       FROM generate_series(1, $4::int) g`,
    [merchantId, env, now, rows],
  );
  await db.query(
    `INSERT INTO refunds (id, transaction_id, merchant_id, env, amount, created_at)
     SELECT md5('r' || id), id, merchant_id, env, 50, created_at + interval '1 hour'
       FROM transactions WHERE merchant_id = $1 AND env = $2 AND successful AND seq % 20 = 0`,
    [merchantId, env],
  );
  await db.query(
    `INSERT INTO customers (merchant_id, env, id, first_name, last_name, email, created_at, updated_at)
     SELECT $1, $2, 'cus' || g, 'Bench', 'Customer ' || g, 'customer' || g || '@example.com', t, t
       FROM (SELECT g, $3::timestamptz - ((g::bigint * 7919) % (90 * 86400)) * interval '1 second' AS t
               FROM generate_series(1, $4::int) g) s`,
    [merchantId, env, now, Math.ceil(rows / 20)],
  );
}

/**
 * The dashboard's reads on a merchant with BENCH_DASHBOARD_ROWS (100,000) transactions in test mode
 * and as many in live mode: GET /api/v1/dashboard/summary (30 and 90 days: the SQL grouping of
 * domain/dashboard/reports.ts on the indexes of migration 019), a search by last 4 digits and by text, and one
 * CSV export of every transaction (streamed in batches). Latency per request, CONCURRENCY callers.
 * The summaries run again after VACUUM (`-vacuumed`): what autovacuum leaves on PostgreSQL.
 */
export default {
  name: 'dashboard',
  describe: `dashboard summary, search and CSV export on ${ROWS.toLocaleString('en-US')} transactions (and as many in the other environment), ${CONCURRENCY} caller(s)`,
  async run(ctx) {
    const gw = await startGateway(ctx);
    const { db, clock } = ctx.backend;
    const results = [];
    try {
      const { createKeySet } = await dist('domain/merchant/keys.js');
      await db.tx((q) => createKeySet(q, { merchantId: gw.merchantId, env: 'live' }, clock.now()));
      const t0 = performance.now();
      for (const env of ['test', 'live']) await seed(db, gw.merchantId, env, ROWS, clock.now());
      await db.query('ANALYZE transactions');
      await db.query('ANALYZE refunds');
      await db.query('ANALYZE customers');
      console.log(`  dashboard: seeded ${(2 * ROWS).toLocaleString('en-US')} transactions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const headers = { authorization: basic(gw.keys.private_key) };
      const get = async (path) => {
        const res = await fetch(`${gw.url}${path}`, { headers });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status} ${body.slice(0, 200)}`);
        return body;
      };
      const first = JSON.parse(await get('/api/v1/dashboard/summary?days=30'));
      if (first.totals.last_30_days.successful === 0) throw new Error('dashboard: the seeded charges are not in the summary');
      const variants = [
        ['dashboard-summary-30d', '/api/v1/dashboard/summary?days=30'],
        ['dashboard-summary-90d', '/api/v1/dashboard/summary?days=90'],
        ['dashboard-search-last4', '/api/v1/dashboard/search?q=4242&limit=10'],
        ['dashboard-search-text', '/api/v1/dashboard/search?q=owner%2012345&limit=10'],
      ];
      for (const [name, path] of variants) {
        const r = await loopLoad(() => get(path), { seconds: ctx.cfg.seconds, warmupSeconds: ctx.cfg.warmupSeconds, concurrency: CONCURRENCY, name });
        results.push({ name, unit: 'req/s', ...r });
      }
      // After VACUUM the visibility map lets the summary read its index alone (an index-only scan):
      // PostgreSQL's autovacuum gets there on its own after a bulk of inserts; embedded PGlite has no autovacuum.
      for (const table of ['transactions', 'refunds', 'customers']) await db.query(`VACUUM ANALYZE ${table}`);
      for (const [name, path] of variants.slice(0, 2)) {
        const r = await loopLoad(() => get(path), { seconds: ctx.cfg.seconds, warmupSeconds: ctx.cfg.warmupSeconds, concurrency: CONCURRENCY, name });
        results.push({ name: `${name}-vacuumed`, unit: 'req/s', ...r });
      }
      // One whole export: how long the file takes, and that it has every row.
      const e0 = performance.now();
      const csv = await get('/api/v1/dashboard/export/transactions.csv');
      const ms = performance.now() - e0;
      const lines = csv.split('\r\n').length - 2; // the header, and the empty string after the last CRLF
      if (lines !== ROWS) throw new Error(`dashboard: the export has ${lines} rows, not ${ROWS}`);
      console.log(`  dashboard-export: ${lines.toLocaleString('en-US')} rows, ${(csv.length / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(2)} s`);
      results.push({ name: 'dashboard-export-csv', unit: 'rows/s', rps: lines / (ms / 1000), p50: ms, p99: ms, max: ms, mean: ms, ok: 1, errors: 0 });
    } finally {
      await gw.close();
    }
    return results;
  },
};
