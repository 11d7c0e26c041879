import { compileErrors, validate } from '@readme/openapi-parser';
import { expect, test as base } from '../../fixtures.js';

/** The gateway fixture, plus its OpenAPI document as `doc`, read once per file. */
const test = base.extend<{ doc: any }>({
  doc: [async ({ gateway }, use) => use((await gateway.app.inject({ url: '/api/v1/openapi.json' })).json()), { scope: 'file' }],
});

/** Every operation of the document as [`METHOD /path`, operation]. */
const operations = (doc: any): [string, any][] =>
  Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]): [string, any] => [`${method.toUpperCase()} ${path}`, op]));

/** Every METHOD path Fastify itself routes, read back from its route tree. */
function fastifyRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: { indent: number; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const m = line.match(/^([\s│├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/);
    if (!m) continue;
    const indent = m[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = (stack.length ? stack[stack.length - 1].path : '') + m[2];
    stack.push({ indent, path });
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) out.push(`${method} ${path}`);
  }
  return out;
}

test('openapi.json is OpenAPI 3.1 and lists every /api/v1 route with its schemas', async ({ gateway: gw }) => {
  const res = await gw.app.inject({ url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });

  const routes = fastifyRoutes(gw.app.printRoutes({ commonPrefix: false })).filter((r) => r.includes(' /api/v1/'));
  expect(routes.length).toBeGreaterThan(8);
  expect(routes).toContain('POST /api/v1/charge');
  for (const r of routes) {
    const [method, url] = r.split(' ');
    // Routes sharing a parameter position under different names print as `:id|:customer_id`.
    const variants = url.split('/').reduce<string[]>(
      (acc, seg) => acc.flatMap((p) => seg.split('|').map((alt) => `${p}/${alt}`)),
      [''],
    );
    const found = variants.some((v) => {
      const path = v.slice(1).replace('/api/v1', '').replace(/:([A-Za-z_]+)/g, '{$1}');
      return doc.paths[path]?.[method.toLowerCase()] !== undefined;
    });
    expect(found, `${r} missing from openapi.json`).toBe(true);
  }
  const charge = doc.paths['/charge/{id}'].get;
  expect(charge.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
  expect(charge.responses['200'].content['application/json'].schema.properties.card_number).toBeDefined();
  expect(doc.paths['/tokens/jsonp'].get.security).toEqual([]);
  expect(doc['x-error-codes']['69404']).toEqual({ status: 404, message: 'charge not found' });
});

test('the document validates as OpenAPI 3.1', async ({ doc }) => {
  // validate() dereferences in place: give it a copy.
  const result = await validate(structuredClone(doc));
  expect(result.valid ? '' : compileErrors(result)).toBe('');
  expect(result.specification).toBe('OpenAPI');
});

test('every operation has a summary, an example of what it answers and of its body, and its error statuses', ({ doc }) => {
  const ops = operations(doc);
  expect(ops.length).toBeGreaterThan(60);
  for (const [name, op] of ops) {
    expect(op.summary, `${name} summary`).toMatch(/^\S.{5,}/);
    const success = Object.entries<any>(op.responses).filter(([status]) => /^2\d\d$/.test(status));
    expect(success.length, `${name} has a 2xx`).toBeGreaterThan(0);
    for (const [status, res] of success) {
      // JSON, or what the route answers instead (JSONP script, CSV): each with an example.
      expect(Object.keys(res.content ?? {}).length, `${name} ${status} media`).toBeGreaterThan(0);
      for (const media of Object.values<any>(res.content)) expect(media.example, `${name} ${status} example`).toBeDefined();
    }
    if (op.requestBody) {
      for (const media of Object.values<any>(op.requestBody.content)) expect(media.example, `${name} body example`).toBeDefined();
    }
    // Ill-formed input anywhere; a key on every route that takes one; the Idempotency-Key on POSTs.
    expect(op.responses['400']?.description, `${name} 400`).toContain('`REQ01`');
    if (op.security.length) {
      expect(op.responses['401']?.description, `${name} 401`).toContain('`AUTH01`');
      expect(op.responses['429']?.description, `${name} 429`).toContain('`RATE01`');
    }
    // Two POSTs refuse the key: their answer (a new private key, the signing secret) may never be stored.
    const refusesKey = ['POST /dashboard/keys', 'POST /webhooks/secret/rotate'].includes(name);
    if (op.security.length && name.startsWith('POST ') && !refusesKey) {
      expect(op.responses['422']?.description, `${name} 422`).toContain('`IDEM02`');
      expect(op.parameters.map((p: any) => p.name), `${name} Idempotency-Key`).toContain('Idempotency-Key');
    } else {
      expect(op.parameters.map((p: any) => p.name), `${name} no Idempotency-Key`).not.toContain('Idempotency-Key');
    }
    for (const [status, res] of Object.entries<any>(op.responses)) {
      if (/^[45]/.test(status)) expect(res.content['application/json'].example.errors[0].code, `${name} ${status}`).toBeTypeOf('string');
    }
  }
});

test("each route's own codes are listed under their statuses: declines, conflicts, live charges", ({ doc }) => {
  const statuses = (path: string, method: string) => doc.paths[path][method].responses;
  const charge = statuses('/charge', 'post');
  expect(charge['402'].description).toContain('`99820` card declined');
  expect(charge['402'].description).toContain('`CPCVV2`');
  expect(charge['503'].description).toContain('`PROC01`');
  expect(charge['409'].description).toContain('`IDEM03`');
  expect(charge['400'].description).toContain('`69002`');
  expect(statuses('/charge/{id}', 'get')['404'].description).toContain('`69404`');
  expect(statuses('/charge/{id}/cancel', 'post')['409'].description).toContain('`REFUND02`');
  // The public key may tokenize; a private route refuses it.
  expect(statuses('/transactions', 'get')['403'].description).toContain('`AUTH02`');
  expect(statuses('/transactions', 'get')['400'].description).toContain('`PAGE01`');
  expect(doc.paths['/tokens/jsonp'].get.responses['401']).toBeUndefined();
  // Every status the catalogue gives a route answer appears somewhere.
  const used = new Set(operations(doc).flatMap(([, op]) => Object.keys(op.responses)));
  for (const status of ['400', '401', '402', '403', '404', '409', '413', '415', '422', '429', '503']) expect(used, status).toContain(status);
});

test('bodies, query strings and responses list their fields; response fields are required', ({ doc }) => {
  const charge = doc.paths['/charge'].post;
  const body = charge.requestBody.content['application/json'].schema;
  for (const field of ['token', 'customer_id', 'method_id', 'amount', 'description', 'metadata', 'card_number', 'csc', 'send_receipt', 'email_address']) {
    expect(body.properties, field).toHaveProperty(field);
  }
  // Documented closed (a generated client catches a misspelt field) with what the charge requires.
  expect(body.additionalProperties).toBe(false);
  expect(body.required).toEqual(['amount']);
  expect(body.properties.amount).toMatchObject({ type: 'integer', minimum: 1 });
  expect(body.properties.description).toMatchObject({ type: 'string', maxLength: 1000 });
  expect(charge.requestBody.required).toBe(true);
  expect(doc.paths['/charge/{id}/cancel'].post.requestBody.required).toBe(false);
  expect(doc.info.description).toContain('additionalProperties: false');
  expect(charge.requestBody.content['application/json'].example).toEqual({ token: 'tok_4f3c2b1a0e9d8c7b', amount: 1999, description: 'Order 42' });
  expect(Object.keys(charge.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
  const txn = charge.responses['200'].content['application/json'].schema;
  expect(txn.required).toEqual(expect.arrayContaining(['id', 'status', 'amount_settled', 'card_number', 'refunds', 'created_at']));
  expect(txn.required).toHaveLength(Object.keys(txn.properties).length);
  const example = charge.responses['200'].content['application/json'].example;
  expect(example.card_number).toBe('XXXXXXXXXXXX1111');
  expect(example.amount_settled).toBe(1999);
  const list = doc.paths['/transactions'].get;
  expect(list.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema.type])).toEqual([['limit', 'integer'], ['offset', 'integer']]);
  expect(list.responses['200'].content['application/json'].example.list[0].id).toBe(example.id);
});

test('a body documented closed is still read leniently: the field table answers a bad amount with the spec\'s code, an unknown field is ignored', async ({ gateway: gw }) => {
  const auth = { authorization: `Basic ${Buffer.from(`${gw.merchant.test.private_key}:`).toString('base64')}` };
  for (const amount of [true, 'ten', [1], { a: 1 }]) {
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: auth, payload: { token: 'nope', amount } });
    expect(res.statusCode, JSON.stringify(amount)).toBe(400);
    expect(res.json().errors[0].code, JSON.stringify(amount)).toBe('59112');
  }
  const extra = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: auth, payload: { token: 'nope', amount: 100, shipping_note: 'x' } });
  expect(extra.json().errors[0].code).toBe('69201');
});

