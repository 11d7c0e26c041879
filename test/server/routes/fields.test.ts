// Hosted fields' routes (issue 29): the loader with SRI, the frame document with its own policy,
// whose frame-ancestors follow the key's environment and its allowed_origins.
import { createHash } from 'node:crypto';
import { apiFor, basic, expect, test } from '../../fixtures.js';

const policy = (csp: unknown) =>
  Object.fromEntries(String(csp).split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...v]) => [name, v.join(' ')]));

test('the frame document: same-origin script, style and token request only; framed per environment and allowed_origins; no X-Frame-Options', async ({ gateway }) => {
  const m = await gateway.newMerchant();
  const frame = (key: string) => gateway.app.inject({ url: `/fields/frame?key=${encodeURIComponent(key)}` });

  const testFrame = await frame(m.test.public_key);
  expect(testFrame.statusCode).toBe(200);
  expect(testFrame.headers['content-type']).toMatch(/^text\/html/);
  expect(testFrame.headers['x-frame-options']).toBeUndefined();
  expect(testFrame.headers['cache-control']).toBe('no-store');
  const p = policy(testFrame.headers['content-security-policy']);
  expect(p).toEqual({
    'default-src': "'none'", 'script-src': "'self'", 'style-src': "'self'", 'connect-src': "'self'", 'base-uri': "'none'",
    'form-action': "'none'", 'frame-ancestors': '*',
  });
  expect(testFrame.body).toMatch(/autocomplete="cc-number"/);
  expect(testFrame.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|\sstyle\s*=|\son[a-z]+\s*=/i);

  // Live with none set: no page at all.
  expect(policy((await frame(m.live.public_key)).headers['content-security-policy'])['frame-ancestors']).toBe("'none'");

  await apiFor(gateway, m.test).request('POST', '/settings', { allowed_origins: ['https://shop.example', 'https://qa.shop.example:8443'] });
  await apiFor(gateway, m.live).request('POST', '/settings', { allowed_origins: ['https://shop.example'] });
  expect(policy((await frame(m.test.public_key)).headers['content-security-policy'])['frame-ancestors'])
    .toBe("'self' https://shop.example https://qa.shop.example:8443");
  expect(policy((await frame(m.live.public_key)).headers['content-security-policy'])['frame-ancestors']).toBe('https://shop.example');

  // An unknown key's frame holds nothing: any page; its tokenize answers AUTH01.
  for (const key of ['', 'test_pk_' + 'f'.repeat(55), 'x'.repeat(5000)]) {
    const res = await frame(key);
    expect(res.statusCode).toBe(200);
    expect(policy(res.headers['content-security-policy'])['frame-ancestors']).toBe('*');
  }
});

test('a key given twice is no key: the server and the frame read it alike (URLSearchParams), so no live frame escapes its frame-ancestors', async ({ gateway }) => {
  const m = await gateway.newMerchant();
  await apiFor(gateway, m.live).request('POST', '/settings', { allowed_origins: ['https://shop.example'] });
  for (const query of [`key=${m.live.public_key}&key=x`, `key=x&key=${m.live.public_key}`, `key=${m.live.public_key}&key=${m.live.public_key}`]) {
    const res = await gateway.app.inject({ url: `/fields/frame?${query}` });
    // The frame too reads no key then (src/frame.ts), so what it holds is an unknown key's frame.
    expect(policy(res.headers['content-security-policy'])['frame-ancestors'], query).toBe('*');
  }
  const once = await gateway.app.inject({ url: `/fields/frame?key=${m.live.public_key}&other=1` });
  expect(policy(once.headers['content-security-policy'])['frame-ancestors']).toBe('https://shop.example');
});

test('a private key in a frame URL is treated as unknown and recorded as exposed', async ({ gateway }) => {
  const m = await gateway.newMerchant();
  const res = await gateway.app.inject({ url: `/fields/frame?key=${m.live.private_key}` });
  expect(policy(res.headers['content-security-policy'])['frame-ancestors']).toBe('*');
  const [row] = await gateway.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys WHERE merchant_id = $1 AND exposed_at IS NOT NULL`, [m.id]);
  expect(row.n).toBe(1);
});

test('fields.js: cacheable, readable cross-origin (for SRI), pinned by /fields.json and its versioned URL', async ({ gateway }) => {
  const js = await gateway.app.inject({ url: '/fields.js' });
  expect(js.statusCode).toBe(200);
  expect(js.headers['content-type']).toMatch(/^application\/javascript/);
  expect(js.headers['access-control-allow-origin']).toBe('*');
  const meta = (await gateway.app.inject({ url: '/fields.json' })).json();
  expect(meta.integrity).toBe('sha384-' + createHash('sha384').update(js.rawPayload).digest('base64'));
  const pinned = await gateway.app.inject({ url: meta.versioned_url });
  expect(pinned.statusCode).toBe(200);
  expect(pinned.headers['cache-control']).toMatch(/immutable/);
  expect(pinned.rawPayload.equals(js.rawPayload)).toBe(true);
  expect((await gateway.app.inject({ url: '/fields-000000000000.js' })).statusCode).toBe(404);
  for (const url of ['/fields/frame.js', '/fields/frame.css']) expect((await gateway.app.inject({ url })).statusCode, url).toBe(200);
});

test('the frame tokenizes with the public key on POST /tokens, as generateToken does', async ({ gateway }) => {
  const res = await gateway.app.inject({
    method: 'POST', url: '/api/v1/tokens',
    headers: { ...basic(gateway.merchant.test.public_key), 'x-tessera-fields': 'https://shop.example' },
    payload: { card_owner_name: 'Ada', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '99', csc: '123', token_type: 'credit_card' },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ class: 'token', last_4: '1111', card_exp_year: 2099, bin_brand: expect.any(String) });
});
