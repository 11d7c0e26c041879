import { createHash } from 'node:crypto';
import { ExpireOld, KEY_LENGTH, createKeySet } from '../../../server/domain/merchant/keys.js';
import { validatePublicKey } from '../../../src/checks.js';
import { Merchant, TestGateway, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

const REAL_VISA = '4012888888881881';

const getToken = (gw: TestGateway, id: string, headers: Record<string, string>) =>
  gw.app.inject({ url: `/api/v1/tokens/${id}`, headers });
const postToken = (gw: TestGateway, headers: Record<string, string>) =>
  gw.app.inject({ method: 'POST', url: '/api/v1/tokens', headers, payload: visa });

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('who gets in', () => {
  let id: string;
  test.beforeAll(async ({ gateway: gw }) => { id = await tokenFor(gw, visa); });

  test.for<[string, (gw: TestGateway) => Record<string, string>]>([
    ['no Authorization header', () => ({})],
    ['Bearer scheme', (gw: TestGateway) => ({ authorization: `Bearer ${gw.merchant.test.private_key}` })],
    ['Basic without credentials', () => ({ authorization: 'Basic' })],
    ['Basic with non-base64 junk', () => ({ authorization: 'Basic !!!not-base64!!!' })],
    ['empty username', () => ({ authorization: `Basic ${b64(':secret')}` })],
    ['the key as password instead of username', (gw: TestGateway) => ({ authorization: `Basic ${b64(`:${gw.merchant.test.private_key}`)}` })],
    ['raw key without Basic', (gw: TestGateway) => ({ authorization: gw.merchant.test.private_key })],
    ['unknown key of the right shape', () => basic(`test_sk_${'a'.repeat(55)}`)],
    ['upper-case hex', (gw: TestGateway) => basic(gw.merchant.test.private_key.toUpperCase())],
    ['truncated key', (gw: TestGateway) => basic(gw.merchant.test.private_key.slice(0, 62))],
    ['key with a trailing character', (gw: TestGateway) => basic(`${gw.merchant.test.private_key}0`)],
  ])('%s -> 401 AUTH01', async ([_, headers], { gateway: gw }) => {
    const res = await getToken(gw, id, headers(gw));
    expectError(res, 401, 'AUTH01');
    expect(res.body).not.toContain(gw.merchant.test.private_key);
  });

  test('a request without credentials is challenged (WWW-Authenticate: Basic); a wrong key and a browser fetch are not', async ({ gateway: gw }) => {
    // Clients that send the key only when asked (curl --anyauth, PHP CURLAUTH_ANY, Java's Authenticator).
    const bare = await getToken(gw, id, {});
    expectError(bare, 401, 'AUTH01');
    expect(bare.headers['www-authenticate']).toBe('Basic realm="Tessera API", charset="UTF-8"');
    // Asking again would not make a wrong key right; a browser would show its own sign-in dialog.
    const wrong = await getToken(gw, id, basic(`test_sk_${'a'.repeat(55)}`));
    expectError(wrong, 401, 'AUTH01');
    expect(wrong.headers['www-authenticate']).toBeUndefined();
    const fromPage = await getToken(gw, id, { 'sec-fetch-mode': 'cors' });
    expectError(fromPage, 401, 'AUTH01');
    expect(fromPage.headers['www-authenticate']).toBeUndefined();
    // Other errors carry no challenge.
    expect((await getToken(gw, id, basic(gw.merchant.test.public_key))).headers['www-authenticate']).toBeUndefined();
  });

  test('the private key works; a password after the colon is ignored', async ({ gateway: gw }) => {
    expect((await getToken(gw, id, basic(gw.merchant.test.private_key))).statusCode).toBe(200);
    const withPassword = { authorization: `Basic ${b64(`${gw.merchant.test.private_key}:whatever`)}` };
    expect((await getToken(gw, id, withPassword)).statusCode).toBe(200);
  });

  test('a public key cannot read a token: 403 AUTH02', async ({ gateway: gw }) => {
    expectError(await getToken(gw, id, basic(gw.merchant.test.public_key)), 403, 'AUTH02');
    expectError(await getToken(gw, id, basic(gw.merchant.live.public_key)), 403, 'AUTH02');
  });

  test('POST /tokens takes the public key (and the server-side private key); nothing else', async ({ gateway: gw }) => {
    expect((await postToken(gw, basic(gw.merchant.test.public_key))).statusCode).toBe(200);
    expect((await postToken(gw, basic(gw.merchant.test.private_key))).statusCode).toBe(200);
    expectError(await postToken(gw, {}), 401, 'AUTH01');
    expectError(await postToken(gw, basic(`test_pk_${'b'.repeat(55)}`)), 401, 'AUTH01');
  });
});

describe('records never cross environments or merchants', () => {
  test('a test token is invisible to the live key and the live token to the test key', async ({ gateway: gw }) => {
    const testId = await tokenFor(gw, visa, gw.merchant.test.public_key);
    const liveId = await tokenFor(gw, { ...visa, card_number: REAL_VISA }, gw.merchant.live.public_key);
    expect((await getToken(gw, testId, basic(gw.merchant.test.private_key))).statusCode).toBe(200);
    expect((await getToken(gw, liveId, basic(gw.merchant.live.private_key))).statusCode).toBe(200);
    expectError(await getToken(gw, testId, basic(gw.merchant.live.private_key)), 404, '882719');
    expectError(await getToken(gw, liveId, basic(gw.merchant.test.private_key)), 404, '882719');
  });

  test('merchant A cannot see merchant B\'s token', async ({ gateway: gw }) => {
    const mine = await tokenFor(gw, visa, gw.merchant.test.public_key);
    const theirs = await tokenFor(gw, visa, gw.other.test.public_key);
    expectError(await getToken(gw, theirs, basic(gw.merchant.test.private_key)), 404, '882719');
    expectError(await getToken(gw, mine, basic(gw.other.test.private_key)), 404, '882719');
    expect((await getToken(gw, theirs, basic(gw.other.test.private_key))).statusCode).toBe(200);
  });
});

describe('key rotation', () => {
  const rotate = (gw: TestGateway, m: Merchant, expireOld: ExpireOld) =>
    createKeySet(gw.db, { merchantId: m.id, env: 'test' }, gw.clock.now(), expireOld);
  const status = async (gw: TestGateway, sk: string, pk: string) => {
    const id = await tokenFor(gw, visa, gw.merchant.test.public_key);
    return [
      (await getToken(gw, id, basic(sk))).statusCode === 404 ? 'ok' : 'denied',
      (await postToken(gw, basic(pk))).statusCode === 200 ? 'ok' : 'denied',
    ];
  };

  test('expireOld "now": the old set fails at once, the new set and the live set work', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const next = await rotate(gw, m, 'now');
    expect(await status(gw, m.test.private_key, m.test.public_key)).toEqual(['denied', 'denied']);
    expectError(await getToken(gw, 'ffffffffff', basic(m.test.private_key)), 401, 'AUTH01');
    expect(await status(gw, next.private_key, next.public_key)).toEqual(['ok', 'ok']);
    expect(await status(gw, m.live.private_key, m.live.public_key)).toEqual(['ok', 'ok']);
  });

  test('expireOld "1h": the old set works until the hour is over', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const next = await rotate(gw, m, '1h');
    expect(await status(gw, m.test.private_key, m.test.public_key)).toEqual(['ok', 'ok']);
    gw.clock.advance(3600_000 - 1);
    expect(await status(gw, m.test.private_key, m.test.public_key)).toEqual(['ok', 'ok']);
    gw.clock.advance(1);
    expect(await status(gw, m.test.private_key, m.test.public_key)).toEqual(['denied', 'denied']);
    expect(await status(gw, next.private_key, next.public_key)).toEqual(['ok', 'ok']);
  });

  test('a later "now" rotation cuts short an earlier one-hour grace', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const second = await rotate(gw, m, '1h');
    const third = await rotate(gw, m, 'now');
    expect(await status(gw, m.test.private_key, m.test.public_key)).toEqual(['denied', 'denied']);
    expect(await status(gw, second.private_key, second.public_key)).toEqual(['denied', 'denied']);
    expect(await status(gw, third.private_key, third.public_key)).toEqual(['ok', 'ok']);
  });

  test('an expired public key is AUTH01 on the JSONP endpoint too', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    await rotate(gw, m, 'now');
    const q = new URLSearchParams({ public_api_key: m.test.public_key, callback: 'cb', ...visa } as any);
    const res = await gw.app.inject({ url: `/api/v1/tokens/jsonp?${q}` });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body.slice('/**/cb('.length, -2)).errors[0].code).toBe('AUTH01');
  });
});

