import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { ensurePrivateDir, makeTreePrivate } from '../../../server/db/private-dir.js';
import { openPglite } from '../../../server/db/pglite.js';
import { buildSnapshot, migratedSnapshot, readVerifiedSnapshot, snapshotDir, snapshotPath } from '../../../server/db/snapshot.js';
import { startTessera } from '../../../server/start.js';
import { migratedDataDir } from '../../helpers/data-template.js';

const roots: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'tessera-private-'));
  roots.push(d);
  return d;
};
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));
const mode = (p: string) => statSync(p).mode & 0o777;
/** Every file and folder under `dir` (not `dir`) whose mode lets a group or other users in, with its mode. */
const open = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((rel) => {
  const st = lstatSync(join(dir, rel));
  return !st.isSymbolicLink() && st.mode & 0o077 ? [`${rel} ${(st.mode & 0o777).toString(8)}`] : [];
});
const count = (dir: string) => readdirSync(dir, { recursive: true }).length;

describe('the embedded data directory is private', () => {
  test('a new directory (and its missing parents) is created 0700', () => {
    const dir = join(scratch(), 'a', 'b');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  test('an existing 0755 directory is tightened to 0700, with a warning naming it', () => {
    const dir = join(scratch(), 'data');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    ensurePrivateDir(dir, (m) => warnings.push(m));
    expect(mode(dir)).toBe(0o700);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
    expect(warnings[0]).toContain('755');
    ensurePrivateDir(dir, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1); // already private: nothing to say
  });

  test('a symbolic link is refused', () => {
    const root = scratch();
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(() => ensurePrivateDir(join(root, 'link'))).toThrow(/not a link/);
  });

  test('a gateway started on a world-readable data directory makes it private before writing into it', async () => {
    const dir = join(scratch(), 'tessera');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const warnings: string[] = [];
    const gw = await startTessera({ port: 0, storage: 'disk', dataDir: dir, logLevel: 'silent', warn: (m) => warnings.push(m) });
    try {
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'data.key'))).toBe(0o600);
      expect(warnings.some((w) => w.includes(dir) && w.includes('777'))).toBe(true);
    } finally {
      await gw.close();
    }
  });
});

describe('the in-memory snapshot cache is per user and checked before it is loaded', () => {
  const saved = process.env.TESSERA_SNAPSHOT_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TESSERA_SNAPSHOT_DIR;
    else process.env.TESSERA_SNAPSHOT_DIR = saved;
  });

  test('the default cache folder is named after the user, not shared by everyone on the machine', () => {
    delete process.env.TESSERA_SNAPSHOT_DIR;
    expect(snapshotDir()).toBe(join(tmpdir(), `tessera-snapshots-${process.getuid!()}`));
  });

  test('a snapshot is written with its digest into a 0700 folder, and a tampered one is not loaded', async () => {
    const dir = join(scratch(), 'cache');
    process.env.TESSERA_SNAPSHOT_DIR = dir;
    const path = snapshotPath(dir);
    await buildSnapshot(path);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path)).toBe(0o600);
    expect(existsSync(`${path}.sha256`)).toBe(true);
    expect(readVerifiedSnapshot(path)).not.toBeNull();

    // Someone rewrites the tarball (a planted database): the digest no longer matches.
    const tampered = readVerifiedSnapshot(path)!;
    tampered[tampered.length - 2048] ^= 0xff;
    writeFileSync(path, tampered);
    expect(readVerifiedSnapshot(path)).toBeNull();
    expect(await migratedSnapshot()).toBeNull();
  });

  /**
   * `dir` made the snapshot cache, holding a tarball buildSnapshot wrote with its digest: the one
   * the API projects' global setup built in this user's cache (test/setup/snapshot.ts), copied;
   * without that cache (TESSERA_SNAPSHOT=off), one built here. Returns the tarball's path.
   */
  async function seededCache(dir: string): Promise<string> {
    const cached = readVerifiedSnapshot(snapshotPath(snapshotDir()));
    process.env.TESSERA_SNAPSHOT_DIR = dir;
    const path = snapshotPath(dir);
    if (!cached) {
      await buildSnapshot(path);
      return path;
    }
    ensurePrivateDir(dir);
    writeFileSync(path, cached, { mode: 0o600 });
    writeFileSync(`${path}.sha256`, createHash('sha256').update(cached).digest('hex'), { mode: 0o600 });
    return path;
  }

  test('a tarball without a digest beside it is not loaded', async () => {
    const path = await seededCache(join(scratch(), 'cache'));
    expect(readVerifiedSnapshot(path)).not.toBeNull();
    rmSync(`${path}.sha256`);
    expect(readVerifiedSnapshot(path)).toBeNull();
  });

  test('a cache folder open to other users is made private before it is used', async () => {
    // Seeded with a good snapshot before it is opened up, so what is used is that snapshot (no
    // build): loading it is the use the folder must be private for.
    const dir = join(scratch(), 'open');
    await seededCache(dir);
    chmodSync(dir, 0o777);
    expect(mode(dir)).toBe(0o777);
    expect(await migratedSnapshot()).not.toBeNull();
    expect(mode(dir)).toBe(0o700);
  });
});

