// The dashboard's API types (server/public/dashboard/openapi.d.ts, read by its JSDoc through
// api-types.d.ts) are what openapi-typescript makes of the document this gateway serves. The file
// is generated, not committed: `npm run typecheck:dashboard` writes it from the document of an app
// built from server/ (scripts/dashboard-types.mjs) and then checks the pages against it. This checks
// that the test gateway's document renders to the names the pages' aliases read, without examples.
// The document is the same on either database: PGlite only.
import { expect, test } from '../../fixtures.js';
// @ts-expect-error a plain .mjs script without declarations
import { renderDashboardTypes } from '../../../scripts/dashboard-types.mjs';

test('the served OpenAPI document renders to the types the dashboard\'s pages read', async ({ gateway }) => {
  const res = await gateway.app.inject({ url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const generated: string = await renderDashboardTypes(res.json());
  expect(generated).toMatch(/^\/\/ GENERATED FILE, not committed/m);
  // The pages' aliases (api-types.d.ts) read these names.
  expect(generated).toMatch(/^export interface paths \{$/m);
  expect(generated).toMatch(/^export interface operations \{$/m);
  expect(generated).toContain('"/dashboard/summary": {');
  expect(generated).not.toMatch(/^\s*example[s]?\??:/m); // the examples are left out
}, 60_000);