describe('keys at rest', () => {
  test('keys are 63 characters with their environment and kind in the prefix', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const keys: [string, RegExp][] = [
      [m.test.public_key, /^test_pk_[0-9a-f]{55}$/],
      [m.test.private_key, /^test_sk_[0-9a-f]{55}$/],
      [m.live.public_key, /^live_pk_[0-9a-f]{55}$/],
      [m.live.private_key, /^live_sk_[0-9a-f]{55}$/],
    ];
    for (const [key, pattern] of keys) {
      expect(key).toHaveLength(KEY_LENGTH);
      expect(KEY_LENGTH).toBe(63);
      expect(key).toMatch(pattern);
    }
    expect(validatePublicKey(m.test.public_key)).toBeNull(); // the tokenizer's own check agrees
    expect(new Set(keys.map(([k]) => k)).size).toBe(4);
  });

  test('api_keys rows hold private keys only as SHA-256 hashes', async ({ gateway: gw }) => {
    const rows = await gw.db.query('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    for (const m of [gw.merchant, gw.other]) {
      for (const set of [m.test, m.live]) {
        expect(dump).not.toContain(set.private_key);
        expect(dump).not.toContain(set.private_key.slice(8)); // not even the random part
        const hash = createHash('sha256').update(set.private_key).digest('hex');
        const sk = rows.filter((r) => r.key_hash === hash);
        expect(sk).toHaveLength(1);
        expect(sk[0]).toMatchObject({ kind: 'sk', merchant_id: m.id, env: set.env, public_key: null });
        // public keys are not secret: kept whole for the demo page
        const pk = rows.find((r) => r.public_key === set.public_key);
        expect(pk).toMatchObject({ kind: 'pk', key_set_id: sk[0].key_set_id });
      }
    }
  });
});

describe('authentication comes before the body', () => {
  test('no key and an invalid body: 401 AUTH01, not a validation error', async ({ newGateway }) => {
    const gw2 = await newGateway();
    const res = await gw2.app.inject({ method: 'POST', url: '/api/v1/charge', headers: { 'content-type': 'application/json' }, payload: '{not json' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AUTH01');
    const pub = await gw2.app.inject({
      method: 'POST', url: '/api/v1/webhooks/rules', headers: { ...basic(gw2.merchant.test.public_key), 'content-type': 'application/json' }, payload: '{"event_resource": 5',
    });
    expect(pub.statusCode).toBe(403);
    expect(pub.json().errors[0].code).toBe('AUTH02');
  });
});
