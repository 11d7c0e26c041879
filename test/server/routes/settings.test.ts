import { apiFor, expect, test } from '../../fixtures.js';

// allowed_origins (issue 29): the origins of a merchant's checkout pages, per environment.

test('allowed_origins: empty by default, replaced as a list, normalised as browsers send Origin, per environment', async ({ gateway }) => {
  const m = await gateway.newMerchant();
  const api = apiFor(gateway, m.test);
  const live = apiFor(gateway, m.live);
  expect((await api.request('GET', '/settings')).body).toMatchObject({ env: 'test', allowed_origins: [] });

  const set = await api.request('POST', '/settings', { allowed_origins: ['https://Shop.Example', 'https://shop.example:443', 'http://qa.shop.test:8080/'] });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  expect(set.body.allowed_origins).toEqual(['https://shop.example', 'http://qa.shop.test:8080']);
  // Another field's change keeps the list; live has its own.
  expect((await api.request('POST', '/settings', { cvv_check: true })).body.allowed_origins).toEqual(['https://shop.example', 'http://qa.shop.test:8080']);
  expect((await live.request('GET', '/settings')).body.allowed_origins).toEqual([]);

  // A form field: one string, separated by commas or spaces; IDN hosts as their ASCII form.
  const form = await api.request('POST', '/settings', { allowed_origins: 'https://a.example, https://bücher.example  https://a.example' });
  expect(form.body.allowed_origins).toEqual(['https://a.example', 'https://xn--bcher-kva.example']);
  // Empty clears: [], "" and null.
  for (const empty of [[], '', null]) {
    await api.request('POST', '/settings', { allowed_origins: ['https://a.example'] });
    expect((await api.request('POST', '/settings', { allowed_origins: empty })).body.allowed_origins).toEqual([]);
  }
});

test('allowed_origins refuses what is not an exact origin, and http outside loopback in live mode, changing nothing', async ({ gateway, expectError }) => {
  const m = await gateway.newMerchant();
  const api = apiFor(gateway, m.test);
  const live = apiFor(gateway, m.live);
  await api.request('POST', '/settings', { allowed_origins: ['https://kept.example'] });
  const bad: unknown[] = [
    ['https://shop.example/checkout'], ['https://*.shop.example'], ['shop.example'], ['ftp://shop.example'],
    ['https://user:pw@shop.example'], ['https://shop.example?x=1'], ['javascript:alert(1)'], ['null'], [''],
    [42], [['https://a.example']], [{ origin: 'https://a.example' }], { 0: 'https://a.example' }, 7, true,
    // Hosts the URL parser keeps but that are no DNS name: they would split the frame's CSP header.
    ['https://a;b.example'], ['https://a,b.example'], ["https://'self'"], ['https://a"b.example'], ['https://a..b.example'], ['https://a.example.'],
    Array.from({ length: 21 }, (_, i) => `https://s${i}.example`), [`https://${'a'.repeat(250)}.example`],
  ];
  for (const value of bad) {
    const res = await api.request('POST', '/settings', { allowed_origins: value, cvv_check: true });
    expectError(res, 400, 'REQ01', /allowed_origins/);
  }
  expect((await api.request('GET', '/settings')).body).toMatchObject({ allowed_origins: ['https://kept.example'], cvv_check: false });

  expectError(await live.request('POST', '/settings', { allowed_origins: ['http://shop.example'] }), 400, 'REQ01', /http for localhost/);
  const loop = await live.request('POST', '/settings', { allowed_origins: ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://shop.example'] });
  expect(loop.body.allowed_origins).toEqual(['http://localhost:3000', 'http://127.0.0.1:8080', 'https://shop.example']);
});
