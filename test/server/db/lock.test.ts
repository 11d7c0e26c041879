import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../../server/db/index.js';
import { DataDirLockedError, lockDataDir, lockHolder } from '../../../server/db/lock.js';
import { migrate } from '../../../server/db/migrate.js';
import { migratedDataDir } from '../../helpers/data-template.js';
import { DB_KIND } from '../../helpers/gateway.js';

// The PGlite data-directory lock (server/db/lock.ts). The rules are tested on the lock itself, in
// this process and in child processes (no database boots); one on-disk PGlite then shows that
// openDatabase takes the lock, refuses a second open, releases it on close and on a failed open.
// PostgreSQL has its own locking: the api:postgres project skips this file.

let root: string;
let childScript: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tessera-lock-'));
  // Child processes need JavaScript: transpile lock.ts (node built-ins only) instead of relying on dist/.
  const src = readFileSync(new URL('../../../server/db/lock.ts', import.meta.url), 'utf8');
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } });
  writeFileSync(join(root, 'lock.mjs'), js.outputText);
  childScript = join(root, 'child.mjs');
  writeFileSync(
    childScript,
    `import { lockDataDir } from ${JSON.stringify(join(root, 'lock.mjs'))};
     const [mode, dir] = process.argv.slice(2);
     try { lockDataDir(dir); } catch (e) { console.log(e.constructor.name + ': ' + e.message); process.exit(3); }
     console.log('locked');
     if (mode === 'hold') setInterval(() => {}, 60_000);`,
  );
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const newDir = () => {
  const d = join(root, `data-${randomBytes(4).toString('hex')}`);
  mkdirSync(d);
  return d;
};
const lockFile = (dir: string) => join(dir, 'tessera.lock');

/** Runs child.mjs: `hold` keeps the lock until killed, `try` takes it and exits (3 when refused). */
function child(mode: 'hold' | 'try', dir: string) {
  const c = spawn(process.execPath, [childScript, mode, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(c);
  let out = '';
  c.stdout!.on('data', (d) => { out += d; });
  const exited = new Promise<{ code: number | null; out: string }>((res) => c.on('exit', (code) => res({ code, out })));
  const locked = new Promise<void>((res, rej) => {
    c.stdout!.on('data', () => { if (out.includes('locked')) res(); });
    c.on('exit', () => rej(new Error(`child exited: ${out}`)));
  });
  locked.catch(() => {}); // only 'hold' callers await it
  return { proc: c, exited, locked };
}

const deadPid = async () => {
  const c = child('try', newDir());
  await c.exited;
  return c.proc.pid!;
};

describe.skipIf(DB_KIND === 'pg')('lockDataDir', () => {
  test('another live process holds the directory: DataDirLockedError naming it, and its lock stays', async () => {
    const dir = newDir();
    const holder = child('hold', dir);
    await holder.locked;
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.proc.pid));
    expect(lockHolder(dir)).toBe(holder.proc.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`data directory ${dir} is in use by process ${holder.proc.pid}`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.proc.pid));

    // kill -9 leaves the lock file behind; the next process takes it over.
    holder.proc.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(lockFile(dir))).toBe(true);
    expect(lockHolder(dir)).toBeNull();
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
    const other = await child('try', dir).exited;
    expect(other.code).toBe(3);
    expect(other.out).toContain(`DataDirLockedError: data directory ${dir} is in use by process ${process.pid}`);
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
    expect((await child('try', dir).exited).code).toBe(0);
  });

  test('a second lock in the same process is refused; the release frees the directory', () => {
    const dir = newDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/already open in this process/);
    expect(lockHolder(dir)).toBeNull(); // this process: not "another holder"
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
    const again = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
    again();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  test.for([
    ['a dead process', deadPid],
    ["this process's pid, left by an earlier run (containers reuse pid 1)", async () => process.pid],
  ] as const)('a stale lock file naming %s is taken over', async ([, pid]) => {
    const dir = newDir();
    writeFileSync(lockFile(dir), String(await pid()));
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  test('lockHolder: no lock file, or one that is not a pid, is no holder', () => {
    const dir = newDir();
    expect(lockHolder(dir)).toBeNull();
    writeFileSync(lockFile(dir), 'garbage');
    expect(lockHolder(dir)).toBeNull();
  });
});

describe.skipIf(DB_KIND === 'pg')('openDatabase on a data directory (one on-disk PGlite)', () => {
  test('holds the lock while open: a second open is refused before it boots; close frees it; the data stays', async () => {
    const dir = await migratedDataDir(newDir());
    const first = await openDatabase({ dataDir: dir });
    try {
      await first.query("INSERT INTO merchants (id, name, created_at) VALUES ('mer_1', 'kept', $1)", [new Date()]);
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
      const other = await child('try', dir).exited;
      expect(other.code).toBe(3);
    } finally {
      await first.close();
    }
    expect(existsSync(lockFile(dir))).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    try {
      expect(await again.query('SELECT name FROM merchants')).toEqual([{ name: 'kept' }]);
      expect(await migrate(again)).toEqual([]);
    } finally {
      await again.close();
    }
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  test('a failed open releases the lock', async () => {
    const dir = newDir();
    writeFileSync(join(dir, 'PG_VERSION'), 'not a database'); // PGlite refuses this directory
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow();
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});