test('/docs renders the document with Swagger UI served by the gateway itself', async ({ gateway: gw }) => {
  const res = await gw.app.inject({ url: '/docs' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  const refs = [...res.body.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((u) => !u.startsWith('data:'));
  expect(refs).toEqual(['/docs/swagger-ui.css', '/api/v1/openapi.json', '/docs/swagger-ui-bundle.js', '/docs/docs.js']);
  for (const url of refs) {
    const asset = await gw.app.inject({ url });
    expect(asset.statusCode, url).toBe(200);
    expect(asset.headers['content-type'], url).toMatch(url.endsWith('.css') ? /^text\/css/ : url.endsWith('.js') ? /^text\/javascript/ : /^application\/json/);
  }
  expect((await gw.app.inject({ url: '/docs/swagger-ui-bundle.js' })).body).toContain('SwaggerUIBundle');
  expect((await gw.app.inject({ url: '/docs/docs.js' })).body).toContain("url: '/api/v1/openapi.json'");
  for (const url of ['/docs/index.html', '/docs/constructor', '/docs/..%2Fpackage.json']) {
    const missing = await gw.app.inject({ url });
    expect(missing.statusCode, url).toBe(404);
    expect(missing.json().errors[0].code, url).toBe('NOTFOUND');
  }
});
