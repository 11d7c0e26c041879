import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestGateway, startGateway } from '../../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

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

test('openapi.json is OpenAPI 3.1 and lists every /api/v1 route with its schemas', async () => {
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

test('/docs lists the endpoints and error codes', async () => {
  const res = await gw.app.inject({ url: '/docs' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(res.body).toContain('<code>/api/v1/charge/{id}</code>');
  expect(res.body).toContain('<code>CPCVV2</code>');
});
