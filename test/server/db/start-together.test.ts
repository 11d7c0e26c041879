import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { RunningTessera, startTessera } from '../../../server/start.js';
import { DB_KIND } from '../../helpers/gateway.js';

// Issue 15.5: nodes starting together on an empty PostgreSQL create one demo merchant, not one
// each: first-start setup runs inside the migrations' transaction and advisory lock. PostgreSQL
// only (the api:postgres project): an embedded data directory admits one process at a time.

const url = process.env.TEST_DATABASE_URL;
const dropped: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of dropped) await d();
});

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** An empty database of its own, dropped after the file. */
async function emptyDatabase(): Promise<string> {
  const name = `start_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  dropped.push(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => {}));
  const u = new URL(url!);
  u.pathname = `/${name}`;
  return u.toString();
}

test.runIf(DB_KIND === 'pg')('four nodes started at once on an empty database: one demo merchant, its keys printed by one node', async () => {
  const databaseUrl = await emptyDatabase();
  const dataKey = randomBytes(32).toString('base64');
  const nodes: RunningTessera[] = await Promise.all(Array.from({ length: 4 }, () =>
    startTessera({ databaseUrl, dataKey, port: 0, warn: () => {} })));
  try {
    const [{ n }] = await nodes[0].db.query('SELECT count(*)::int AS n FROM merchants');
    expect(n).toBe(1);
    const [{ k }] = await nodes[0].db.query('SELECT count(*)::int AS k FROM api_keys');
    expect(k).toBe(2); // one test key set: public and private
    const shown = nodes.filter((g) => g.privateKey !== null);
    expect(shown).toHaveLength(1);
    // The keys the one node printed are the merchant's, and work on every node.
    for (const g of nodes) {
      const res = await fetch(`${g.url}/api/v1/transactions`, {
        headers: { authorization: `Basic ${Buffer.from(`${shown[0].privateKey}:`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
    }
  } finally {
    await Promise.all(nodes.map((g) => g.close()));
  }
});