describe('every file under the data directory is 0600 and every folder 0700, whatever PGlite does', () => {
  test('a gateway that wrote and checkpointed leaves no file or folder open to others, while it runs and after it stops', async () => {
    const dir = join(scratch(), 'tessera');
    const gw = await startTessera({ port: 0, storage: 'disk', dataDir: dir, logLevel: 'silent' });
    try {
      await gw.db.exec("CREATE TABLE modes_probe (id int PRIMARY KEY, note text); INSERT INTO modes_probe SELECT g, repeat('x', 200) FROM generate_series(1, 5000) g;");
      await gw.db.exec('CHECKPOINT');
      expect(count(dir)).toBeGreaterThan(900); // PGlite's whole cluster is there, not an empty folder
      expect(open(dir)).toEqual([]);
    } finally {
      await gw.close();
    }
    expect(open(dir)).toEqual([]);
    expect(mode(dir)).toBe(0o700);
  });

  test('a directory an older version left open (files 666, folders 755) is made private as it opens', async () => {
    const dir = await migratedDataDir(join(scratch(), 'old')); // a directory a gateway has run on
    ensurePrivateDir(dir);
    if (!existsSync(join(dir, 'PG_VERSION'))) await (await openPglite(dir)).close(); // TESSERA_DATA_TEMPLATE=off
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      chmodSync(join(dir, rel), statSync(join(dir, rel)).isDirectory() ? 0o755 : 0o666);
    }
    expect(open(dir).length).toBeGreaterThan(900);
    const db = await openPglite(dir);
    try {
      expect(open(dir)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  test('a file loosened while the database is open is made private again by the next pass', async () => {
    const dir = await migratedDataDir(join(scratch(), 'running'));
    ensurePrivateDir(dir);
    const db = await openPglite(dir, {}, { modesEveryMs: 100 });
    try {
      chmodSync(join(dir, 'PG_VERSION'), 0o666);
      mkdirSync(join(dir, 'extra'), { mode: 0o755 });
      chmodSync(join(dir, 'extra'), 0o755);
      await expect.poll(() => open(dir), { timeout: 3000, interval: 50 }).toEqual([]);
    } finally {
      await db.close();
    }
  });

  test('closing makes private what was written since the last pass, before a backup copies the stopped directory', async () => {
    const dir = await migratedDataDir(join(scratch(), 'closing'));
    ensurePrivateDir(dir);
    const db = await openPglite(dir, {}, { modesEveryMs: 3_600_000 });
    chmodSync(join(dir, 'PG_VERSION'), 0o666);
    await db.close();
    expect(open(dir)).toEqual([]);
  });

  test('a symbolic link is not followed: what it points to outside keeps its mode', async () => {
    const root = scratch();
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'x');
    chmodSync(outside, 0o644);
    mkdirSync(join(root, 'data', 'sub'), { recursive: true });
    writeFileSync(join(root, 'data', 'sub', 'f'), 'x');
    chmodSync(join(root, 'data', 'sub', 'f'), 0o664);
    symlinkSync(outside, join(root, 'data', 'link'));
    expect(await makeTreePrivate(join(root, 'data'))).toBeGreaterThan(0);
    expect(mode(outside)).toBe(0o644);
    expect(mode(join(root, 'data', 'sub', 'f'))).toBe(0o600);
    expect(mode(join(root, 'data', 'sub'))).toBe(0o700);
    expect(await makeTreePrivate(join(root, 'data'))).toBe(0); // nothing left to change
  });
});
