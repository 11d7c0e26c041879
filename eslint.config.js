// Structural rules only (no style): which part of the server may import which (and, inside the
// domain, which area may import which), no import cycle, no file over 400 lines. The direction is
// written down in server/README.md and server/domain/README.md; each folder's README says the same
// for that folder. `npm run lint` runs this, and `npm test` runs lint first.
import { readdirSync } from 'node:fs';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** Top-level server files everything may use: the error catalogue, the clock, the vault, paths. */
const KERNEL = ['errors.ts', 'clock.ts', 'vault.ts', 'vault-homes.ts', 'paths.ts'];
/** What each part may import, besides itself, src/ (the tokenizer's shared card checks) and packages. */
const MAY_IMPORT = {
  lib: ['errors.ts'],
  db: ['lib', 'errors.ts', 'paths.ts'],
  net: ['lib', 'errors.ts'],
  processor: ['lib', 'errors.ts'],
  schemas: ['lib', 'errors.ts', 'domain'], // domain types only (import type): the rule below
  domain: ['lib', 'db', 'processor', 'net', 'schemas', ...KERNEL],
  notify: ['lib', 'db', 'net', 'schemas', 'domain', ...KERNEL],
  jobs: ['lib', 'db', 'net', 'processor', 'schemas', 'domain', 'notify', ...KERNEL],
  http: ['lib', 'db', 'schemas', 'domain', ...KERNEL],
  routes: ['lib', 'db', 'net', 'processor', 'schemas', 'domain', 'notify', 'jobs', 'http', ...KERNEL],
  ...Object.fromEntries(KERNEL.map((f) => [f, ['lib', ...KERNEL]])),
};
/** The shipped QA kit (tessera-gateway/testing, /playwright): it may import anything, nothing in the server imports it. */
const QA_KIT = ['testing', 'playwright.ts'];

/**
 * The domain's areas, lowest first (server/domain/README.md): an area may import the areas before
 * it, never one after it, so no two areas import each other. Every file of server/domain/ sits in
 * one of these folders.
 */
const AREAS = ['merchant', 'events', 'instruments', 'payments', 'documents', 'billing', 'dashboard'];
const strays = readdirSync(`${root}/server/domain`, { withFileTypes: true })
  .filter((e) => e.name !== 'README.md' && !(e.isDirectory() && AREAS.includes(e.name)))
  .map((e) => e.name);
if (strays.length > 0) {
  throw new Error(`server/domain/ holds only the area folders named in AREAS (eslint.config.js): move ${strays.join(', ')} into one, or add the area in its place in the order (server/domain/README.md)`);
}

const entries = readdirSync(`${root}/server`, { withFileTypes: true })
  .filter((e) => (e.isDirectory() && e.name !== 'public') || /\.ts$/.test(e.name))
  .map((e) => e.name);
const path = (name) => `./server/${name}`;

const zones = [
  ...Object.entries(MAY_IMPORT).map(([part, allowed]) => ({
    target: path(part),
    from: entries.filter((e) => e !== part && !allowed.includes(e)).map(path),
    message: `server/${part} may import only ${allowed.join(', ')} (server/README.md).`,
  })),
  // Everything else at the top (app, start, main, config, the CLI commands) composes the parts.
  {
    target: entries.filter((e) => !(e in MAY_IMPORT) && !QA_KIT.includes(e)).map(path),
    from: QA_KIT.map(path),
    message: 'Nothing in the server imports the QA kit (server/testing, playwright.ts); it imports the server.',
  },
  { target: './src', from: './server', message: 'The browser tokenizer (src/) imports nothing from the server.' },
  // Inside the domain: each area imports only the areas below it.
  ...AREAS.slice(0, -1).map((area, i) => ({
    target: path(`domain/${area}`),
    from: AREAS.slice(i + 1).map((above) => path(`domain/${above}`)),
    message: `server/domain/${area} may import only the areas below it${i === 0 ? ' (none)' : `: ${AREAS.slice(0, i).join(', ')}`} (server/domain/README.md).`,
  })),
];

export default [
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['server/**/*.ts', 'src/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      // no-cycle follows imports by parsing each imported file: TypeScript, `.js` specifiers meaning `.ts`.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: Infinity, ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
    },
  },
  {
    // A resource's schema describes a domain record: it may name the record's type, never run domain code.
    files: ['server/schemas/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['../domain/**'], allowTypeImports: true, message: 'schemas/ may import domain types only (import type).' }],
      }],
    },
  },
  {
    files: ['server/**/*.{ts,js,mjs}', 'src/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
];
