// Hardening headers (server/http/headers.ts): every page gets a strict CSP and frame protection,
// every answer that did not choose its own cache policy is no-store.
import type { FastifyInstance } from 'fastify';
import { TestGateway, basic, describe, expect, test, tokenFor } from '../../fixtures.js';

/** `script-src 'self'; …` as { 'script-src': ["'self'"], … }. */
function directives(csp: string | undefined): Record<string, string[]> {
  expect(csp, 'a Content-Security-Policy header').toBeTypeOf('string');
  return Object.fromEntries(csp!.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...v]) => [name, v]));
}

function expectPageHeaders(res: { headers: Record<string, unknown> }, what: string) {
  const csp = directives(res.headers['content-security-policy'] as string);
  // Scripts from this origin only: no inline script, no eval, no wildcard or scheme source.
  expect(csp['script-src'], what).toEqual(["'self'"]);
  expect(csp['default-src'], what).toEqual(["'none'"]);
  expect(csp['style-src'], what).toEqual(["'self'"]);
  expect(csp['object-src'], what).toEqual(["'none'"]);
  expect(csp['base-uri'], what).toEqual(["'none'"]);
  expect(csp['frame-ancestors'], what).toEqual(["'none'"]);
  for (const [name, sources] of Object.entries(csp)) {
    for (const s of sources) expect(s, `${what}: ${name} ${s}`).not.toMatch(/\*|unsafe|^'strict-dynamic'$/);
    // Whole schemes only for images (the pages' empty data: favicon).
    if (name !== 'img-src') for (const s of sources) expect(s, `${what}: ${name} ${s}`).not.toMatch(/^[a-z-]+:$/);
  }
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
}

describe('HTML pages', () => {
  const pages: [string, (apps: { gw: TestGateway; demoApp: FastifyInstance }) => FastifyInstance][] = [
    ['/ (demo off)', ({ gw }) => gw.app],
    ['/ (demo on)', ({ demoApp }) => demoApp],
    ['/docs', ({ gw }) => gw.app],
    ['/dashboard', ({ gw }) => gw.app],
    ['/dashboard/', ({ gw }) => gw.app],
  ];
  test.for(pages)('%s: strict CSP, no framing, no referrer, and nothing inline the CSP would need', async ([name, app], { gateway: gw, demoApp }) => {
    const res = await app({ gw, demoApp }).inject({ url: name.split(' ')[0] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectPageHeaders(res, name);
    // What the CSP forbids is not in the page either (it would break silently): inline scripts,
    // event-handler attributes, javascript: URLs, <style> blocks and style attributes.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(res.body).not.toMatch(/\son[a-z]+\s*=/i);
    expect(res.body).not.toMatch(/javascript:/i);
    expect(res.body).not.toMatch(/<style|\sstyle\s*=/i);
  });

  test('the stylesheets the pages link are served', async ({ gateway: gw, demoApp }) => {
    for (const url of ['/docs.css', '/palette.css', '/dashboard/dashboard.css']) {
      const res = await gw.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/css/);
    }
    expect((await demoApp.inject({ url: '/demo.css' })).statusCode).toBe(200);
  });

  test('answers of every other kind carry the same protection (a JSON error opened in a tab, an unknown path)', async ({ gateway: gw }) => {
    for (const url of ['/api/v1/customers', '/no-such-page', '/api/v1/openapi.json']) expectPageHeaders(await gw.app.inject({ url }), url);
  });
});

describe('Cache-Control', () => {
  const sk = (gw: TestGateway) => basic(gw.merchant.test.private_key);

  test('the webhook signing secret is never stored by a cache', async ({ gateway: gw }) => {
    for (const [method, url] of [['GET', '/api/v1/webhooks/secret'], ['POST', '/api/v1/webhooks/secret/rotate']] as const) {
      const res = await gw.app.inject({ method, url, headers: sk(gw) });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().secret, url).toEqual(expect.any(String));
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  test('every GET of the API without path parameters answers no-store, except the public OpenAPI document', async ({ gateway: gw }) => {
    const doc = (await gw.app.inject({ url: '/api/v1/openapi.json' })).json();
    const paths = Object.keys(doc.paths).filter((p) => !p.includes('{') && doc.paths[p].get);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      const res = await gw.app.inject({ url: `/api/v1${path}`, headers: sk(gw) });
      if (path === '/openapi.json') expect(res.headers['cache-control']).toBe('public, max-age=300');
      else expect(res.headers['cache-control'], `${path} (${res.statusCode})`).toBe('no-store');
    }
  });

  test('writes, public-key answers, errors and unknown paths are no-store too', async ({ gateway: gw }) => {
    const token = await gw.app.inject({
      method: 'POST', url: '/api/v1/tokens', headers: basic(gw.merchant.test.public_key),
      payload: { card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2099, card_owner_name: 'A B' },
    });
    expect(token.statusCode).toBe(200);
    const charge = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: sk(gw), payload: { token: await tokenFor(gw), amount: 1000 } });
    expect(charge.statusCode).toBe(200);
    const unauthenticated = await gw.app.inject({ url: '/api/v1/customers' });
    expect(unauthenticated.statusCode).toBe(401);
    const unknown = await gw.app.inject({ url: '/api/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    for (const res of [token, charge, unauthenticated, unknown]) expect(res.headers['cache-control']).toBe('no-store');
  });

  test("a route's own cache policy is kept on success and dropped on error", async ({ gateway: gw }) => {
    const pages = await gw.app.inject({ url: '/dashboard' });
    expect(pages.headers['cache-control']).toBe('no-cache');
    // The versioned tokenizer URL is cached for a year; a wrong version is an error, never cached.
    const wrong = await gw.app.inject({ url: '/tokenizer-000000000000.js' });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.headers['cache-control']).toBe('no-store');
  });
});
