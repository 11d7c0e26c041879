import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The same code runs from server/*.ts (vitest) and dist/server/*.js (npm start):
// resolve assets from the package root instead of from this file.
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}

export const ROOT = findRoot();
export const MIGRATIONS_DIR = join(ROOT, 'server', 'db', 'migrations');
export const PUBLIC_DIR = join(ROOT, 'server', 'public');
export const TOKENIZER_DIR = join(ROOT, 'dist', 'tokenizer');
