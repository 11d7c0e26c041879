import { hashKey } from '../../../server/domain/merchant/keys.js';
import { setConnection } from '../../../server/domain/merchant/processor-connections.js';
import { builtInRegistry } from '../../../server/processor/registry.js';
import { Merchant, TestGateway, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';

// The dashboard's own endpoints (/api/v1/dashboard/…) and its page: auth, redaction, key sets of
// both environments, test/live isolation, transaction filters (domain/payments/transactions.ts).

const get = (gw: TestGateway, url: string, key: string) => gw.app.inject({ url, headers: basic(key) });
const post = (gw: TestGateway, url: string, key: string, payload?: object, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'POST', url, headers: { ...basic(key), ...headers }, ...(payload ? { payload } : {}) });

/** No whole key of either kind anywhere in a body: 63-character keys, or their hex tails. */
function expectNoWholeKeys(body: string, ...keys: string[]) {
  for (const k of keys) {
    expect(body).not.toContain(k);
    expect(body).not.toContain(k.slice(8)); // the random part
  }
  expect(body).not.toMatch(/(test|live)_sk_[0-9a-f]{55}/);
}

/** The gateway fixture, plus `m`: a merchant of this file's own, made once per file. */
const test = base.extend<{ m: Merchant }>({ m: [async ({ gateway }, use) => use(await gateway.newMerchant()), { scope: 'file' }] });

