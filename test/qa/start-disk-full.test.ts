import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAIN } from '../proof/helpers.js';

// A full disk at first start (issue 27, item 10c): `tessera serve` says which directory and why,
// in one line, never "[object Object]" (what PGlite's ErrnoError printed). The disk is a real one:
// a 1 MB tmpfs, mounted here (root only; anywhere else the file says so and skips).

const root = mkdtempSync(join(tmpdir(), 'tessera-full-'));
const disk = join(root, 'disk');
let mounted = false;
beforeAll(() => {
  try {
    execFileSync('mkdir', ['-p', disk]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false; // not root, or no mount here
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', [disk]);
  rmSync(root, { recursive: true, force: true });
});

function serve(dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TESSERA_DATA_KEY;
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The failure line: the data directory, "disk full", no object dump, no stack. */
function expectDiskFull(run: { code: number | null; stderr: string }, dataDir: string, detail: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  const line = run.stderr.trimEnd().split('\n').filter((l) => l.startsWith('tessera: '));
  expect(line, run.stderr).toEqual([expect.stringContaining(`tessera: could not start: data directory ${dataDir}: disk full (no space left on device)`)]);
  expect(line[0]).toMatch(detail);
  expect(run.stderr).not.toMatch(/\[object Object\]|^\s+at /m);
}

describe('a full disk at first start', () => {
  test('room for the data key but not the database: PGlite\'s ErrnoError is named as a full disk in that directory', async (ctx) => {
    if (!mounted) ctx.skip();
    const dir = join(disk, 'a');
    expectDiskFull(await serve(dir), dir, /ENOSPC/);
  });

  test('no room at all: the data key\'s write (a Node error without a path) is named with the directory too', async (ctx) => {
    if (!mounted) ctx.skip();
    rmSync(join(disk, 'a'), { recursive: true, force: true });
    // Fill the disk to its last block.
    try {
      writeFileSync(join(disk, 'fill'), Buffer.alloc(2 * 1024 * 1024));
    } catch { /* ENOSPC: full, as wanted */ }
    const dir = join(disk, 'b');
    expectDiskFull(await serve(dir), dir, /\[ENOSPC: no space left on device, write\]/);
  });
});
