import { createHash, randomBytes } from 'node:crypto';
import { LEASE_MS, NODE_ID } from '../../../server/http/idempotency.js';
import { Vault } from '../../../server/vault.js';
import { TestGateway, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

// Idempotency keys, issue 14.6 (the fingerprint is keyed and holds no card data) and issue 15.6
// (a key whose request committed but whose node died before answering converges on a retry).

const gwKind = () => (process.env.TESSERA_TEST_DB === 'pg' ? 'pg' : 'pglite');

let n = 0;
const newKey = () => `recovery-${Date.now()}-${++n}`;
const charge = (gw: TestGateway, payload: unknown, key: string, apiKey = gw.merchant.test.private_key) =>
  gw.app.inject({ method: 'POST', url: '/api/v1/charge', payload: payload as any, headers: { ...basic(apiKey), 'idempotency-key': key } });
const rowOf = async (gw: TestGateway, key: string) => (await gw.db.query('SELECT * FROM idempotency_keys WHERE key = $1', [key]))[0];
const transactions = async (gw: TestGateway) => (await gw.db.query('SELECT id FROM transactions WHERE merchant_id = $1', [gw.merchant.id])).length;
const sortedJson = (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));

describe('the fingerprint (14.6)', () => {
  test('is an HMAC under the data key of the body without its card fields, never a plain hash of the card', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { ...visa, amount: 1500, description: 'fingerprint' };
    expect((await charge(gw, body, key)).statusCode).toBe(200);
    const stored = (await rowOf(gw, key)).request_hash as string;
    const { card_number: _n, csc: _c, ...rest } = body;
    expect(stored).toBe(`h2.${gw.vault.mac('idempotency', sortedJson(rest))}`);
    expect(stored.startsWith(`h2.${gw.vault.currentKeyId}.`)).toBe(true);
    // The same body under another data key fingerprints differently: it is keyed.
    expect(new Vault(randomBytes(32)).mac('idempotency', sortedJson(rest))!.split('.')[1]).not.toBe(stored.split('.')[2]);
    for (const plain of [sortedJson(body), JSON.stringify(body), visa.card_number]) {
      expect(stored).not.toContain(createHash('sha256').update(plain).digest('hex'));
    }
    expect(JSON.stringify(await rowOf(gw, key))).not.toContain(visa.card_number);
  });

  test('card fields at any depth, and the names the log redacts, are left out; the rest still tells bodies apart', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { ...visa, amount: 1600, metadata: { card_number: '4111111111111111', cvv: '999' }, public_api_key: 'x' };
    const first = await charge(gw, body, key);
    expect(first.statusCode).toBe(200);
    // Another card number or CVV is the same fingerprint: the stored answer replays.
    const other = { ...body, card_number: '4242424242424242', csc: '456', metadata: { card_number: '5555', cvv: '1' }, public_api_key: 'y' };
    const again = await charge(gw, other, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    // Any other field is part of it.
    const res = await charge(gw, { ...body, amount: 1601 }, key);
    expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 422, code: 'IDEM02' });
  });

  test('a fingerprint from before they were keyed (erased by migration 016) replays on the key alone', async ({ gateway: gw }) => {
    const key = newKey();
    const first = await charge(gw, { ...visa, amount: 1700 }, key);
    await gw.db.query("UPDATE idempotency_keys SET request_hash = 'legacy' WHERE key = $1", [key]);
    const again = await charge(gw, { ...visa, amount: 9999 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
  });
});

