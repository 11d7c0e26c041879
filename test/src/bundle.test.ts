// @vitest-environment node
// Builds rollup.config.mjs in memory (nothing is written), so the budget is checked
// against the current source rather than whatever dist/ happens to hold.
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { rollup, type OutputAsset, type OutputChunk, type RollupOptions, type OutputOptions } from 'rollup';
import { loadConfigFile } from 'rollup/loadConfigFile';

const BUDGET = 2048; // min+gzip bytes of the IIFE
const KEY = 'test_pk_' + 'a'.repeat(55);
const CARD = { card_owner_name: 'Ada', card_number: '4111111111111111', card_exp_month: 1, card_exp_year: 2099 };

let configs: RollupOptions[];
const outputs: Record<string, (OutputChunk | OutputAsset)[]> = {};

const outputOf = (c: RollupOptions) => (Array.isArray(c.output) ? c.output[0] : c.output) as OutputOptions;

beforeAll(async () => {
  ({ options: configs } = await loadConfigFile(resolve('rollup.config.mjs'), {}, false));
  // The tokenizer's two builds (the hosted fields' are test/src/fields.test.ts's).
  configs = configs.filter((c) => /^src\/index\.ts$/.test(String(c.input)));
  for (const config of configs) {
    const bundle = await rollup({ ...config, onwarn: (w) => { throw new Error(String(w.message)); } });
    outputs[outputOf(config).format!] = (await bundle.generate(outputOf(config))).output;
    await bundle.close();
  }
}, 60_000);

const iife = () => (outputs.iife[0] as OutputChunk).code;

describe('bundle', () => {
  test('one IIFE and one ES module, both written under dist/tokenizer/', () => {
    expect(Object.keys(outputs).sort()).toEqual(['es', 'iife']);
    for (const c of configs) {
      const o = outputOf(c);
      expect(o.file ?? o.dir).toMatch(/^dist\/tokenizer(\/|$)/);
    }
  });

  test(`IIFE min+gzip is within ${BUDGET} bytes`, () => {
    const min = Buffer.byteLength(iife());
    const gz = gzipSync(iife(), { level: 9 }).length;
    console.info(`tokenizer IIFE: ${min} B minified, ${gz} B min+gzip (budget ${BUDGET})`);
    expect(gz).toBeLessThanOrEqual(BUDGET);
  });

  test('zero runtime dependencies', () => {
    const chunks = Object.values(outputs).flat().filter((o): o is OutputChunk => o.type === 'chunk');
    expect(chunks).toHaveLength(2);
    for (const c of chunks) expect([c.imports, c.dynamicImports]).toEqual([[], []]);
    expect(iife()).not.toMatch(/\brequire\(|\bimport\b/);
    // The ES build locates the gateway from its own URL; the IIFE must not carry rollup's
    // import.meta stand-in.
    expect((outputs.es.find((o) => o.type === 'chunk') as OutputChunk).code).toContain('import.meta.url');
  });

  test('the luhn package is carried inline, converted from CommonJS', () => {
    const es = (outputs.es.find((o) => o.type === 'chunk') as OutputChunk).code;
    // The package's own loop (its doubling table), not the hand-written checksum it replaced.
    expect(es).toMatch(/case 18:\s*calc2 = 9/);
    expect(es).not.toMatch(/\brequire\(|module\.exports/);
  });

  test('type declarations are emitted next to the ES module', () => {
    const dts = outputs.es.find((o) => o.fileName === 'index.d.ts') as OutputAsset | undefined;
    expect(dts, 'index.d.ts missing from the ES build').toBeDefined();
    const text = String(dts!.source);
    for (const name of ['PaymentData', 'TokenResponse', 'TokenError', 'Callback']) expect(text).toContain(`type ${name}`);
    expect(text).toContain('export declare function generateToken');
    expect(outputs.es.map((o) => o.fileName)).toContain('tessera.mjs');
  });
});

// Runs the minified IIFE against a hand-made window/document, the way a page loads it
// from <script src="https://gw.example/pay/tokenizer.js">.
function load(window: Record<string, unknown>) {
  const appended: { src: string; remove(): void; removed?: boolean }[] = [];
  const document = {
    currentScript: { src: 'https://gw.example/pay/tokenizer.js' },
    createElement: () => ({ removed: false, remove() { this.removed = true; } }),
    head: { appendChild: (s: (typeof appended)[number]) => appended.push(s) },
  };
  const Tessera = new Function('window', 'document', iife() + '\nreturn Tessera;')(window, document);
  return { Tessera, appended };
}

describe('IIFE in a page', () => {
  test('defines Tessera.generateToken and a window.generateToken alias', () => {
    const window: Record<string, unknown> = {};
    const { Tessera } = load(window);
    expect(typeof Tessera.generateToken).toBe('function');
    expect(window.generateToken).toBe(Tessera.generateToken);
  });

  test("leaves a page's own window.generateToken alone", () => {
    const mine = () => {};
    const window: Record<string, unknown> = { generateToken: mine };
    load(window);
    expect(window.generateToken).toBe(mine);
  });

  test('requests the gateway it was loaded from and delivers the reply', () => {
    const window: Record<string, unknown> = {};
    const { Tessera, appended } = load(window);
    const callback = vi.fn();
    Tessera.generateToken(KEY, CARD, callback);
    expect(appended).toHaveLength(1);
    const url = new URL(appended[0].src);
    expect(url.origin + url.pathname).toBe('https://gw.example/pay/api/v1/tokens/jsonp');
    const name = url.searchParams.get('callback')!;
    (window[name] as (r: unknown) => void)({ id: 'abc' });
    expect(callback).toHaveBeenCalledExactlyOnceWith({ id: 'abc' });
    expect(appended[0].removed).toBe(true);
    expect(name in window).toBe(false);
  });
});
