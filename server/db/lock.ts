import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirLockedError extends Error {}

/** Lock files this process holds: a pid check cannot tell a second open in this process from a stale lock. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err.code === 'EPERM';
  }
}

/**
 * PGlite has no lock of its own: two processes on one data directory corrupt it.
 * The lock file holds the owner's pid; a lock left by a dead process (kill -9) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, 'tessera.lock');
  const id = resolve(file);
  if (held.has(id)) throw new DataDirLockedError(`data directory ${dir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(id);
      return () => {
        if (!held.delete(id)) return;
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err: any) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      // Our own pid in a lock we do not hold is stale too: a restarted container is often pid 1 again.
      if (pid && pid !== process.pid && alive(pid)) {
        throw new DataDirLockedError(
          `data directory ${dir} is in use by process ${pid}; stop it or set TESSERA_DATA_DIR to another directory`,
        );
      }
      unlinkSync(file); // stale: its owner is gone
    }
  }
  throw new DataDirLockedError(`could not lock data directory ${dir}`);
}

/**
 * The pid of the live process holding the data directory's lock, or null (no lock, a stale one, or
 * this process). Reads only: `tessera keys` uses it to decide between the database and the gateway.
 */
export function lockHolder(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, 'tessera.lock'), 'utf8'));
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}
