#!/usr/bin/env node
// `npm start` builds only when dist/ is older than what it is built from (a build is ~15 s).
// Inputs: src/ and server/ TypeScript, the tsconfig files, rollup.config.mjs, package.json.
// Outputs: the server entry and the tokenizer bundles; the oldest of them must be newer than
// the newest input. `--check` only says which (exit 0: current, 1: stale).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INPUT_DIRS = ['src', 'server'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'src/tsconfig.json', 'rollup.config.mjs', 'package.json'];
const OUTPUTS = ['dist/server/main.js', 'dist/tokenizer/tessera.js', 'dist/tokenizer/tessera.mjs'];

function newestTs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTs(path));
    else if (/\.(ts|mts)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why dist/ under `root` needs a build, or null when it is current. */
export function staleReason(root) {
  const missing = OUTPUTS.find((f) => !existsSync(join(root, f)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((f) => statSync(join(root, f)).mtimeMs));
  for (const dir of INPUT_DIRS) {
    if (existsSync(join(root, dir)) && newestTs(join(root, dir)) > built) return `${dir}/ changed since the last build`;
  }
  const file = INPUT_FILES.find((f) => existsSync(join(root, f)) && statSync(join(root, f)).mtimeMs > built);
  return file ? `${file} changed since the last build` : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const reason = staleReason(root);
  if (process.argv.includes('--check')) {
    console.log(reason ? `stale: ${reason}` : 'current');
    process.exit(reason ? 1 : 0);
  }
  if (reason) {
    console.error(`building: ${reason}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { status } = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (status !== 0) process.exit(status ?? 1);
  }
}
