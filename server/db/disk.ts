import { statfs } from 'node:fs/promises';

/**
 * Free space an embedded data directory needs to be ready: PGlite adds WAL segments of 16 MB and
 * extends tables 8 kB at a time; below this, writes are about to fail with ENOSPC (503 DB01).
 */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Whether the file system holding `dir` has at least `minFree` bytes an unprivileged writer may use. */
export async function hasFreeSpace(dir: string, minFree = MIN_FREE_BYTES): Promise<boolean> {
  const s = await statfs(dir);
  return s.bavail * s.bsize >= minFree;
}
