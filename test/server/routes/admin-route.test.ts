import { randomBytes } from 'node:crypto';
import { buildApp } from '../../../server/app.js';
import { systemClock } from '../../../server/clock.js';
import { loopbackUrl } from '../../../server/control-file.js';
import adminRoutes, { ADMIN_KEYS_PATH, isLoopback } from '../../../server/routes/admin.js';
import { Vault } from '../../../server/vault.js';
import { testDb } from '../../helpers/gateway.js';
import { TestGateway, basic, describe, expect, test as base } from '../../fixtures.js';

// The loopback admin route `tessera keys` uses while an embedded gateway holds its data directory.
const TOKEN = randomBytes(32).toString('hex');
const bearer = (t = TOKEN) => ({ authorization: `Bearer ${t}` });

/** The gateway fixture with the admin route registered (token TOKEN), as `admin`. */
const test = base.extend<{ admin: TestGateway }>({
  admin: [async ({ gateway }, use) => {
    await gateway.app.register(adminRoutes, { token: TOKEN });
    await use(gateway);
  }, { scope: 'file' }],
});

describe('with the token, from loopback', () => {
  test('POST creates a key set that authenticates; GET lists it, redacted', async ({ admin: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: ADMIN_KEYS_PATH, headers: bearer(), payload: { merchant: gw.merchant.id, expire_old: 'never' } });
    expect(res.statusCode).toBe(200);
    const { merchant_id, key_set } = res.json();
    expect(merchant_id).toBe(gw.merchant.id);
    expect(key_set).toMatchObject({ env: 'test', key_set_id: expect.stringMatching(/^ks_/) });
    expect(key_set.private_key).toMatch(/^test_sk_[0-9a-f]{55}$/);
    const tx = await gw.app.inject({ url: '/api/v1/transactions', headers: basic(key_set.private_key) });
    expect(tx.statusCode).toBe(200);

    const list = await gw.app.inject({ url: `${ADMIN_KEYS_PATH}?merchant=${gw.merchant.id}`, headers: bearer() });
    expect(list.statusCode).toBe(200);
    const mine = list.json().list.filter((k: any) => k.key_set_id === key_set.key_set_id);
    expect(mine.map((k: any) => k.kind).sort()).toEqual(['pk', 'sk']);
    expect(list.body).not.toContain(key_set.private_key);
    expect(mine[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  test('without a merchant: a new merchant named as asked, live keys', async ({ admin: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: ADMIN_KEYS_PATH, headers: bearer(), payload: { name: 'Shop', env: 'live' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().merchant_id).toMatch(/^mer_[0-9a-f]{16}$/);
    expect(res.json().merchant_id).not.toBe(gw.merchant.id);
    expect(res.json().key_set.private_key).toMatch(/^live_sk_/);
  });

  test('an unknown merchant is 404 MERCHANT01 for both, and nothing is created', async ({ admin: gw }) => {
    const create = await gw.app.inject({ method: 'POST', url: ADMIN_KEYS_PATH, headers: bearer(), payload: { merchant: 'mer_nope' } });
    expect(create.statusCode).toBe(404);
    expect(create.json().errors[0].code).toBe('MERCHANT01');
    const list = await gw.app.inject({ url: `${ADMIN_KEYS_PATH}?merchant=mer_nope`, headers: bearer() });
    expect(list.statusCode).toBe(404);
    expect(list.json().errors[0].code).toBe('MERCHANT01');
    const [{ n }] = await gw.db.query("SELECT count(*)::int AS n FROM api_keys WHERE merchant_id = 'mer_nope'");
    expect(n).toBe(0);
  });

  test('bad values are 400 in the catalogue shape, never 500', async ({ admin: gw }) => {
    for (const payload of [{ env: 'prod' }, { expire_old: 'later' }, { merchant: '' }, { name: { a: 1 } }]) {
      const res = await gw.app.inject({ method: 'POST', url: ADMIN_KEYS_PATH, headers: bearer(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const noMerchant = await gw.app.inject({ url: ADMIN_KEYS_PATH, headers: bearer() });
    expect(noMerchant.statusCode).toBe(400);
  });
});

describe('refusals', () => {
  test('a wrong, missing or malformed token is 401 ADMIN01', async ({ admin: gw }) => {
    for (const headers of [bearer(randomBytes(32).toString('hex')), bearer('ab'), {}, basic(gw.merchant.test.private_key), { authorization: `Bearer ${TOKEN}x` }]) {
      for (const req of [{ url: `${ADMIN_KEYS_PATH}?merchant=${gw.merchant.id}` }, { method: 'POST' as const, url: ADMIN_KEYS_PATH, payload: {} }]) {
        const res = await gw.app.inject({ ...req, headers });
        expect(res.statusCode).toBe(401);
        expect(res.json().errors[0].code).toBe('ADMIN01');
      }
    }
  });

  test('a connection from another address is the ordinary 404, token or not; loopback in any spelling is let through', async ({ admin: gw }) => {
    for (const remoteAddress of ['10.0.0.1', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1']) {
      const res = await gw.app.inject({ url: `${ADMIN_KEYS_PATH}?merchant=${gw.merchant.id}`, headers: bearer(), remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.json().errors[0].code).toBe('NOTFOUND');
    }
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2']) {
      const res = await gw.app.inject({ url: `${ADMIN_KEYS_PATH}?merchant=${gw.merchant.id}`, headers: bearer(), remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
    }
  });

  test('behind a trusted proxy, X-Forwarded-For: 127.0.0.1 from another address is still 404', async () => {
    const db = await testDb();
    const app = await buildApp({ db, vault: new Vault(randomBytes(32)), clock: systemClock }, { trustProxy: 1 });
    await app.register(adminRoutes, { token: TOKEN });
    try {
      const res = await app.inject({
        url: `${ADMIN_KEYS_PATH}?merchant=mer_x`, headers: { ...bearer(), 'x-forwarded-for': '127.0.0.1' }, remoteAddress: '10.0.0.1',
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].code).toBe('NOTFOUND');
    } finally {
      await app.close();
      await db.drop();
    }
  });

  test('a gateway without a token (no embedded data directory) has no such route', async () => {
    const db = await testDb();
    const app = await buildApp({ db, vault: new Vault(randomBytes(32)), clock: systemClock });
    try {
      const res = await app.inject({ url: `${ADMIN_KEYS_PATH}?merchant=mer_x`, headers: bearer() });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].code).toBe('NOTFOUND');
    } finally {
      await app.close();
      await db.drop();
    }
  });

  test('the route is not in the OpenAPI document', async ({ admin: gw }) => {
    const doc = (await gw.app.inject({ url: '/api/v1/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/charge');
    expect(paths.filter((p) => p.includes('admin') || p.includes('_tessera'))).toEqual([]);
  });
});

test('isLoopback and loopbackUrl: what counts as this machine, and where the command calls', () => {
  expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
  expect(['10.0.0.1', '::ffff:10.0.0.1', '0.0.0.0', '::', '', undefined, '1127.0.0.1', '127.0.0.1.evil'].some(isLoopback)).toBe(false);
  expect(loopbackUrl({ address: '0.0.0.0', port: 80, family: 'IPv4' })).toBe('http://127.0.0.1:80');
  expect(loopbackUrl({ address: '127.0.0.5', port: 81, family: 'IPv4' })).toBe('http://127.0.0.5:81');
  expect(loopbackUrl({ address: '::', port: 82, family: 'IPv6' })).toBe('http://[::1]:82');
  expect(loopbackUrl({ address: '::1', port: 83, family: 'IPv6' })).toBe('http://[::1]:83');
  expect(loopbackUrl({ address: '192.168.1.5', port: 84, family: 'IPv4' })).toBeNull();
  expect(loopbackUrl(null)).toBeNull();
});