describe('auth', () => {
  test.for(['/api/v1/dashboard/overview', '/api/v1/dashboard/keys', '/api/v1/dashboard/processor', '/api/v1/dashboard/test-cards', '/api/v1/dashboard/transactions'])(
    'GET %s: public key 403, no key 401',
    async (url, { gateway: gw, m }) => {
      expectError(await get(gw, url, m.test.public_key), 403, 'AUTH02');
      expectError(await gw.app.inject({ url }), 401, 'AUTH01');
    },
  );

  test('POST /dashboard/keys: public key 403, no key 401, nothing created', async ({ gateway: gw, m }) => {
    const before = await gw.db.query('SELECT count(*)::int AS n FROM api_keys WHERE merchant_id = $1', [m.id]);
    expectError(await post(gw, '/api/v1/dashboard/keys', m.test.public_key, { expire_old: 'now' }), 403, 'AUTH02');
    expectError(await gw.app.inject({ method: 'POST', url: '/api/v1/dashboard/keys', payload: {} }), 401, 'AUTH01');
    const after = await gw.db.query('SELECT count(*)::int AS n FROM api_keys WHERE merchant_id = $1', [m.id]);
    expect(after[0].n).toBe(before[0].n);
  });

  test('the page and its assets need no key and forbid framing and foreign scripts', async ({ gateway: gw }) => {
    // The page, its modules (pages/ too) and styles, and uPlot's browser build from its package.
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/dashboard.js', '/dashboard/dashboard.css', '/dashboard/api.js',
      '/dashboard/pages/home.js', '/dashboard/vendor/uPlot.iife.min.js', '/dashboard/vendor/uPlot.min.css']) {
      const res = await gw.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const page = await gw.app.inject({ url: '/dashboard' });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<script type="module" src="/dashboard/dashboard.js">');
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/); // no inline script (the CSP would block it)
    // Nothing else under public/ is served (unknown paths answer like any unknown route).
    expect((await gw.app.inject({ url: '/dashboard/index.html' })).statusCode).not.toBe(200);
    expect((await gw.app.inject({ url: '/dashboard/dashboard.test.ts' })).statusCode).not.toBe(200);
    expect((await gw.app.inject({ url: '/dashboard/jsconfig.json' })).statusCode).not.toBe(200);
    expect((await gw.app.inject({ url: '/dashboard/vendor/uPlot.cjs.js' })).statusCode).not.toBe(200);
    const module = await gw.app.inject({ url: '/dashboard/pages/home.js' });
    expect(module.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(module.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('overview', () => {
  test('names the merchant and environment, and carries the newest test public key', async ({ gateway: gw, m }) => {
    const res = await get(gw, '/api/v1/dashboard/overview', m.test.private_key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      class: 'dashboard_overview', merchant_id: m.id, name: 'Test merchant', env: 'test', live_enabled: true,
      test_public_key: m.test.public_key, now: gw.clock.now().toISOString(), clock_offset_ms: 0,
    });
    expect(res.body).not.toContain(m.test.private_key);
    const live = (await get(gw, '/api/v1/dashboard/overview', m.live.private_key)).json();
    expect(live).toMatchObject({ env: 'live', merchant_id: m.id, test_public_key: m.test.public_key });
  });

  test("'now' follows the merchant's test clock in test mode only", async ({ gateway: gw, m }) => {
    await gw.db.query('INSERT INTO test_clocks (merchant_id, offset_ms, updated_at) VALUES ($1, $2, $3)', [m.id, 86_400_000, gw.clock.now()]);
    try {
      const test = (await get(gw, '/api/v1/dashboard/overview', m.test.private_key)).json();
      expect(test.clock_offset_ms).toBe(86_400_000);
      expect(Date.parse(test.now)).toBe(gw.clock.now().getTime() + 86_400_000);
      const live = (await get(gw, '/api/v1/dashboard/overview', m.live.private_key)).json();
      expect(live.clock_offset_ms).toBe(0);
      expect(live.now).toBe(gw.clock.now().toISOString());
    } finally {
      await gw.db.query('DELETE FROM test_clocks WHERE merchant_id = $1', [m.id]);
    }
  });
});

describe('processor connection (the Settings page)', () => {
  test('each environment: test the simulator; live not configured, then the connector and its settings, never its key', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const none = await get(gw, '/api/v1/dashboard/processor', x.test.private_key);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({
      class: 'processor_connections',
      test: { env: 'test', connector: 'simulator', configured: true, settings: {}, secrets: {}, created_at: null, updated_at: null },
      live: { env: 'live', connector: null, configured: false, settings: {}, secrets: {}, created_at: null, updated_at: null },
    });
    const key = 'TkEy0123456789ab';
    const input = { merchantId: x.id, env: 'live' as const, connector: 'authorizenet', fields: { login_id: 'Login42', transaction_key: key }, sandbox: true };
    await gw.db.tx((q) => setConnection(q, gw.vault, builtInRegistry(), input, gw.clock.now()));
    const res = await get(gw, '/api/v1/dashboard/processor', x.test.private_key);
    expect(res.json().live).toEqual({
      env: 'live', connector: 'authorizenet', configured: true, settings: { login_id: 'Login42', sandbox: true, endpoint: null },
      secrets: { transaction_key: 'set' }, created_at: gw.clock.now().toISOString(), updated_at: gw.clock.now().toISOString(),
    });
    expect(res.body).not.toContain(key);
    expect(res.body).not.toContain('v2.'); // nor its blob
    // The same answer whichever environment's key asks; another merchant sees its own (none).
    expect((await get(gw, '/api/v1/dashboard/processor', x.live.private_key)).json()).toEqual(res.json());
    expect((await get(gw, '/api/v1/dashboard/processor', gw.merchant.test.private_key)).json().live.configured).toBe(false);
    // The page's module asks for it.
    expect((await gw.app.inject({ url: '/dashboard/pages/settings.js' })).body).toContain("api('/dashboard/processor')");
  });
});

describe('key sets', () => {
  test('lists both environments side by side, redacted, never a whole private key', async ({ m, gateway: gw }) => {
    const res = await get(gw, '/api/v1/dashboard/keys', m.test.private_key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.live_enabled).toBe(true);
    expect(body.test).toEqual([
      {
        key_set_id: m.test.key_set_id, env: 'test', status: 'active', expires_at: null, created_at: expect.any(String),
        public_key: `${m.test.public_key.slice(0, 8)}…${m.test.public_key.slice(-4)}`,
        private_key: `${m.test.private_key.slice(0, 8)}…${m.test.private_key.slice(-4)}`,
        private_key_exposed_at: null,
      },
    ]);
    expect(body.live).toHaveLength(1);
    expect(body.live[0]).toMatchObject({ key_set_id: m.live.key_set_id, env: 'live', private_key: expect.stringMatching(/^live_sk_…[0-9a-f]{4}$/) });
    expectNoWholeKeys(res.body, m.test.private_key, m.live.private_key, m.test.public_key, m.live.public_key);
    // The same answer whichever environment's key asks.
    expect((await get(gw, '/api/v1/dashboard/keys', m.live.private_key)).json()).toEqual(body);
  });

  test('a private key sent to the JSONP endpoint shows as exposed on its set, first sighting kept, that merchant only', async ({ gateway: gw, m }) => {
    const x = await gw.newMerchant();
    const jsonp = (key: string) => gw.app.inject({
      url: '/api/v1/tokens/jsonp',
      query: { callback: 'cb', public_api_key: key, ...Object.fromEntries(Object.entries(visa).map(([k, v]) => [k, String(v)])) },
    });
    const first = gw.clock.now().toISOString();
    await jsonp(x.live.private_key);
    gw.clock.advance(60_000);
    await jsonp(x.live.private_key);
    await jsonp(x.test.public_key); // a public key is where it belongs
    const body = (await get(gw, '/api/v1/dashboard/keys', x.test.private_key)).json();
    expect(body.live.map((s: any) => [s.key_set_id, s.private_key_exposed_at])).toEqual([[x.live.key_set_id, first]]);
    expect(body.test.map((s: any) => s.private_key_exposed_at)).toEqual([null]);
    const others = (await get(gw, '/api/v1/dashboard/keys', m.test.private_key)).json();
    expect(new Set([...others.test, ...others.live].map((s: any) => s.private_key_exposed_at))).toEqual(new Set([null]));
    expectNoWholeKeys(JSON.stringify(body), x.live.private_key);
  });

  test("another merchant's key sets never appear", async ({ gateway: gw }) => {
    const other = (await get(gw, '/api/v1/dashboard/keys', gw.other.test.private_key)).json();
    const ids = [...other.test, ...other.live].map((s: any) => s.key_set_id);
    expect(ids).toEqual([gw.other.test.key_set_id, gw.other.live.key_set_id]);
  });

  test('a new set is shown once in full, works at once, and is redacted in every later listing', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const res = await post(gw, '/api/v1/dashboard/keys', x.test.private_key, { expire_old: '1h' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const set = res.json();
    expect(set).toEqual({
      class: 'key_set', key_set_id: expect.stringMatching(/^ks_/), env: 'test',
      public_key: expect.stringMatching(/^test_pk_[0-9a-f]{55}$/), private_key: expect.stringMatching(/^test_sk_[0-9a-f]{55}$/),
      created_at: gw.clock.now().toISOString(), old_keys_expire_at: new Date(gw.clock.now().getTime() + 3600_000).toISOString(),
    });
    // Only the hash is stored.
    const stored = await gw.db.query('SELECT key_hash, public_key FROM api_keys WHERE key_set_id = $1 ORDER BY kind', [set.key_set_id]);
    expect(stored.map((r) => r.key_hash).sort()).toEqual([hashKey(set.private_key), hashKey(set.public_key)].sort());
    expect(JSON.stringify(stored)).not.toContain(set.private_key);

    // Usable in an API call right away; the old key still works for the hour.
    expect((await get(gw, '/api/v1/transactions', set.private_key)).statusCode).toBe(200);
    expect((await get(gw, '/api/v1/transactions', x.test.private_key)).statusCode).toBe(200);

    const list = await get(gw, '/api/v1/dashboard/keys', set.private_key);
    expectNoWholeKeys(list.body, set.private_key, set.public_key, x.test.private_key);
    const sets = list.json().test;
    expect(sets.map((s: any) => [s.key_set_id, s.status])).toEqual([[set.key_set_id, 'active'], [x.test.key_set_id, 'expiring']]);
    expect(sets[1].expires_at).toBe(set.old_keys_expire_at);

    // An hour later the old set has expired.
    gw.clock.advance(3600_000);
    expectError(await get(gw, '/api/v1/transactions', x.test.private_key), 401, 'AUTH01');
    const later = (await get(gw, '/api/v1/dashboard/keys', set.private_key)).json().test;
    expect(later.map((s: any) => s.status)).toEqual(['active', 'expired']);
  });

  test('expire_old=now ends the old keys at once; the live set is untouched', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const set = (await post(gw, '/api/v1/dashboard/keys', x.test.private_key, { expire_old: 'now' })).json();
    expect(set.old_keys_expire_at).toBe(set.created_at);
    expectError(await get(gw, '/api/v1/transactions', x.test.private_key), 401, 'AUTH01');
    expectError(await post(gw, '/api/v1/tokens', x.test.public_key, visa), 401, 'AUTH01');
    expect((await get(gw, '/api/v1/transactions', set.private_key)).statusCode).toBe(200);
    expect((await get(gw, '/api/v1/transactions', x.live.private_key)).statusCode).toBe(200);
    const keys = (await get(gw, '/api/v1/dashboard/keys', set.private_key)).json();
    expect(keys.live.map((s: any) => s.status)).toEqual(['active']);
  });

  test('without expire_old the old keys expire now (as the CLI); env defaults to the signed-in one', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const set = (await post(gw, '/api/v1/dashboard/keys', x.live.private_key, {})).json();
    expect(set.env).toBe('live');
    expectError(await get(gw, '/api/v1/transactions', x.live.private_key), 401, 'AUTH01');
    const none = await gw.app.inject({ method: 'POST', url: '/api/v1/dashboard/keys', headers: basic(set.private_key) });
    expect(none.statusCode).toBe(200);
  });

  test('a live key may create test keys; a test key may never create live keys', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const fromLive = await post(gw, '/api/v1/dashboard/keys', x.live.private_key, { env: 'test', expire_old: 'now' });
    expect(fromLive.statusCode).toBe(200);
    expect(fromLive.json().env).toBe('test');
    expect((await get(gw, '/api/v1/transactions', x.live.private_key)).statusCode).toBe(200); // its own set stays

    const fromTest = await post(gw, '/api/v1/dashboard/keys', fromLive.json().private_key, { env: 'live', expire_old: 'now' });
    expectError(fromTest, 403, 'AUTH04');
    expect(fromTest.json().errors[0].message).toMatch(/live private key/);
    expect((await get(gw, '/api/v1/transactions', x.live.private_key)).statusCode).toBe(200);
    const keys = (await get(gw, '/api/v1/dashboard/keys', x.live.private_key)).json();
    expect(keys.live).toHaveLength(1);
  });

  test('a merchant without live keys is not live-enabled, and its test key cannot enable it', async ({ gateway: gw }) => {
    const { createMerchant, createKeySet } = await import('../../../server/domain/merchant/keys.js');
    const id = await createMerchant(gw.db, 'Test only', gw.clock.now());
    const set = await createKeySet(gw.db, { merchantId: id, env: 'test' }, gw.clock.now());
    const keys = (await get(gw, '/api/v1/dashboard/keys', set.private_key)).json();
    expect(keys).toMatchObject({ live_enabled: false, live: [] });
    expectError(await post(gw, '/api/v1/dashboard/keys', set.private_key, { env: 'live' }), 403, 'AUTH04');
    const [row] = await gw.db.query('SELECT live_enabled FROM merchants WHERE id = $1', [id]);
    expect(row.live_enabled).toBe(false);
  });

  test.for([
    [{ expire_old: 'never' }],
    [{ expire_old: 'tomorrow' }],
    [{ env: 'prod' }],
  ] as const)('REQ01 for %j, nothing created', async ([body], { gateway: gw }) => {
    const x = await gw.newMerchant();
    expectError(await post(gw, '/api/v1/dashboard/keys', x.test.private_key, body), 400, 'REQ01');
    expect((await get(gw, '/api/v1/dashboard/keys', x.test.private_key)).json().test).toHaveLength(1);
  });

  test('an Idempotency-Key is refused: a replay would need the private key stored', async ({ gateway: gw }) => {
    const x = await gw.newMerchant();
    const res = await post(gw, '/api/v1/dashboard/keys', x.test.private_key, { expire_old: 'now' }, { 'idempotency-key': 'k1' });
    expectError(res, 400, 'REQ01');
    expect((await get(gw, '/api/v1/transactions', x.test.private_key)).statusCode).toBe(200);
    const rows = await gw.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE merchant_id = $1', [x.id]);
    expect(rows[0].n).toBe(0);
  });
});

