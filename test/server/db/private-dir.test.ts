import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { ensurePrivateDir } from '../../../server/db/private-dir.js';
import { buildSnapshot, migratedSnapshot, readVerifiedSnapshot, snapshotDir, snapshotPath } from '../../../server/db/snapshot.js';
import { startTessera } from '../../../server/start.js';

const roots: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'tessera-private-'));
  roots.push(d);
  return d;
};
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));
const mode = (p: string) => statSync(p).mode & 0o777;

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

  test('a tarball without a digest beside it is not loaded', async () => {
    const dir = join(scratch(), 'cache');
    process.env.TESSERA_SNAPSHOT_DIR = dir;
    const path = snapshotPath(dir);
    await buildSnapshot(path);
    rmSync(`${path}.sha256`);
    expect(readVerifiedSnapshot(path)).toBeNull();
  });

  test('a cache folder open to other users is made private before it is used', async () => {
    const dir = join(scratch(), 'open');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    process.env.TESSERA_SNAPSHOT_DIR = dir;
    expect(await migratedSnapshot()).not.toBeNull();
    expect(mode(dir)).toBe(0o700);
  });
});
