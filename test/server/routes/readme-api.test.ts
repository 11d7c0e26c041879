import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../server/paths.js';
import { expect, test } from '../../fixtures.js';

// The README's "API at a glance" names every operation the gateway routes under /api/v1, and
// nothing it does not: a new route without its README line fails here. The routes are read from
// the gateway's OpenAPI document, which lists every /api/v1 route Fastify has (openapi.test.ts).

const METHOD = '(?:GET|POST|PUT|PATCH|DELETE)';
const ENTRY = new RegExp(`^(${METHOD}(?:, ${METHOD})*) (/[^\\s?]*)(?:\\?\\S*)?$`);

/** `METHOD /path` for every code span of the section that reads `GET, POST /path` (`:id` as `{id}`). */
function readmeOperations(readme: string): string[] {
  const start = readme.indexOf('\n## API at a glance\n');
  if (start < 0) throw new Error('README.md has no "API at a glance" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const out: string[] = [];
  for (const [, span] of section.matchAll(/`([^`\n]+)`/g)) {
    const m = ENTRY.exec(span);
    if (!m) continue;
    const path = m[2].replace(/:([A-Za-z_]+)/g, '{$1}');
    for (const method of m[1].split(', ')) out.push(`${method} ${path}`);
  }
  return out;
}

test('the parser reads one line per method, with its parameters and without the query', () => {
  const readme = 'intro `GET /not/here`\n## API at a glance\n| `GET, POST /a/:id` (public key) | x `field` |\n'
    + '| `GET /b?limit=` and `DELETE /c/:c_id/d` |\n## Next\n`PUT /e`';
  expect(readmeOperations(readme)).toEqual(['GET /a/{id}', 'POST /a/{id}', 'GET /b', 'DELETE /c/{c_id}/d']);
});

test("every /api/v1 operation has its line in the README's API at a glance, and every line is a route", async ({ gateway }) => {
  const doc = (await gateway.app.inject({ url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  const routed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  expect(routed.length).toBeGreaterThan(90);
  const listed = readmeOperations(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  expect(routed.filter((op) => !listed.includes(op)), 'routed but missing from README.md (API at a glance)').toEqual([]);
  expect(listed.filter((op) => !routed.includes(op)), 'in README.md (API at a glance) but not routed').toEqual([]);
  for (const op of ['GET /customers', 'POST /plans', 'GET /subscriptions/{id}', 'POST /webhooks/strategies', 'GET /webhooks/deliveries']) {
    expect(listed).toContain(op);
  }
});
