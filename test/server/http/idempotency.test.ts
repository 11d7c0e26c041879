import { Merchant, TestGateway, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// Idempotency-Key on POST (issue 3): scoped to merchant, environment and endpoint, kept 24 hours.


let n = 0;
const newKey = () => `key-${Date.now()}-${++n}`;

const post = (gw: TestGateway, url: string, payload: unknown, key: string | undefined, apiKey = gw.merchant.test.private_key) =>
  gw.app.inject({
    method: 'POST', url: `/api/v1${url}`, payload: payload as any,
    headers: { ...basic(apiKey), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
const charge = (gw: TestGateway, payload: unknown, key: string | undefined, apiKey?: string) => post(gw, '/charge', payload, key, apiKey);
const rowsOf = async (gw: TestGateway, m: Merchant = gw.merchant) =>
  (await gw.db.query('SELECT id FROM transactions WHERE merchant_id = $1', [m.id])).map((r) => r.id as string);
/** The request hash the server keys on: JSON with sorted keys (flat bodies only). */
const sortedJson = (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));
/** A direct card charge: no token, so the very same body can be sent any number of times. */
const direct = (amount = 1500) => ({ ...visa, amount });

describe('replay', () => {
  test('same key and body: the same transaction, replayed, one row', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { token: await tokenFor(gw), amount: 1200, metadata: { a: 1, b: 2 } };
    const before = (await rowsOf(gw)).length;
    const first = await charge(gw, body, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await charge(gw, body, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    // The same body with its keys in another order is the same request.
    const reordered = await charge(gw, { metadata: { b: 2, a: 1 }, amount: 1200, token: body.token }, key);
    expect(reordered.json().id).toBe(first.json().id);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect((await rowsOf(gw)).length).toBe(before + 1);
  });

  test('the replay is the stored answer, not the current state of the record', async ({ gateway: gw }) => {
    const key = newKey();
    const first = await charge(gw, direct(), key);
    await post(gw, `/charge/${first.json().id}/cancel`, { amount: 100 }, undefined);
    const again = await charge(gw, direct(), key);
    expect(again.json()).toMatchObject({ id: first.json().id, amount_refunded: 0 });
  });

  test('a declined charge replays its 402 and is not charged again', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { token: await tokenFor(gw), amount: 80 };
    const before = (await rowsOf(gw)).length;
    const first = await charge(gw, body, key);
    expectError(first, 402, '99820');
    const again = await charge(gw, body, key);
    expectError(again, 402, '99820');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await rowsOf(gw)).length).toBe(before + 1);
  });

  test('a refund with a key runs once', async ({ gateway: gw }) => {
    const id = (await charge(gw, direct(1000), undefined)).json().id;
    const key = newKey();
    const first = await post(gw, `/charge/${id}/cancel`, { amount: 300 }, key);
    const again = await post(gw, `/charge/${id}/cancel`, { amount: 300 }, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const t = (await gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(gw.merchant.test.private_key) })).json();
    expect(t).toMatchObject({ amount_refunded: 300 });
    expect(t.refunds).toHaveLength(1);
  });

  test('a 5xx is not kept: the retry runs again', async ({ gateway: gw }) => {
    const key = newKey();
    const body = { token: await tokenFor(gw, visa, gw.merchant.live.public_key), amount: 500 };
    expectError(await charge(gw, body, key, gw.merchant.live.private_key), 503, 'PROC01');
    const again = await charge(gw, body, key, gw.merchant.live.private_key);
    expectError(again, 503, 'PROC01');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('conflicts and bad keys', () => {
  test('same key with another body is 422 IDEM02 and charges nothing', async ({ gateway: gw }) => {
    const key = newKey();
    const token = await tokenFor(gw);
    expect((await charge(gw, { token, amount: 1200 }, key)).statusCode).toBe(200);
    const before = (await rowsOf(gw)).length;
    const other = await tokenFor(gw);
    expectError(await charge(gw, { token: other, amount: 1200 }, key), 422, 'IDEM02');
    expectError(await charge(gw, { token, amount: 1300 }, key), 422, 'IDEM02');
    expect((await rowsOf(gw)).length).toBe(before);
    expect((await charge(gw, { token: other, amount: 1200 }, undefined)).statusCode).toBe(200);
  });

  test.for([
    ['256 characters', 'k'.repeat(256)],
    ['empty', ''],
    ['with a space', 'a b'],
    ['non-ASCII', 'clé'],
  ] as const)('a key %s is 400 IDEM01; nothing is charged, the token stays usable', async ([_, key], { gateway: gw }) => {
    const token = await tokenFor(gw);
    const before = (await rowsOf(gw)).length;
    expectError(await charge(gw, { token, amount: 1200 }, key), 400, 'IDEM01');
    expect((await rowsOf(gw)).length).toBe(before);
    expect((await charge(gw, { token, amount: 1200 }, undefined)).statusCode).toBe(200);
  });

  test('a key of 255 characters is fine', async ({ gateway: gw }) => {
    const key = 'k'.repeat(254) + String(n++ % 10);
    const res = await charge(gw, direct(), key);
    expect(res.statusCode).toBe(200);
    expect((await charge(gw, direct(), key)).json().id).toBe(res.json().id);
  });
});

describe('scope: merchant, environment, endpoint', () => {
  test('the same key on another endpoint is independent', async ({ gateway: gw }) => {
    const key = newKey();
    const charged = await charge(gw, direct(1000), key);
    expect(charged.statusCode).toBe(200);
    const refund = await post(gw, `/charge/${charged.json().id}/cancel`, { amount: 1000 }, key);
    expect(refund.statusCode).toBe(200);
    expect(refund.headers['idempotent-replayed']).toBeUndefined();
    expect(refund.json()).toMatchObject({ refunded: true });
    const settings = await post(gw, '/settings', { cvv_check: false }, key);
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ class: 'settings' });
  });

  test('the same key for another merchant is independent', async ({ gateway: gw }) => {
    const key = newKey();
    const mine = await charge(gw, direct(), key);
    const theirs = await charge(gw, direct(), key, gw.other.test.private_key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.json().merchant_id).toBe(gw.other.id);
    expect(await rowsOf(gw, gw.other)).toContain(theirs.json().id);
  });

  test('the same key in the live environment is independent (a different body is not IDEM02 there)', async ({ gateway: gw }) => {
    const key = newKey();
    expect((await charge(gw, direct(), key)).statusCode).toBe(200);
    const token = await tokenFor(gw, visa, gw.merchant.live.public_key);
    expectError(await charge(gw, { token, amount: 700 }, key, gw.merchant.live.private_key), 503, 'PROC01');
  });
});

describe('public keys', () => {
  test('POST /tokens with the public key ignores Idempotency-Key: a guessed key replays no shopper\'s token, a corrected card is not refused again', async ({ gateway: gw }) => {
    const key = newKey();
    const pk = gw.merchant.test.public_key;
    const shopper = await post(gw, '/tokens', { ...visa, card_number: '5105105105105100' }, key, pk);
    expect(shopper.statusCode).toBe(200);
    const attacker = await post(gw, '/tokens', visa, key, pk);
    expect(attacker.statusCode).toBe(200);
    expect(attacker.headers['idempotent-replayed']).toBeUndefined();
    expect(attacker.json().id).not.toBe(shopper.json().id);
    expect(attacker.json().last_4).toBe('1111');
    const typo = newKey();
    expectError(await post(gw, '/tokens', { ...visa, card_number: '4111111111111112' }, typo, pk), 400, '11112');
    expect((await post(gw, '/tokens', visa, typo, pk)).statusCode).toBe(200);
    // Not even read: a value a private key would be refused for passes.
    expect((await post(gw, '/tokens', visa, 'x'.repeat(300), pk)).statusCode).toBe(200);
    expect((await gw.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]))[0].n).toBe(0);
  });

  test('the private key keeps it on POST /tokens', async ({ gateway: gw }) => {
    const key = newKey();
    const first = await post(gw, '/tokens', visa, key);
    const again = await post(gw, '/tokens', visa, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
  });
});

describe('lifetime', () => {
  test('within 24 hours the key replays; after 24 hours the request runs again', async ({ gateway: gw }) => {
    const key = newKey();
    const first = await charge(gw, direct(), key);
    gw.clock.advance(23 * 3600_000);
    const replay = await charge(gw, direct(), key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(first.json().id);
    gw.clock.advance(3600_000 + 1);
    const fresh = await charge(gw, direct(), key);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.json().id).not.toBe(first.json().id);
    expect(await rowsOf(gw)).toEqual(expect.arrayContaining([first.json().id, fresh.json().id]));
    // ...and the new answer is what the key replays from now on.
    expect((await charge(gw, direct(), key)).json().id).toBe(fresh.json().id);
  });

  test('a claim still in progress is 409 IDEM03; one abandoned for over a minute by the database clock is taken over', async ({ gateway: gw }) => {
    const key = newKey();
    const m = gw.merchant;
    // A request that claimed the key and never finished (a process from before claims named their
    // owner, so only its age tells it is gone), with the same body: card fields are not in the fingerprint.
    const { card_number: _n, csc: _c, ...fingerprinted } = direct();
    await gw.db.query(
      `INSERT INTO idempotency_keys (merchant_id, env, endpoint, key, request_hash, created_at)
       VALUES ($1, 'test', '/api/v1/charge', $2, $3, $4)`,
      [m.id, key, `h2.${gw.vault.mac('idempotency', sortedJson(fingerprinted))}`, gw.clock.now()],
    );
    const before = (await rowsOf(gw)).length;
    // Its age is the database's reckoning (claimed_at), not the gateway's clock.
    const heldFor = (s: number) => gw.db.query(`UPDATE idempotency_keys SET claimed_at = now() - $2::int * interval '1 second' WHERE key = $1`, [key, s]);
    expectError(await charge(gw, direct(), key), 409, 'IDEM03');
    gw.clock.advance(120_000);
    expectError(await charge(gw, direct(), key), 409, 'IDEM03');
    await heldFor(30);
    expectError(await charge(gw, direct(), key), 409, 'IDEM03');
    await heldFor(61);
    const res = await charge(gw, direct(), key);
    expect(res.statusCode).toBe(200);
    expect((await rowsOf(gw)).length).toBe(before + 1);
  });
});

describe('50 parallel requests with one key and one body', () => {
  test('one transaction; every answer is 200 with its id or 409 IDEM03; no 5xx', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const key = newKey();
    const body = { token: await tokenFor(gw, visa, m.test.public_key), amount: 4200 };
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(gw, body, key, m.test.private_key)));
    expect(results.filter((r) => r.statusCode >= 500)).toHaveLength(0);
    const rows = await rowsOf(gw, m);
    expect(rows).toHaveLength(1);
    for (const r of results) {
      if (r.statusCode === 200) expect(r.json().id).toBe(rows[0]);
      else expectError(r, 409, 'IDEM03');
    }
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    // Once it has finished, the key replays for everyone.
    const after = await charge(gw, body, key, m.test.private_key);
    expect(after.json().id).toBe(rows[0]);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });
});