describe('a request whose node died between commit and answer (15.6)', () => {
  /** What a node leaves behind when it dies after the charge committed: the claim names the record, no answer. */
  async function orphan(gw: TestGateway, payload: Record<string, unknown>, owner: string, ageMs: number) {
    const key = newKey();
    const done = await charge(gw, payload, key);
    const id = done.statusCode === 200 ? done.json().id : done.json().errors[0].transaction_id;
    await gw.db.query(
      `UPDATE idempotency_keys SET status_code = NULL, response = NULL, owner = $2, claimed_at = now() - $3::int * interval '1 millisecond' WHERE key = $1`,
      [key, owner, ageMs],
    );
    return { key, id: id as string, first: done };
  }

  test('another node, gone past its lease: the retry answers 200 with the same transaction, and keeps that answer', async ({ gateway: gw }) => {
    const body = { ...visa, amount: 2100 };
    const { key, id, first } = await orphan(gw, body, 'a-node-that-died', LEASE_MS + 1000);
    const before = await transactions(gw);
    const retry = await charge(gw, body, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(retry.json().id).toBe(id);
    expect(await transactions(gw)).toBe(before);
    expect(await rowOf(gw, key)).toMatchObject({ status_code: 200, owner: NODE_ID, resource_id: id });
    expect((await charge(gw, body, key)).json().id).toBe(id);
  });

  test('a handler of this node that never answered (not in flight): replayed at once', async ({ gateway: gw }) => {
    const body = { ...visa, amount: 2200 };
    const { key, id } = await orphan(gw, body, NODE_ID, 0);
    const retry = await charge(gw, body, key);
    expect({ status: retry.statusCode, id: retry.json().id }).toEqual({ status: 200, id });
  });

  test('a declined charge is rebuilt as its 402 with the transaction id', async ({ gateway: gw }) => {
    const body = { ...visa, amount: 80 };
    const { key, id, first } = await orphan(gw, body, NODE_ID, 0);
    expect(first.statusCode).toBe(402);
    const retry = await charge(gw, body, key);
    expect(retry.statusCode).toBe(402);
    expect(retry.json()).toEqual(first.json());
    expect(retry.json().errors[0]).toMatchObject({ code: '99820', transaction_id: id });
  });

  test('a refund is rebuilt from its transaction', async ({ gateway: gw }) => {
    const id = (await gw.app.inject({ method: 'POST', url: '/api/v1/charge', payload: { ...visa, amount: 3000 }, headers: basic(gw.merchant.test.private_key) })).json().id;
    const key = newKey();
    const refund = () => gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${id}/cancel`, payload: { amount: 500 }, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key },
    });
    expect((await refund()).statusCode).toBe(200);
    await gw.db.query("UPDATE idempotency_keys SET status_code = NULL, response = NULL, owner = 'gone' WHERE key = $1", [key]);
    await gw.db.query(`UPDATE idempotency_keys SET claimed_at = now() - $2::int * interval '1 millisecond' WHERE key = $1`, [key, LEASE_MS + 1]);
    const retry = await refund();
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ id, amount_refunded: 500 });
    expect(retry.json().refunds).toHaveLength(1);
  });

  test('nothing committed and the owner gone: the retry runs the request', async ({ gateway: gw }) => {
    const key = newKey();
    const token = await tokenFor(gw);
    const body = { token, amount: 2300 };
    const { card_number: _n, csc: _c, ...rest } = { ...body, card_number: '', csc: '' };
    await gw.db.query(
      `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at, owner)
       VALUES ($1, 'test', '/api/v1/charge', $2, $3, $4, $5)`,
      [gw.merchant.id, key, `h2.${gw.vault.mac('idempotency', sortedJson(rest))}`, gw.clock.now(), NODE_ID],
    );
    const before = await transactions(gw);
    const res = await charge(gw, body, key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await transactions(gw)).toBe(before + 1);
  });

  // Every POST that records what it created rebuilds its answer from that record.
  const creations: [string, string, Record<string, unknown>][] = [
    ['a receipt template', '/api/v1/receipts/templates', { name: 'recovery', subject: 's', receipt_text: 'b' }],
    ['a plan', '/api/v1/plans', { name: 'Recovery', frequency: 'monthly', amount: 900 }],
    ['a webhook rule', '/api/v1/webhooks/rules', { event_resource: 'transaction', event_types: 'created' }],
    ['a webhook strategy', '/api/v1/webhooks/strategies', { mode: 'webhook', url: 'http://127.0.0.1:9/hooks' }],
    ['an invoice', '/api/v1/invoices', { customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com', amount: 1200 }],
  ];
  const post = (gw: TestGateway, url: string, payload: Record<string, unknown>, key: string) => gw.app.inject({
    method: 'POST', url, payload, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key },
  });

  test.for(creations)('%s: the retry answers 200 with the record it created, and creates no other', async ([_name, url, payload], { gateway: gw }) => {
    const key = newKey();
    const created = await post(gw, url, payload, key);
    expect(created.statusCode, created.body).toBe(200);
    await gw.db.query(`UPDATE idempotency_keys SET status_code = NULL, response = NULL, owner = 'gone', claimed_at = now() - $2::int * interval '1 millisecond' WHERE key = $1`,
      [key, LEASE_MS + 1]);
    const retry = await post(gw, url, payload, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(created.json().id);
    expect(await rowOf(gw, key)).toMatchObject({ status_code: 200, resource_id: String(created.json().id) });
  });

  test.runIf(gwKind() === 'pg')('another node within its lease on PostgreSQL: 409 IDEM03 naming the record', async ({ gateway: gw }) => {
    const key = newKey();
    const created = await post(gw, creations[0][1], creations[0][2], key);
    await gw.db.query("UPDATE idempotency_keys SET status_code = NULL, response = NULL, owner = 'another-node' WHERE key = $1", [key]);
    const retry = await post(gw, creations[0][1], creations[0][2], key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().errors[0]).toMatchObject({ code: 'IDEM03' });
    expect(retry.json().errors[0].message).toContain(String(created.json().id));
  });
});

describe('one charge per key across nodes: claims fenced by the database, not node clocks (issue 27.3)', () => {
  /** Waits until `n` statements of this schema wait for a lock on the transactions table. */
  async function waiters(gw: TestGateway, n: number) {
    for (;;) {
      const [{ w }] = await gw.db.query<{ w: number }>(
        "SELECT count(*)::int AS w FROM pg_locks WHERE NOT granted AND relation = 'transactions'::regclass");
      if (w >= n) return;
    }
  }

  test.runIf(gwKind() === 'pg')('a first request stalled past the abandonment age and a retry on another node: one charge; the stalled one rolls back with 409 IDEM03', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { ...visa, amount: 2700, description: 'stalled' };
    const before = await transactions(gw);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // Stands for a stall of any cause (a lock, a paused node): the charge waits at its INSERT.
    const stall = gw.db.tx(async (q) => {
      await q.query('LOCK TABLE transactions IN EXCLUSIVE MODE');
      await released;
    });
    const first = charge(gw, body, key);
    await waiters(gw, 1);
    // As another node sees the claim after more than a minute of silence (or with its clock ahead).
    await gw.db.query(`UPDATE idempotency_keys SET owner = 'the-stalled-node', claimed_at = now() - interval '61 seconds' WHERE key = $1`, [key]);
    const retry = charge(gw, body, key);
    await waiters(gw, 2); // the retry took the claim over and waits at its own INSERT
    release();
    await stall;
    const [a, b] = await Promise.all([first, retry]);
    expect({ status: b.statusCode, replayed: b.headers['idempotent-replayed'] }).toEqual({ status: 200, replayed: undefined });
    expect(a.statusCode).toBe(409);
    expect(a.json().errors[0]).toMatchObject({ code: 'IDEM03', message: expect.stringContaining('took this request over') });
    expect(await transactions(gw)).toBe(before + 1);
    expect(await rowOf(gw, key)).toMatchObject({ status_code: 200, committed: true, resource_id: b.json().id });
    // A third try is the retry's answer.
    expect((await charge(gw, body, key)).json().id).toBe(b.json().id);
  });

  test.runIf(gwKind() === 'pg')('a claim held a short while by the database clock is in progress, however old its node clock says it is', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { ...visa, amount: 2800 };
    const before = await transactions(gw);
    // A node whose clock runs 90 s ahead wrote created_at; the database claimed it just now.
    await gw.db.query(
      `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at, owner, claim)
       VALUES ($1, 'test', '/api/v1/charge', $2, 'legacy', $3, 'a-node-ahead', 'its-claim')`,
      [gw.merchant.id, key, new Date(gw.clock.now().getTime() - 90_000)],
    );
    const retry = await charge(gw, body, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().errors[0].code).toBe('IDEM03');
    expect(await transactions(gw)).toBe(before);
  });
});

describe('the endpoint a key belongs to', () => {
  test('//charge, %63harge and a trailing slash are the same endpoint: one charge, the others replay', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { ...visa, amount: 2400 };
    const first = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', payload: body, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key } });
    expect(first.statusCode).toBe(200);
    const before = await transactions(gw);
    for (const url of ['/api/v1//charge', '/api/v1/%63harge', '/api//v1/charge', '/api/v1/charge/']) {
      const again = await gw.app.inject({ method: 'POST', url, payload: body, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key } });
      expect({ url, status: again.statusCode, replayed: again.headers['idempotent-replayed'], id: again.json().id })
        .toEqual({ url, status: 200, replayed: 'true', id: first.json().id });
    }
    expect(await transactions(gw)).toBe(before);
  });

  test('a refund by key: the path parameter is part of the endpoint, however the path is spelled', async ({ gateway: gw }) => {
    const id = (await charge(gw, { ...visa, amount: 3000 }, newKey())).json().id;
    const key = newKey();
    const refund = (url: string) => gw.app.inject({ method: 'POST', url, payload: { amount: 300 }, headers: { ...basic(gw.merchant.test.private_key), 'idempotency-key': key } });
    expect((await refund(`/api/v1/charge/${id}/cancel`)).statusCode).toBe(200);
    for (const url of [`/api/v1//charge/${id}/cancel`, `/api/v1/charge/${id}/%63ancel`]) expect((await refund(url)).headers['idempotent-replayed'], url).toBe('true');
    const after = await gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(gw.merchant.test.private_key) });
    expect(after.json().amount_refunded).toBe(300);
  });
});
