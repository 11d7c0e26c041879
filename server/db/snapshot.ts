// A migrated, cleanly shut down PGlite data directory, cached as a tarball, so that an in-memory
// database starts without initdb (1.5-5 s) and without migrations: PGlite untars it and boots.
//
// Why a clean shutdown: PGlite's own dumpDataDir() snapshots a running server, so every start from
// it runs crash recovery, which also deletes the relation-cache init files and makes the first
// query pay for rebuilding them. Building on disk, closing, then tarring the directory avoids both.
//
// The cache key covers the PGlite version, the recipe below and every migration file, so a new
// migration or upgrade builds a new snapshot by itself. Nothing here is needed for correctness:
// any failure falls back to a plain in-memory initdb.
//
// Trust: a snapshot is a whole database that tests then run against, so a planted one could feed
// them keys or rows. The cache is per user (mode 0700, owned by this user, never a link) and each
// tarball has a SHA-256 beside it, checked before loading: a file that does not match is ignored.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { ensurePrivateDir } from './private-dir.js';

/**
 * Applied once, on the snapshot only (never on a disk data directory):
 * - the template databases go: nothing creates databases in memory, and they are two thirds of
 *   the files PGlite would untar at every start;
 * - 1 MB WAL segments instead of 16 MB (initdb option, below);
 * - small shared buffers and few connection slots: a test gateway's data fits easily, and
 *   Postgres allocates both at boot; little WAL kept between checkpoints (it is memory too).
 */
const RECIPE = [
  "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
  'DROP DATABASE template0',
  'DROP DATABASE template1',
];
const SETTINGS = ["ALTER SYSTEM SET shared_buffers = '16MB'", 'ALTER SYSTEM SET max_connections = 10',
  // WAL kept in memory between checkpoints (maintenance.ts takes one at half of it): 16 MB, not 64.
  "ALTER SYSTEM SET max_wal_size = '16MB'", "ALTER SYSTEM SET min_wal_size = '4MB'"];
const INITDB_PARAMS = ['--wal-segsize=1'];
const FORMAT = 'tessera-snapshot-v1';

const require = createRequire(import.meta.url);
const PGLITE_DIST = dirname(require.resolve('@electric-sql/pglite'));

