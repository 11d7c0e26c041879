import type { Queryable } from '../../../server/db/index.js';
import { ALLOWED_ORIGINS_TTL_MS, allowedOrigins, pageOrigin, sideOf } from '../../../server/domain/merchant/allowed-origins.js';
import type { KeySet } from '../../../server/domain/merchant/keys.js';
import { TokenLimiter } from '../../../server/http/ratelimit.js';
import { MemoryCounters } from '../../../server/http/counters.js';
import { TestGateway, basic, describe, expect, test, visa } from '../../fixtures.js';

// The card-testing defence no other page can aim (issue 29; docs/decisions/card-testing.md):
// refusals are counted per side, `checkout` (the request's page is one of the merchant's
// allowed_origins) and `other`; test mode has no refusal ceilings at all.

const SHOP = 'https://shop.example';
const bad = { ...visa, card_number: '4111111111111112' }; // refused: 11112
const VISITOR = '203.0.113.50';

const jsonp = (g: TestGateway, data: Record<string, unknown>, headers: Record<string, string> = {}, keys: KeySet = g.merchant.live, ip = VISITOR) =>
  g.app.inject({
    url: '/api/v1/tokens/jsonp',
    query: { callback: 'cb', public_api_key: keys.public_key, ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])) },
    headers,
    remoteAddress: ip,
  });
/** What the JSONP callback got: the token's class, or the error code. */
const jsonpOutcome = async (...args: Parameters<typeof jsonp>) => {
  const res = await jsonp(...args);
  expect(res.statusCode).toBe(200);
  const arg = JSON.parse(res.body.slice('/**/cb('.length, -2));
  return arg.errors ? arg.errors[0].code as string : arg.class as string;
};
const post = (g: TestGateway, data: Record<string, unknown>, headers: Record<string, string> = {}, keys: KeySet = g.merchant.live, ip = VISITOR) =>
  g.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: { ...basic(keys.public_key), ...headers }, payload: data, remoteAddress: ip });
const postOutcome = async (...args: Parameters<typeof post>) => {
  const res = await post(...args);
  return res.statusCode === 200 ? res.json().class as string : res.json().errors[0].code as string;
};
const allow = async (g: TestGateway, keys: KeySet, origins: string[]) => {
  const res = await g.app.inject({ method: 'POST', url: '/api/v1/settings', headers: basic(keys.private_key), payload: { allowed_origins: origins } });
  expect(res.statusCode, res.body).toBe(200);
};
const times = async (n: number, f: () => Promise<string>) => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await f());
  return out;
};

const LIVE = { perIp: 0, perKey: 0, failures: 0, keyIpFailures: 10, ipFailures: 30 };
const HOSTILE = { referer: 'https://evil.example/cats.html' };

