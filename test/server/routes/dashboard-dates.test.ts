import { request } from 'node:http';
import { buildApp } from '../../../server/app.js';
import type { Db, Queryable } from '../../../server/db/index.js';
import { EXPORT_BATCH } from '../../../server/domain/dashboard/exports.js';
import { TestGateway, basic, describe, expect, expectError, test } from '../../fixtures.js';

// The date filters of the dashboard's lists (issue 27, item 10a): created_from and created_to of
// GET /dashboard/transactions and of its CSV export. A date PostgreSQL cannot hold (year 0000,
// 10000, negative, 'infinity') was a 500 on the list and a cut-off file on the export; now every
// such value is 400 REQ01 naming the field, before the database and before the first byte. And a
// CSV whose query fails is never a file that looks complete: a failure of the first batch is an
// error answer, a failure after the first bytes breaks the connection.

const LIST = '/api/v1/dashboard/transactions';
const CSV = '/api/v1/dashboard/export/transactions.csv';
const get = (gw: TestGateway, url: string) => gw.app.inject({ url, headers: basic(gw.merchant.test.private_key) });

const REFUSED = [
  '0000-01-01', '0000-12-31T23:59:59Z', '0001-01-01T00:30:00+01:00', // year 0, written or reached by the offset
  '10000-01-01', '+010000-01-01T00:00:00Z', '275760-09-13', '+275760-09-14T00:00:00Z', '-0001-01-01', '-1',
  'infinity', '-infinity', 'epoch', 'now', 'today',
  '2026-02-30', '2026-13-01', '2026-00-10', '2026-01-15T24:00:00Z', '2026-01-15T23:60:00Z', '2026-01-15T10:00:00+15:00',
  '2026-01-15 (hello)', '2026-01-15xyz', '20260115', '2026-1-5',
];

describe('every date filter of every dashboard list refuses what it cannot read', () => {
  for (const field of ['created_from', 'created_to']) {
    for (const url of [LIST, CSV]) {
      test(`${url.split('/').at(-1)} ${field}: years 0000, 10000, -1, 275760+, infinity, impossible dates are 400 REQ01 naming the field`, async ({ gateway: gw }) => {
        for (const value of REFUSED) {
          const res = await get(gw, `${url}?${field}=${encodeURIComponent(value)}`);
          expectError(res, 400, 'REQ01', new RegExp(`^${field} must`));
          expect(res.headers['content-disposition'], value).toBeUndefined();
        }
      });
    }
  }

  test('the edges of the range are read: 0001-01-01 and 9999-12-31 (to the end of it), a zone or none (UTC)', async ({ gateway: gw }) => {
    for (const q of [
      'created_from=0001-01-01', 'created_to=9999-12-31', 'created_from=0001-01-01&created_to=9999-12-31',
      'created_to=9999-12-31T23:59:59.999Z', 'created_from=0001-01-01T01:00:00%2B01:00', 'created_to=9999-12-31T23:00:00-00:59',
      'created_from=2026-01-15T10:30', 'created_from=2026-01-15%2010:30:00.123456', 'created_from=2024-02-29',
    ]) {
      for (const url of [LIST, CSV]) {
        const res = await get(gw, `${url}?${q}`);
        expect(res.statusCode, `${url}?${q}: ${res.body}`).toBe(200);
      }
    }
  });

  test('a timestamp without a zone is UTC; with one, the instant it names', async ({ gateway: gw }) => {
    const token = await gw.app.inject({
      method: 'POST', url: '/api/v1/tokens', headers: basic(gw.merchant.test.public_key),
      payload: { card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2030, csc: '123', card_owner_name: 'A' },
    });
    const charged = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(gw.merchant.test.private_key), payload: { token: token.json().id, amount: 500 } });
    const at = new Date(charged.json().created_at);
    const iso = (d: Date) => d.toISOString().slice(0, 23);
    const ids = async (q: string) => (await get(gw, `${LIST}?${q}`)).json().list.map((t: { id: string }) => t.id);
    expect(await ids(`created_from=${iso(at)}&created_to=${iso(at)}`)).toContain(charged.json().id);
    expect(await ids(`created_from=${iso(new Date(at.getTime() + 1))}`)).not.toContain(charged.json().id);
    // The same instant written one hour east.
    const east = new Date(at.getTime() + 3_600_000).toISOString().slice(0, 23);
    expect(await ids(`created_from=${encodeURIComponent(`${east}+01:00`)}&created_to=${encodeURIComponent(`${east}+01:00`)}`)).toContain(charged.json().id);
  });
});

/** The gateway's database, with the transactions export's SELECT failing from its `nth` statement on. */
function failingExport(db: Db, nth: number): Db {
  let n = 0;
  const wrap = (q: Queryable): Queryable => ({
    exec: (sql) => q.exec(sql),
    query: async (sql, params) => {
      if (/AS amount, amount_refunded/.test(sql) && ++n >= nth) throw new Error('the database went away');
      // Before the failure: a full batch of made-up rows, so the export asks for the next one.
      if (/AS amount, amount_refunded/.test(sql)) return Array.from({ length: EXPORT_BATCH }, (_, i) => ({ seq: 10_000 - i, id: `t${i}` })) as any;
      return q.query(sql, params);
    },
  });
  return { ...db, ...wrap(db), tx: (fn) => db.tx((q) => fn(wrap(q))) };
}

describe('a CSV export that fails is never a complete-looking file', () => {
  test('the first batch failing: a JSON error answer, no attachment', async ({ gateway: gw }) => {
    const app = await buildApp({ db: failingExport(gw.db, 1), vault: gw.vault, clock: gw.clock });
    try {
      const res = await app.inject({ url: CSV, headers: basic(gw.merchant.test.private_key) });
      expectError(res, 500, 'INTERNAL');
      expect(res.headers['content-disposition']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test('a later batch failing: the connection is broken, the client sees an incomplete download', async ({ gateway: gw }) => {
    const app = await buildApp({ db: failingExport(gw.db, 2), vault: gw.vault, clock: gw.clock });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const seen = await new Promise<{ status?: number; bytes: number; ending: string }>((resolve) => {
        let bytes = 0;
        let status: number | undefined;
        const req = request({ host: '127.0.0.1', port, path: CSV, headers: basic(gw.merchant.test.private_key) }, (res) => {
          status = res.statusCode;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ status, bytes, ending: res.complete ? 'complete' : 'incomplete' }));
          res.on('error', () => resolve({ status, bytes, ending: 'error' }));
        });
        req.on('error', () => resolve({ status, bytes, ending: 'error' }));
        req.end();
      });
      // The header row and the first batch arrived, then no clean end: not "complete".
      expect(seen.status).toBe(200);
      expect(seen.bytes).toBeGreaterThan(EXPORT_BATCH);
      expect(seen.ending).not.toBe('complete');
    } finally {
      await app.close();
    }
  });
});