function pgliteVersion(): string {
  try {
    return JSON.parse(readFileSync(join(PGLITE_DIST, '..', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** This user's cache: TESSERA_SNAPSHOT_DIR, or a folder of the temp directory named after the user. */
export function snapshotDir(): string {
  return process.env.TESSERA_SNAPSHOT_DIR || join(tmpdir(), `tessera-snapshots-${process.getuid?.() ?? userInfo().username}`);
}

const digestOf = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The tarball's bytes when it is a regular file of this user whose SHA-256 matches its .sha256 file; else null. */
export function readVerifiedSnapshot(file: string): Buffer | null {
  try {
    const st = lstatSync(file);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid)) return null;
    const data = readFileSync(file);
    return readFileSync(`${file}.sha256`, 'utf8').trim() === digestOf(data) ? data : null;
  } catch {
    return null;
  }
}

/** The tarball's path for the current migrations and PGlite version. */
export function snapshotPath(dir = snapshotDir()): string {
  const h = createHash('sha256').update(FORMAT).update(JSON.stringify([RECIPE, SETTINGS, INITDB_PARAMS]));
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
    h.update(`\0${file}\0`).update(readFileSync(join(MIGRATIONS_DIR, file)));
  }
  const version = pgliteVersion();
  return join(dir, `pglite-${version}-${h.update(version).digest('hex').slice(0, 16)}.tar`);
}

// --- a minimal ustar writer (PGlite reads the result with its own untar) -------------------------

function header(name: string, size: number, type: '0' | '5', mtime: number): Buffer {
  const b = Buffer.alloc(512);
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`path too long for tar: ${name}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, '0') + '\0';
  b.write(name, 0, 100, 'utf8');
  b.write(octal(type === '5' ? 0o700 : 0o600, 8), 100);
  b.write(octal(0, 8), 108);
  b.write(octal(0, 8), 116);
  b.write(octal(size, 12), 124);
  b.write(octal(Math.floor(mtime / 1000), 12), 136);
  b.write('        ', 148); // checksum counted as spaces
  b.write(type, 156);
  b.write('ustar\0' + '00', 257);
  b.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of b) sum += byte;
  b.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return b;
}

/** The directory's files as a tar archive, paths relative to it. */
export function tarDirectory(root: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const full = join(root, path);
      if (entry.isDirectory()) {
        parts.push(header(`${path}/`, 0, '5', statSync(full).mtimeMs));
        walk(path);
      } else if (entry.isFile()) {
        const data = readFileSync(full);
        parts.push(header(path, data.length, '0', statSync(full).mtimeMs), data);
        if (data.length % 512) parts.push(Buffer.alloc(512 - (data.length % 512)));
      }
    }
  };
  walk('');
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

// --- building and finding ----------------------------------------------------------------------

/** Builds the snapshot into `file` (atomically: a reader never sees half a file). */
export async function buildSnapshot(file: string): Promise<Buffer> {
  const dir = dirname(file);
  ensurePrivateDir(dir);
  const work = mkdtempSync(join(dir, 'build-'));
  try {
    const db = await openPglite(join(work, 'data'), { initDbStartParams: INITDB_PARAMS });
    try {
      for (const sql of RECIPE) await db.exec(sql);
      await migrate(db);
      for (const sql of SETTINGS) await db.exec(sql);
    } finally {
      await db.close(); // a clean shutdown: the next start needs no recovery
    }
    const tar = tarDirectory(join(work, 'data'));
    // The digest first: a reader that sees the tarball also sees the digest that vouches for it.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(`${tmp}.sha256`, digestOf(tar) + '\n', { mode: 0o600 });
    renameSync(`${tmp}.sha256`, `${file}.sha256`);
    writeFileSync(tmp, tar, { mode: 0o600 });
    renameSync(tmp, file);
    return tar;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const STALE_LOCK_MS = 120_000;
const UNUSED_MS = 7 * 24 * 3600_000;

/** Removes snapshots of other migration sets that nobody used for a week. */
function prune(dir: string, keep: string): void {
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (path === keep || !/^pglite-.*\.tar$/.test(name)) continue;
      if (Date.now() - statSync(path).mtimeMs > UNUSED_MS) {
        rmSync(path, { force: true });
        rmSync(`${path}.sha256`, { force: true });
      }
    }
  } catch {
    // best effort
  }
}

let fileMemo: { path: string; file: Promise<string | null> } | null = null;
let blobMemo: { file: string; blob: Blob } | null = null;

/**
 * The path of the tarball of a migrated database for the current code, from the cache or built
 * there (once: concurrent processes that find another one building get null and run initdb as
 * before). null when disabled (TESSERA_SNAPSHOT=off) or when anything goes wrong.
 */
export function migratedSnapshotFile(): Promise<string | null> {
  if (process.env.TESSERA_SNAPSHOT === 'off') return Promise.resolve(null);
  let path: string;
  try {
    path = snapshotPath();
  } catch {
    return Promise.resolve(null);
  }
  if (fileMemo?.path !== path) {
    const file = findOrBuild(path).then(
      (found) => (found ? path : null),
      () => null,
    );
    const memo = { path, file };
    fileMemo = memo;
    // A missing snapshot is looked for again by the next caller rather than remembered.
    void file.then((f) => {
      if (!f && fileMemo === memo) fileMemo = null;
    });
  }
  return fileMemo.file;
}

/** The same snapshot as a Blob for PGlite's loadDataDir, read once per process. */
export async function migratedSnapshot(): Promise<Blob | null> {
  const file = await migratedSnapshotFile();
  if (!file) return null;
  if (blobMemo?.file !== file) {
    const data = readVerifiedSnapshot(file);
    if (!data) return null;
    blobMemo = { file, blob: new Blob([data as Uint8Array<ArrayBuffer>]) };
  }
  return blobMemo.blob;
}

/** true when the snapshot file is there (found or built now); false while another process builds it. */
async function findOrBuild(path: string): Promise<boolean> {
  const dir = dirname(path);
  ensurePrivateDir(dir); // throws for a folder of another user or a link: the cache is not used then
  try {
    const now = new Date();
    utimesSync(path, now, now); // "last used", for prune()
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const lock = `${path}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false; // someone is building it
    unlinkSync(lock);
    fd = openSync(lock, 'wx');
  }
  try {
    if (!existsSync(path)) await buildSnapshot(path); // another process may have finished meanwhile
    prune(dir, path);
    return true;
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/**
 * Like migratedSnapshot(), for a global setup: errors surface, and a build running in another
 * process is waited for (up to `waitMs`) instead of skipped. Resolves with the file's path.
 */
export async function ensureSnapshot(waitMs = 180_000): Promise<{ path: string; built: boolean }> {
  const path = snapshotPath();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const existed = existsSync(path);
    if (await findOrBuild(path)) {
      fileMemo = { path, file: Promise.resolve(path) };
      return { path, built: !existed };
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for another process to build ${path}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let wasm: Promise<{ module: WebAssembly.Module; fsBundle: Blob } | null> | null = null;

/**
 * PGlite's compiled WebAssembly and file bundle, shared by every in-memory database of this
 * process: the second and later ones skip compiling 9 MB of WebAssembly.
 */
export function pgliteAssets(): Promise<{ module: WebAssembly.Module; fsBundle: Blob } | null> {
  wasm ??= (async () => {
    try {
      const module = await WebAssembly.compile(readFileSync(join(PGLITE_DIST, 'pglite.wasm')));
      return { module, fsBundle: new Blob([readFileSync(join(PGLITE_DIST, 'pglite.data'))]) };
    } catch {
      return null;
    }
  })();
  return wasm;
}
