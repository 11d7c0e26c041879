// @vitest-environment node
// The hosted fields' size budgets (issue 29), built from the current source in memory: the page's
// loader (fields.js) at most 1,024 bytes min+gzip, so a page pays next to nothing for it; the
// frame's document with everything it loads (its script and its style) at most 4,096.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';
import { rollup, type OutputChunk, type OutputOptions, type RollupOptions } from 'rollup';
import { loadConfigFile } from 'rollup/loadConfigFile';

const code: Record<string, string> = {};
const gz = (s: string | Buffer) => gzipSync(s, { level: 9 }).length;

beforeAll(async () => {
  const { options } = await loadConfigFile(resolve('rollup.config.mjs'), {}, false);
  for (const config of options as RollupOptions[]) {
    const output = (Array.isArray(config.output) ? config.output[0] : config.output) as OutputOptions;
    if (!/(fields|frame)\.js$/.test(output.file ?? '')) continue;
    const bundle = await rollup({ ...config, onwarn: (w) => { throw new Error(String(w.message)); } });
    code[output.file!.split('/').pop()!] = ((await bundle.generate(output)).output[0] as OutputChunk).code;
    await bundle.close();
  }
}, 60_000);

test('fields.js is within 1,024 bytes min+gzip, an IIFE that adds fields to window.Tessera beside generateToken', () => {
  expect(Object.keys(code).sort()).toEqual(['fields.js', 'frame.js']);
  expect(gz(code['fields.js'])).toBeLessThanOrEqual(1024);
  expect(code['fields.js']).toMatch(/this\.Tessera\s*=\s*this\.Tessera\s*\|\|\s*\{\}/);
  expect(code['fields.js']).not.toMatch(/\brequire\(|\bimport\b/);
});

test('the frame document, its script and its style are within 4,096 bytes min+gzip together', () => {
  const html = readFileSync(resolve('server/public/fields/frame.html'));
  const css = readFileSync(resolve('server/public/fields/frame.css'));
  // What the document loads is what it names: nothing else.
  expect([...html.toString().matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['frame.css', 'frame.js']);
  expect(gz(html) + gz(css) + gz(code['frame.js'])).toBeLessThanOrEqual(4096);
  expect(code['frame.js']).not.toMatch(/\brequire\(|\bimport\b/);
});