describe('test cards', () => {
  test('the published table and the sample bank account', async ({ m, gateway: gw }) => {
    const res = await get(gw, '/api/v1/dashboard/test-cards', m.test.private_key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.list.length).toBeGreaterThanOrEqual(15);
    expect(body.list[0]).toEqual({ number: '4111111111111111', brand: 'visa', bin_type: 'CREDIT', bin_level: 'CLASSIC', outcome: 'approve', note: 'Visa, approved' });
    expect(body.list.map((c: any) => c.outcome)).toEqual(expect.arrayContaining(['decline', 'cvv_fail', 'zip_fail']));
    expect(body.bank_account).toEqual({ routing_number: '110000000', account_number: '000123456789' });
  });
});

describe('transactions with filters', () => {
  let f: Merchant;
  const ids: Record<string, string> = {};
  const list = (gw: TestGateway, query: string, key = f.test.private_key) => get(gw, `/api/v1/dashboard/transactions${query}`, key);
  const idsOf = (res: { json(): any }) => res.json().list.map((t: any) => t.id);

  test.beforeAll(async ({ gateway: gw }) => {
    f = await gw.newMerchant();
    gw.clock.advance(86_400_000); // a day of its own
    const charge = async (name: string, amount: number) => {
      const token = await tokenFor(gw, visa, f.test.public_key);
      const res = await post(gw, '/api/v1/charge', f.test.private_key, { token, amount });
      ids[name] = res.statusCode === 200 ? res.json().id : res.json().errors[0].transaction_id;
    };
    await charge('a', 500);
    gw.clock.advance(60_000);
    await charge('declined', 80);
    gw.clock.advance(86_400_000);
    await charge('b', 2500);
    gw.clock.advance(60_000);
    await charge('c', 10_000);
    // The live environment and another merchant have charges too; they must never show.
    const token = await tokenFor(gw, visa, gw.other.test.public_key);
    await post(gw, '/api/v1/charge', gw.other.test.private_key, { token, amount: 2500 });
  });

  test('no filter: everything, newest first, the list envelope', async ({ gateway: gw }) => {
    const res = await list(gw, '');
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toEqual({ limit: 10, offset: 0, total_results: 4 });
    expect(idsOf(res)).toEqual([ids.c, ids.b, ids.declined, ids.a]);
    expect(res.body).not.toContain(visa.card_number);
  });

  test('by status, in any case', async ({ gateway: gw }) => {
    expect(idsOf(await list(gw, '?status=DECLINED'))).toEqual([ids.declined]);
    expect(idsOf(await list(gw, '?status=settled'))).toEqual([ids.c, ids.b, ids.a]);
    expect((await list(gw, '?status=RETURNED')).json()).toMatchObject({ list: [], meta: { total_results: 0 } });
  });

  test('by amount (inclusive bounds, on the amount asked for, declines included)', async ({ gateway: gw }) => {
    expect(idsOf(await list(gw, '?amount_min=2500'))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list(gw, '?amount_max=2500'))).toEqual([ids.b, ids.declined, ids.a]);
    expect(idsOf(await list(gw, '?amount_min=80&amount_max=80'))).toEqual([ids.declined]);
    expect(idsOf(await list(gw, '?amount_min=501&amount_max=2499'))).toEqual([]);
  });

  test('by date: whole UTC days, both ends included; timestamps to the millisecond', async ({ gateway: gw }) => {
    const created = await Promise.all(Object.entries(ids).map(async ([k, id]) =>
      [k, (await get(gw, `/api/v1/charge/${id}`, f.test.private_key)).json().created_at as string] as const));
    const at = Object.fromEntries(created);
    const day = (iso: string) => iso.slice(0, 10);
    expect(day(at.a)).not.toBe(day(at.b));
    expect(idsOf(await list(gw, `?created_from=${day(at.a)}&created_to=${day(at.a)}`))).toEqual([ids.declined, ids.a]);
    expect(idsOf(await list(gw, `?created_from=${day(at.b)}`))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list(gw, `?created_to=${day(at.a)}`))).toEqual([ids.declined, ids.a]);
    expect(idsOf(await list(gw, `?created_from=${encodeURIComponent(at.declined)}&created_to=${encodeURIComponent(at.b)}`))).toEqual([ids.b, ids.declined]);
  });

  test('filters combine with each other and with paging; total counts the filtered rows', async ({ gateway: gw }) => {
    const res = await list(gw, '?status=SETTLED&amount_min=1000&limit=1&offset=1');
    expect(res.json().meta).toEqual({ limit: 1, offset: 1, total_results: 2 });
    expect(idsOf(res)).toEqual([ids.b]);
  });

  test('test and live, and merchants, never mix', async ({ gateway: gw }) => {
    expect((await list(gw, '', f.live.private_key)).json().meta.total_results).toBe(0);
    expect(idsOf(await list(gw, '?amount_min=2500', gw.other.test.private_key))).not.toContain(ids.b);
    expect(idsOf(await list(gw, '?amount_min=2500', gw.other.test.private_key))).toHaveLength(1);
  });

  test('each row says who the charge was for: the customer record\'s name and email, else the charge\'s own', async ({ gateway: gw }) => {
    const n = await gw.newMerchant();
    const customer = (await post(gw, '/api/v1/customers', n.test.private_key, {
      first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.example', token: await tokenFor(gw, visa, n.test.public_key),
    })).json();
    const pay = async (body: object) => (await post(gw, '/api/v1/charge', n.test.private_key, { amount: 1000, ...body })).json().id as string;
    const stored = await pay({ customer_id: customer.id });
    const guest = await pay({ token: await tokenFor(gw, visa, n.test.public_key), email: 'ada@example.com' });
    const rows = (await get(gw, '/api/v1/dashboard/transactions', n.test.private_key)).json().list;
    const who = (id: string) => rows.find((t: any) => t.id === id);
    expect(who(stored)).toMatchObject({ customer_id: customer.id, customer_name: 'Grace Hopper', customer_email: 'grace@navy.example' });
    expect(who(guest)).toMatchObject({ customer_id: null, customer_name: 'Ada Lovelace', customer_email: 'ada@example.com' });
  });

  test.for([
    ['?status=not-a-status', 'REQ01'],
    ['?amount_min=12.5', 'REQ01'],
    ['?amount_max=-1', 'REQ01'],
    ['?created_from=yesterday', 'REQ01'],
    ['?created_to=2026-13-45', 'REQ01'],
    ['?limit=0', 'PAGE01'],
  ] as const)('%s is %s', async ([q, code], { gateway: gw }) => {
    expectError(await list(gw, q), 400, code);
  });
});
