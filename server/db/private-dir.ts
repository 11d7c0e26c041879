import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A directory only this user can enter: created 0700 (missing parents too), and an existing one
 * with group or other bits tightened to 0700 with a warning. Holding card data, keys and
 * database files, it must not be readable (PII) or writable (a planted key row) by other users.
 * Refuses a symbolic link or a directory of another user: it cannot be made private from here.
 */
export function ensurePrivateDir(dir: string, warn?: (msg: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} must be a directory, not a link or a file`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new Error(`${dir} belongs to another user (uid ${st.uid}); use a directory of your own`);
  }
  if (st.mode & 0o077) {
    chmodSync(dir, 0o700);
    warn?.(`${dir} was open to other users (mode ${(st.mode & 0o777).toString(8)}); changed it to 700`);
  }
}

/**
 * Every file under `dir` 0600 and every folder 0700, `dir` too; symbolic links are left as they are
 * (chmod would follow them out of the directory). PGlite sets its files' modes itself, after the
 * process umask: a new data directory held 968 files of mode 666 and its relation-cache files come
 * 644 (docs/decisions/connections-and-files.md), so db/pglite.ts runs this at open, every minute
 * and at close. A file gone meanwhile (PostgreSQL's temporary ones) is skipped; any other failure
 * (a file of another user) is thrown. Resolves with how many it changed.
 */
export async function makeTreePrivate(dir: string): Promise<number> {
  if (process.platform === 'win32') return 0;
  let changed = 0;
  const visit = async (path: string, isDir: boolean): Promise<void> => {
    const want = isDir ? 0o700 : 0o600;
    try {
      const st = await lstat(path);
      if ((st.mode & 0o777) !== want) {
        await chmod(path, want);
        changed++;
      }
      if (!isDir) return;
      for (const e of await readdir(path, { withFileTypes: true })) {
        if (e.isDirectory() || e.isFile()) await visit(join(path, e.name), e.isDirectory());
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  await visit(dir, true);
  return changed;
}