describe('request ceilings per side, test mode too (an outside review)', () => {
  test('a hostile page loading 301 script tags a minute with any test key does not use up its visitors\' per-address ceiling at a checkout', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 300, perKey: 0, failures: 0 } });
    await allow(gw, gw.merchant.live, [SHOP]);
    await allow(gw, gw.merchant.test, [SHOP]);
    const flood = await times(301, () => jsonpOutcome(gw, bad, HOSTILE, gw.other.test));
    expect(flood.at(-1)).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, HOSTILE, gw.merchant.live)).toBe('RATE01'); // the page's own side is spent
    for (const keys of [gw.merchant.live, gw.merchant.test]) {
      expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/pay` }, keys)).toBe('token');
      expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP }, keys)).toBe('token');
    }
  });
});

describe('live mode: refusals are counted per side', () => {
  test('refusals a hostile page makes its visitors\' browsers send stop that address on the other side only: at the merchant\'s checkout it still tokenizes, by JSONP and by hosted fields', async ({ newGateway }) => {
    const gw = await newGateway({ limits: LIVE });
    await allow(gw, gw.merchant.live, [SHOP]);
    // Script tags on the hostile page: its own Referer, or none (referrerpolicy="no-referrer"), or its Origin (crossorigin).
    expect(await times(4, () => jsonpOutcome(gw, bad, HOSTILE))).toEqual(Array(4).fill('11112'));
    expect(await times(4, () => jsonpOutcome(gw, bad))).toEqual(Array(4).fill('11112'));
    expect(await times(2, () => jsonpOutcome(gw, bad, { origin: 'https://evil.example' }))).toEqual(Array(2).fill('11112'));
    // Ten on the `other` side: there, the address is stopped, good cards included.
    expect(await jsonpOutcome(gw, visa, HOSTILE)).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa)).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, { origin: 'null' })).toBe('RATE01'); // a sandboxed frame: no origin
    expect(await jsonpOutcome(gw, visa, { referer: 'https://shop.example.evil.example/' })).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, { referer: 'http://shop.example/' })).toBe('RATE01'); // another scheme, another origin
    expect(await postOutcome(gw, visa)).toBe('RATE01'); // curl, no page at all
    // The same visitor at the merchant's checkout page: JSONP (the default referrer policy sends the origin) ...
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/checkout?step=2` })).toBe('token');
    expect(await jsonpOutcome(gw, visa, { referer: 'HTTPS://Shop.Example:443/checkout' })).toBe('token');
    expect(await jsonpOutcome(gw, visa, { origin: SHOP })).toBe('token');
    // ... and the hosted-fields frame: a same-origin POST that names its parent page in X-Tessera-Fields.
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP, origin: 'http://gateway.test' })).toBe('token');
    // The frame's header is the page origin when present: it outranks Origin and Referer.
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': 'https://evil.example', referer: `${SHOP}/` })).toBe('RATE01');
    // A header that holds no origin counts as absent: the next one is read.
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': 'not an origin', origin: SHOP })).toBe('token');
    expect(await jsonpOutcome(gw, visa, { origin: 'null', referer: `${SHOP}/pay` })).toBe('token');
    // Another address was never held back on either side.
    expect(await jsonpOutcome(gw, visa, HOSTILE, gw.merchant.live, '198.51.100.9')).toBe('token');
    const metrics = (await gw.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="key_ip_failures"\} 7$/m);
  });

  test('a client that sends refused cards claiming the merchant\'s origin is stopped at the same ceiling; the other side is independent, and stopped too', async ({ newGateway }) => {
    const gw = await newGateway({ limits: LIVE });
    await allow(gw, gw.merchant.live, [SHOP]);
    const claimed = { origin: SHOP, referer: `${SHOP}/checkout` };
    const outcomes = await times(12, () => jsonpOutcome(gw, bad, claimed));
    expect(outcomes).toEqual([...Array(10).fill('11112'), 'RATE01', 'RATE01']);
    expect(await jsonpOutcome(gw, visa, claimed)).toBe('RATE01');
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP })).toBe('RATE01'); // as the hosted fields: the same side
    // The other side has its own count: at most twice the ceiling per window, then nothing.
    expect(await postOutcome(gw, visa)).toBe('token');
    expect(await times(11, () => postOutcome(gw, bad))).toEqual([...Array(10).fill('11112'), 'RATE01']);
    expect(await postOutcome(gw, visa)).toBe('RATE01');
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP })).toBe('RATE01');
    // Its window over, the address starts again on both sides.
    gw.clock.advance(10 * 60_000);
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP })).toBe('token');
    expect(await postOutcome(gw, visa)).toBe('token');
  });

  test('the all-merchants ceiling: 30 refusals from a hostile page over three merchants stop no merchant\'s checkout; a tester claiming the merchants\' origins is stopped at each merchant\'s ceiling', async ({ newGateway }) => {
    const gw = await newGateway({ limits: LIVE });
    const third = await gw.newMerchant();
    const fourth = await gw.newMerchant();
    const merchants = [gw.merchant, gw.other, third];
    for (const [i, m] of [...merchants, fourth].entries()) await allow(gw, m.live, [`https://shop${i}.example`]);
    for (const m of merchants) expect(await times(10, () => jsonpOutcome(gw, bad, HOSTILE, m.live))).toEqual(Array(10).fill('11112'));
    // Before, the visitor could pay no merchant at all for ten minutes. Now: no merchant on the other side ...
    expect(await jsonpOutcome(gw, visa, {}, fourth.live)).toBe('RATE01');
    const res = await post(gw, visa, {}, fourth.live);
    expect(res.json().errors[0]).toMatchObject({ code: 'RATE01', message: expect.stringMatching(/refused cards from this address \(card-testing/) });
    // ... every merchant at its own checkout, the three of the page included.
    for (const [i, m] of [...merchants, fourth].entries()) {
      expect(await jsonpOutcome(gw, visa, { referer: `https://shop${i}.example/` }, m.live)).toBe('token');
    }
    // A tester's own client claiming each merchant's origin: each merchant's checkout side is its own
    // (another merchant of this gateway could list a hostile page as its checkout), stopped at 10 each.
    const tester = '192.0.2.200';
    const claiming = (i: number) => ({ origin: `https://shop${i}.example` });
    for (const [i, m] of merchants.entries()) {
      expect(await times(11, () => postOutcome(gw, bad, claiming(i), m.live, tester))).toEqual([...Array(10).fill('11112'), 'RATE01']);
    }
    expect(await postOutcome(gw, visa, claiming(3), fourth.live, tester)).toBe('token');
    const metrics = (await gw.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="ip_failures"\} 2$/m);
    expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="key_ip_failures"\} 3$/m);
  });

  test('a merchant listing a hostile page as its own checkout cannot make that page lock its visitors out of other merchants\' checkouts', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { ...LIVE, perIp: 30 } });
    await allow(gw, gw.other.live, ['https://evil.example']); // the hostile merchant
    await allow(gw, gw.merchant.live, [SHOP]);
    // Its page: refused cards and a flood of requests with its own key, from its own (listed) origin.
    expect(await times(31, () => jsonpOutcome(gw, bad, HOSTILE, gw.other.live))).toContain('RATE01');
    expect(await jsonpOutcome(gw, visa, HOSTILE, gw.other.live)).toBe('RATE01');
    // The visitor at the honest merchant's checkout.
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/pay` })).toBe('token');
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP })).toBe('token');
  });

  test('without allowed_origins there is one side: a page origin the merchant has not named counts with everything else', async ({ newGateway }) => {
    const gw = await newGateway({ limits: LIVE });
    expect(await times(10, () => jsonpOutcome(gw, bad, HOSTILE))).toEqual(Array(10).fill('11112'));
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/checkout` })).toBe('RATE01');
    expect(await postOutcome(gw, visa, { 'x-tessera-fields': SHOP })).toBe('RATE01');
    // Another merchant's allowed_origins are not this one's.
    await allow(gw, gw.other.live, [SHOP]);
    gw.clock.advance(ALLOWED_ORIGINS_TTL_MS);
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/checkout` })).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/checkout` }, gw.other.live)).toBe('token');
  });

  test(`a change of allowed_origins is seen within ${ALLOWED_ORIGINS_TTL_MS / 1000} s: added, the checkout side opens; removed, it is one side again`, async ({ newGateway }) => {
    const gw = await newGateway({ limits: { ...LIVE, keyIpFailures: 3 } });
    expect(await times(3, () => jsonpOutcome(gw, bad, HOSTILE))).toEqual(Array(3).fill('11112'));
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/` })).toBe('RATE01');
    await allow(gw, gw.merchant.live, [SHOP, 'https://other-shop.example']);
    gw.clock.advance(ALLOWED_ORIGINS_TTL_MS);
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/` })).toBe('token');
    expect(await jsonpOutcome(gw, visa, HOSTILE)).toBe('RATE01');
    await allow(gw, gw.merchant.live, []);
    gw.clock.advance(ALLOWED_ORIGINS_TTL_MS);
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/` })).toBe('RATE01');
  });

  test('the node that saves allowed_origins applies them at once (its cached copy is dropped); another node within the TTL', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { ...LIVE, keyIpFailures: 2 } });
    expect(await times(2, () => jsonpOutcome(gw, bad, HOSTILE))).toEqual(Array(2).fill('11112'));
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/` })).toBe('RATE01'); // one side: the list (empty) is now cached
    await allow(gw, gw.merchant.live, [SHOP]);
    expect(await jsonpOutcome(gw, visa, { referer: `${SHOP}/` })).toBe('token'); // no clock advance
  });

  test('the merchant-wide alarm counts both sides; it tightens only addresses refused on the side being checked', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 0, perKey: 0, failures: 4, keyIpFailures: 4, ipFailures: 0 } });
    await allow(gw, gw.merchant.live, [SHOP]);
    const a = '192.0.2.11';
    const b = '192.0.2.12';
    // Two refusals on each side of one address, and a second address's one at the checkout: 5 >= 4, ceiling 4 -> 2.
    for (const h of [HOSTILE, HOSTILE, { origin: SHOP }, { origin: SHOP }]) expect(await jsonpOutcome(gw, bad, h, gw.merchant.live, a)).toBe('11112');
    expect(await jsonpOutcome(gw, bad, { origin: SHOP }, gw.merchant.live, b)).toBe('11112');
    expect(await jsonpOutcome(gw, visa, HOSTILE, gw.merchant.live, a)).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, { origin: SHOP }, gw.merchant.live, a)).toBe('RATE01');
    expect(await jsonpOutcome(gw, visa, { origin: SHOP }, gw.merchant.live, b)).toBe('token'); // 1 < 2
    expect(await jsonpOutcome(gw, visa, HOSTILE, gw.merchant.live, b)).toBe('token'); // never refused on this side
  });
});

