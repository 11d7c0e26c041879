import { chmodSync, lstatSync, mkdirSync } from 'node:fs';

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
