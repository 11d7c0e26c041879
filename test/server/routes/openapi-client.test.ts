// Proof that /api/v1/openapi.json is complete enough to generate a client: openapi-typescript turns
// it into types, a program that tokenizes, charges, refunds and lists is type-checked against them
// with openapi-fetch, then run against the gateway. Without a field the program reads, it does not
// type-check.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { expect, test as base } from '../../fixtures.js';

/** The gateway fixture, plus `doc` (its /api/v1/openapi.json) and `dir` (a scratch folder, removed after the file). */
const test = base.extend<{ doc: any; dir: string }>({
  doc: [async ({ gateway: gw }, use) => use((await gw.app.inject({ url: '/api/v1/openapi.json' })).json()), { scope: 'file' }],
  // eslint-disable-next-line no-empty-pattern
  dir: [async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-client-'));
    try {
      await use(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, { scope: 'file' }],
});

/** A merchant's program, written against the generated types only. */
const PROGRAM = `
import type createClient from 'openapi-fetch';
import type { paths } from './api';

export async function run(create: typeof createClient, fetch: typeof globalThis.fetch, publicKey: string, privateKey: string) {
  const basic = (key: string) => ({ authorization: 'Basic ' + btoa(key + ':') });
  const api = create<paths>({ baseUrl: 'http://gateway.test/api/v1', fetch });

  const token = await api.POST('/tokens', {
    headers: basic(publicKey),
    body: { card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2030', csc: '123', card_owner_name: 'Ada Lovelace' },
  });
  if (!token.data) throw new Error('tokenize: ' + JSON.stringify(token.error));
  const tokenId: string = token.data.id;
  const last4: string | null = token.data.last_4;

  const charge = await api.POST('/charge', { headers: basic(privateKey), body: { token: tokenId, amount: 1999, description: 'Order 42' } });
  if (!charge.data) throw new Error('charge: ' + JSON.stringify(charge.error));
  const settled: number = charge.data.amount_settled;
  const masked: string | null = charge.data.card_number;

  const refund = await api.POST('/charge/{id}/cancel', {
    headers: basic(privateKey), params: { path: { id: charge.data.id } }, body: { amount: 500 },
  });
  if (!refund.data) throw new Error('refund: ' + JSON.stringify(refund.error));
  const refunded: number = refund.data.amount_refunded;
  const refundAmounts: number[] = refund.data.refunds.map((r) => r.amount);

  const page = await api.GET('/transactions', { headers: basic(privateKey), params: { query: { limit: 5, offset: 0 } } });
  if (!page.data) throw new Error('list: ' + JSON.stringify(page.error));
  const ids: string[] = page.data.list.map((t) => t.id);
  const total: number = page.data.meta.total_results;

  const missing = await api.GET('/charge/{id}', { headers: basic(privateKey), params: { path: { id: 'nope' } } });
  const code: string | undefined = missing.error?.errors[0]?.code;

  return { tokenId, last4, chargeId: charge.data.id, settled, masked, refunded, refundAmounts, ids, total, code };
}
`;

/** The last program checked: the next one reuses its parsed libraries (lib.dom alone takes seconds). */
let previous: ts.Program | undefined;

/** tsc's complaints about PROGRAM against the types generated from `document`, in a folder of its own. */
async function typeCheck(dir: string, document: object, name: string, source = PROGRAM): Promise<string[]> {
  const folder = join(dir, name);
  const types = astToString(await openapiTS(document as any));
  const main = join(folder, 'program.ts');
  mkdirSync(folder);
  writeFileSync(join(folder, 'api.d.ts'), types);
  writeFileSync(main, source);
  const program = ts.createProgram([main], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: true,
    // The folder lies outside the project: point the one package it imports at ours.
    paths: { 'openapi-fetch': [join(dirname(createRequire(import.meta.url).resolve('openapi-fetch/package.json')), 'dist', 'index.d.mts')] },
  }, undefined, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('a program using the generated client type-checks, and runs against the gateway', async ({ gateway: gw, doc, dir }) => {
  expect(await typeCheck(dir, doc, 'complete')).toEqual([]);

  // The same program, run: openapi-fetch over the gateway's own request handling.
  const js = ts.transpileModule(PROGRAM, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(dir, 'program.mjs');
  writeFileSync(file, js);
  const { run } = await import(pathToFileURL(file).href);
  const fetchVia = async (request: Request) => {
    const url = new URL(request.url);
    const res = await gw.app.inject({
      method: request.method as any, url: url.pathname + url.search, headers: Object.fromEntries(request.headers), payload: await request.text(),
    });
    return new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
  };
  const out = await run(createClient, fetchVia, gw.merchant.test.public_key, gw.merchant.test.private_key);
  expect(out).toMatchObject({ last4: '1111', settled: 1999, masked: 'XXXXXXXXXXXX1111', refunded: 500, refundAmounts: [500], total: 1, code: '69404' });
  expect(out.ids).toEqual([out.chargeId]);
}, 120_000);

/** The document with only the paths the program calls: quicker to generate and check. */
const used = (doc: any) => ({
  ...doc,
  paths: Object.fromEntries(['/tokens', '/charge', '/charge/{id}', '/charge/{id}/cancel', '/transactions'].map((p) => [p, structuredClone(doc.paths[p])])),
});

test('without a field the program reads, or with a path renamed, the program no longer type-checks', async ({ doc, dir }) => {
  expect(await typeCheck(dir, used(doc), 'used-paths')).toEqual([]);
  const lost = used(doc);
  const charge = lost.paths['/charge'].post.responses['200'].content['application/json'].schema;
  delete charge.properties.amount_settled;
  charge.required = charge.required.filter((f: string) => f !== 'amount_settled');
  const errors = await typeCheck(dir, lost, 'no-amount-settled');
  expect(errors.join('\n')).toMatch(/Property 'amount_settled' does not exist/);
  expect(errors).toHaveLength(1);

  const renamed = used(doc);
  renamed.paths['/charge/{id}/refund'] = renamed.paths['/charge/{id}/cancel'];
  delete renamed.paths['/charge/{id}/cancel'];
  expect((await typeCheck(dir, renamed, 'no-cancel')).join('\n')).toMatch(/\/charge\/\{id\}\/cancel/);
}, 120_000);

test('a charge without its amount, or with a misspelt field, does not type-check against the generated client (tsc --strict)', async ({ doc, dir }) => {
  const call = "body: { token: tokenId, amount: 1999, description: 'Order 42' }";
  expect(PROGRAM).toContain(call);
  const missing = await typeCheck(dir, used(doc), 'no-amount', PROGRAM.replace(call, "body: { token: tokenId, description: 'Order 42' }"));
  expect(missing.join('\n')).toMatch(/Property 'amount' is missing/);
  // openapi-fetch infers its init argument, so TypeScript's excess-property check does not reach a
  // literal written inline in the call; a body typed by the generated request type is checked.
  const typed = (body: string) => `import type { paths } from './api';
type ChargeBody = NonNullable<paths['/charge']['post']['requestBody']>['content']['application/json'];
export const order: ChargeBody = ${body};
`;
  expect(await typeCheck(dir, used(doc), 'typed', typed("{ token: 'tok_1', amount: 1999, description: 'Order 42', metadata: { order: 42 } }"))).toEqual([]);
  const misspelt = await typeCheck(dir, used(doc), 'misspelt', typed("{ token: 'tok_1', amount: 1999, descripton: 'Order 42' }"));
  expect(misspelt.join('\n')).toMatch(/'descripton' does not exist in type/);
  const noAmount = await typeCheck(dir, used(doc), 'typed-no-amount', typed("{ token: 'tok_1', description: 'Order 42' }"));
  expect(noAmount.join('\n')).toMatch(/Property 'amount' is missing/);
  const amountText = await typeCheck(dir, used(doc), 'typed-amount-text', typed("{ token: 'tok_1', amount: '19.99' }"));
  expect(amountText.join('\n')).toMatch(/'string' is not assignable to type 'number'/);
  // A refund's body is optional (no amount refunds what remains), and so is its amount.
  const refundAll = await typeCheck(dir, used(doc), 'refund-all', PROGRAM.replace('body: { amount: 500 }', 'body: {}'));
  expect(refundAll).toEqual([]);
}, 120_000);