describe('test mode: no card-testing ceilings; the request ceilings stay', () => {
  test('50 refused cards from one address (and the alarm\'s worth) never give RATE01; the per-address request ceiling still does', async ({ newGateway }) => {
    const gw = await newGateway({ limits: { perIp: 60, perKey: 0, failures: 5, keyIpFailures: 10, ipFailures: 30 } });
    const t = gw.merchant.test;
    const real = { ...visa, card_number: '4012888888881881' }; // a real card in test mode: TEST01, a refusal too
    const codes = [
      ...await times(20, () => jsonpOutcome(gw, bad, {}, t)),
      ...await times(20, () => postOutcome(gw, bad, {}, t)),
      ...await times(10, () => postOutcome(gw, real, { 'x-tessera-fields': SHOP }, t)),
    ];
    expect(new Set(codes)).toEqual(new Set(['11112', 'TEST01']));
    expect(await times(10, () => postOutcome(gw, visa, {}, t))).toEqual(Array(10).fill('token')); // 60 requests
    const res = await post(gw, visa, {}, t);
    expect(res.statusCode).toBe(429);
    expect(res.json().errors[0]).toMatchObject({ code: 'RATE01', message: expect.stringMatching(/token requests from this address/) });
    const metrics = (await gw.app.inject({ url: '/metrics' })).body;
    expect(metrics).not.toMatch(/tessera_card_testing_alarms_total/);
    expect(metrics).toMatch(/^tessera_rate_limited_total\{rule="ip"\} 1$/m);
    // The same limits still count live refusals: 5 raise the alarm, which halves that address's ceiling to 5.
    expect(await times(7, () => postOutcome(gw, bad, {}, gw.merchant.live, '198.51.100.77'))).toEqual([...Array(5).fill('11112'), 'RATE01', 'RATE01']);
    expect((await gw.app.inject({ url: '/metrics' })).body).toMatch(/^tessera_card_testing_alarms_total\{env="live"\} 1$/m);
  });

  test('the limiter asks for the side only where refusals are counted: live mode with a refusal ceiling on', () => {
    const limiter = new TokenLimiter(new MemoryCounters(), { perIp: 1, perKey: 1, failures: 1, keyIpFailures: 1, ipFailures: 1 });
    const scope = (env: 'test' | 'live') => ({ merchantId: 'mer_x', env });
    expect(limiter.countsRefusals(scope('test'))).toBe(false);
    expect(limiter.countsRefusals(scope('live'))).toBe(true);
    expect(new TokenLimiter(new MemoryCounters(), { perIp: 1, perKey: 1, failures: 0 }).countsRefusals(scope('live'))).toBe(false);
  });
});

