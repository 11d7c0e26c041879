import typescript from '@rollup/plugin-typescript';
import terser from '@rollup/plugin-terser';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';

const input = 'src/index.ts';
const tsconfig = 'src/tsconfig.json';

// The `luhn` package (src/checks.ts) is CommonJS: resolve it from node_modules and convert it, so
// both builds carry it inline and keep zero runtime imports. Its `main` file is the one the server
// runs too (not its `browser` build, which answers true for an empty string).
const bundled = () => [nodeResolve(), commonjs()];

// A classic script has no import.meta; rollup's stand-in for it is large and mentions
// require(). The IIFE finds its URL through document.currentScript instead.
const noImportMetaInIife = {
  name: 'no-import-meta-in-iife',
  resolveImportMeta: (_property, { format }) => (format === 'iife' ? '""' : null),
};

// Hosted fields (issue 29): the page's loader (fields.js, which adds `fields` to window.Tessera
// beside generateToken when both are loaded) and the frame's script. Budgets: test/src/fields.test.ts.
const small = (input, file, extra = {}) => ({
  input,
  plugins: [typescript({ tsconfig }), ...bundled()],
  output: { file, format: 'iife', plugins: [terser({ format: { comments: false }, compress: { passes: 2 } })], ...extra },
});

export default [
  small('src/fields.ts', 'dist/tokenizer/fields.js', { name: 'Tessera', extend: true }),
  small('src/frame.ts', 'dist/tokenizer/frame.js'),
  {
    input,
    plugins: [typescript({ tsconfig }), ...bundled(), noImportMetaInIife],
    output: {
      file: 'dist/tokenizer/tessera.js',
      format: 'iife',
      name: 'Tessera',
      // Spec 4.2 says the tokenizer "exposes generateToken(...)": pages written for
      // that keep working unchanged. A page's own generateToken is never overwritten.
      footer: 'window.generateToken||(window.generateToken=Tessera.generateToken);',
      plugins: [terser({ format: { comments: false } })],
    },
  },
  {
    input,
    plugins: [typescript({ tsconfig, declaration: true, declarationDir: 'dist/tokenizer' }), ...bundled()],
    output: { dir: 'dist/tokenizer', entryFileNames: 'tessera.mjs', format: 'es' },
  },
];
