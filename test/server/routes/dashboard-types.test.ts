// The dashboard's API types (server/public/dashboard/openapi.d.ts, read by its JSDoc through
// api-types.d.ts) are what openapi-typescript makes of the document this gateway serves: a route
// whose schema changed without `npm run dashboard:types` fails here, before a page reads a field the
// API no longer answers. The comparison is the script's own rendering (scripts/dashboard-types.mjs),
// fed the test gateway's /api/v1/openapi.json. The document is the same on either database: PGlite only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../../fixtures.js';
// @ts-expect-error a plain .mjs script without declarations
import { OUTPUT, renderDashboardTypes } from '../../../scripts/dashboard-types.mjs';

const root = join(import.meta.dirname, '..', '..', '..');

/** Where `a` and `b` first differ, as a line number and each side's line. */
function firstDifference(a: string, b: string): string {
  const [left, right] = [a.split('\n'), b.split('\n')];
  const at = left.findIndex((line, i) => line !== right[i]);
  const line = at === -1 ? left.length : at;
  return `line ${line + 1}:\n  committed: ${left[line] ?? '(end of file)'}\n  generated: ${right[line] ?? '(end of file)'}`;
}

test('the dashboard\'s API types are those the served OpenAPI document generates', async ({ gateway }) => {
  const res = await gateway.app.inject({ url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const generated: string = await renderDashboardTypes(res.json());
  const committed = readFileSync(join(root, OUTPUT), 'utf8');
  if (committed !== generated) {
    expect.fail(`${OUTPUT} differs from what the served OpenAPI document generates: run \`npm run dashboard:types\` `
      + `(then npm run typecheck:dashboard) and commit it. First difference at ${firstDifference(committed, generated)}`);
  }
  // The pages' aliases (api-types.d.ts) read these names.
  expect(generated).toMatch(/^export interface paths \{$/m);
  expect(generated).toContain('"/dashboard/summary": {');
}, 60_000);
