import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { createKeySet, createMerchant, demoMerchantId } from '../../../server/domain/merchant/keys.js';
import { TestGateway, basic, describe, expect, test, tokenFor, visa } from '../../fixtures.js';

const demoCharge = (demo: FastifyInstance, payload: object, headers: Record<string, string> = {}) =>
  demo.inject({ method: 'POST', url: '/demo/charge', payload, headers });
const countTransactions = async (gw: TestGateway) => (await gw.db.query('SELECT count(*)::int AS n FROM transactions'))[0].n as number;

describe('off by default (production)', () => {
  test('/ is a short page pointing to /docs and /dashboard, with no checkout', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('href="/docs"');
    expect(res.body).toContain('href="/dashboard"');
    expect(res.body).toContain('TESSERA_DEMO=on');
    expect(res.body).not.toContain('card-form');
    expect(res.body).not.toContain('<script');
  });

  test('/demo/charge and the demo assets do not exist', async ({ gateway: gw }) => {
    const charge = await gw.app.inject({ method: 'POST', url: '/demo/charge', payload: { token: 'abcdef0123', amount: 100 } });
    expect(charge.statusCode).toBe(404);
    expect(charge.json().errors[0].code).toBe('NOTFOUND');
    for (const url of ['/demo.js', '/demo.css']) expect((await gw.app.inject({ url })).statusCode, url).toBe(404);
  });
});

describe('on', () => {
  test('/ is the checkout with the demo public key, and its assets are served', async ({ demoApp: demo }) => {
    const page = await demo.inject({ url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="card-form"');
    expect(page.body).toContain('<script src="/demo.js"></script>');
    expect(page.body).not.toContain('base-url'); // no "Gateway URL" option: the page talks to its own gateway only
    expect((await demo.inject({ url: '/demo.js' })).headers['content-type']).toMatch(/^application\/javascript/);
    expect((await demo.inject({ url: '/demo.css' })).headers['content-type']).toMatch(/^text\/css/);
  });

  test('without a demo merchant the demo merchant server answers NOTFOUND', async ({ demoApp: demo }) => {
    const res = await demoCharge(demo, { token: 'abcdef0123', amount: 100 });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NOTFOUND');
  });

  test("it charges only the demo merchant's test tokens, and saves customers in its test environment", async ({ gateway: gw, demoApp: demo }) => {
    const now = gw.clock.now();
    const id = await createMerchant(gw.db, 'Demo merchant', now, { demo: true });
    const keys = await createKeySet(gw.db, { merchantId: id, env: 'test' }, now);

    // Another merchant's token is not the demo merchant's: 69201, nothing charged.
    const foreign = await demoCharge(demo, { token: await tokenFor(gw, visa), amount: 100 });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].code).toBe('69201');

    const ok = await demoCharge(demo, { token: await tokenFor(gw, visa, keys.public_key), amount: 1234 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ customer_id: null, transaction: { status: 'SETTLED', amount_settled: 1234, merchant_id: id } });

    const saved = await demoCharge(demo, { token: await tokenFor(gw, visa, keys.public_key), amount: 500, save_customer: true });
    expect(saved.statusCode).toBe(200);
    const customerId = saved.json().customer_id;
    expect(saved.json().transaction).toMatchObject({ customer_id: customerId, source: 'customer' });
    const customer = await gw.app.inject({ url: `/api/v1/customers/${customerId}`, headers: basic(keys.private_key) });
    expect(customer.statusCode).toBe(200);

    const declined = await demoCharge(demo, { token: await tokenFor(gw, visa, keys.public_key), amount: 99 });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().errors[0]).toMatchObject({ code: '99820', transaction_id: expect.stringMatching(/^[0-9a-f]{32}$/) });

    // The page itself, as a browser sends it (same origin, JSON), still charges.
    const fromPage = await demoCharge(
      demo, { token: await tokenFor(gw, visa, keys.public_key), amount: 700 },
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin', host: 'localhost' },
    );
    expect(fromPage.statusCode).toBe(200);
  });

  test('refuses cross-site requests and simple (form-shaped) posts, and charges nothing', async ({ gateway: gw, demoApp: demo }) => {
    const now = gw.clock.now();
    const id = (await demoMerchantId(gw.db)) ?? (await createMerchant(gw.db, 'Demo merchant', now, { demo: true }));
    const keys = await createKeySet(gw.db, { merchantId: id, env: 'test' }, now);
    const token = await tokenFor(gw, visa, keys.public_key);
    const before = await countTransactions(gw);
    const json = JSON.stringify({ token, amount: 1000 });
    const post = (headers: Record<string, string>, payload = json) =>
      demo.inject({ method: 'POST', url: '/demo/charge', headers: { host: 'pay.example.com', ...headers }, payload });
    const refused: [Record<string, string>, string | undefined, number, string][] = [
      // A cross-site HTML form: urlencoded, multipart, or text/plain carrying a JSON-looking body.
      [{ 'content-type': 'application/x-www-form-urlencoded' }, `token=${token}&amount=1000`, 415, 'DEMO02'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, `--x\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n--x--\r\n`, 415, 'DEMO02'],
      [{ 'content-type': 'text/plain' }, undefined, 415, 'DEMO02'],
      [{}, undefined, 415, 'DEMO02'],
      // The browser names another site, whatever the type.
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, undefined, 403, 'DEMO01'],
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, undefined, 403, 'DEMO01'],
      [{ 'content-type': 'application/json', origin: 'https://evil.example' }, undefined, 403, 'DEMO01'],
      [{ 'content-type': 'application/json', origin: 'https://pay.example.com.evil.example' }, undefined, 403, 'DEMO01'],
      [{ 'content-type': 'application/json', origin: 'null' }, undefined, 403, 'DEMO01'],
      [{ 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, undefined, 403, 'DEMO01'],
    ];
    for (const [headers, payload, status, code] of refused) {
      const res = await post(headers, payload);
      expect(res.statusCode, JSON.stringify(headers)).toBe(status);
      expect(res.json().errors[0].code, JSON.stringify(headers)).toBe(code);
    }
    expect(await countTransactions(gw)).toBe(before);

    // The same token from the page itself (https, default port) is charged: it was never used above.
    const ok = await post({ 'content-type': 'application/json; charset=utf-8', origin: 'https://pay.example.com', 'sec-fetch-site': 'same-origin' });
    expect(ok.statusCode).toBe(200);
    expect(await countTransactions(gw)).toBe(before + 1);
  });
});

test('TESSERA_DEMO is on or off; unset, the mode decides (tessera serve --dev)', () => {
  expect(loadConfig({}).demo).toBeUndefined();
  expect(loadConfig({ TESSERA_DEMO: 'on' }).demo).toBe(true);
  expect(loadConfig({ TESSERA_DEMO: 'off' }).demo).toBe(false);
  expect(() => loadConfig({ TESSERA_DEMO: 'yes' })).toThrow(ConfigError);
});