describe('the page origin and the allowed origins\' cache', () => {
  test('page origin: X-Tessera-Fields, else Origin (not "null"), else Referer\'s origin; anything that is not an http(s) origin is none', () => {
    expect(pageOrigin({ 'x-tessera-fields': 'https://a.example', origin: 'https://b.example', referer: 'https://c.example/x' })).toBe('https://a.example');
    expect(pageOrigin({ origin: 'https://b.example', referer: 'https://c.example/x' })).toBe('https://b.example');
    expect(pageOrigin({ origin: 'null', referer: 'https://c.example/x?y#z' })).toBe('https://c.example');
    expect(pageOrigin({ referer: 'HTTPS://C.Example:443/' })).toBe('https://c.example');
    expect(pageOrigin({ referer: 'http://c.example:8080/' })).toBe('http://c.example:8080');
    expect(pageOrigin({})).toBeNull();
    for (const v of ['null', '', 'garbage', 'data:text/html,x', 'file:///etc/passwd', 'javascript:alert(1)', `https://${'a'.repeat(5000)}.example`]) {
      expect(pageOrigin({ origin: v }), v).toBeNull();
      expect(pageOrigin({ referer: v }), v).toBeNull();
    }
  });

  test('a request without a page origin reads nothing; the origins are read once per TTL, concurrent requests share the read; a failed read is not kept', async () => {
    let reads = 0;
    let fail = false;
    const q = {
      query: async () => {
        reads++;
        if (fail) throw new Error('down');
        return [{ allowed_origins: [SHOP] }];
      },
      exec: async () => {},
    } as unknown as Queryable;
    const scope = { merchantId: `mer_cache${Math.random()}`, env: 'live' as const };
    const t0 = Date.parse('2026-01-15T12:00:00Z');
    expect(await sideOf(q, scope, { referer: 'https://evil.example/' }, t0)).toBe('other');
    expect(reads).toBe(1);
    expect(await sideOf(q, scope, {}, t0)).toBe('other');
    expect(await Promise.all([sideOf(q, scope, { origin: SHOP }, t0 + 1), sideOf(q, scope, { origin: SHOP }, t0 + 2)])).toEqual(['checkout', 'checkout']);
    expect(reads).toBe(1);
    expect(await allowedOrigins(q, scope, t0 + ALLOWED_ORIGINS_TTL_MS)).toEqual([SHOP]);
    expect(reads).toBe(2);
    fail = true;
    await expect(allowedOrigins(q, scope, t0 + 2 * ALLOWED_ORIGINS_TTL_MS)).rejects.toThrow('down');
    fail = false;
    expect(await allowedOrigins(q, scope, t0 + 2 * ALLOWED_ORIGINS_TTL_MS + 1)).toEqual([SHOP]);
    expect(reads).toBe(4);
    // Other merchants and environments have their own entries.
    expect(await allowedOrigins(q, { ...scope, env: 'test' }, t0)).toEqual([SHOP]);
    expect(reads).toBe(5);
  });
});
