import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * How `tessera keys …` reaches an embedded gateway that holds its data directory (PGlite allows
 * one process): the gateway writes `control.json` into its private data directory (0700; the file
 * 0600) with its pid, a loopback URL and a token made at each start; the command reads it and calls
 * the admin route (server/routes/admin.ts). Removed on a clean shutdown; a file whose pid is dead
 * (kill -9) is ignored, and the next start replaces it.
 */
export const CONTROL_FILE = 'control.json';

export interface Control {
  pid: number;
  /** Where the admin route answers from this machine; null when the gateway listens on no loopback address. */
  url: string | null;
  /** The address the gateway listens on (for the message when url is null). */
  listen: string;
  token: string;
}

const LOOPBACK_URL = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]):\d{1,5}$/;

export function newAdminToken(): string {
  return randomBytes(32).toString('hex');
}

/** The URL a local client reaches the listener at: a wildcard or loopback address; else null. */
export function loopbackUrl(address: AddressInfo | string | null): string | null {
  if (!address || typeof address === 'string') return null;
  const { address: a, port } = address;
  if (a === '0.0.0.0' || a === '127.0.0.1' || a.startsWith('127.')) return `http://${a === '0.0.0.0' ? '127.0.0.1' : a}:${port}`;
  if (a === '::' || a === '::1') return `http://[::1]:${port}`;
  if (a.startsWith('::ffff:127.')) return `http://${a.slice(7)}:${port}`;
  return null;
}

/** Writes the control file (atomically, 0600); answers the function that removes it if it is still ours. */
export function writeControlFile(dir: string, control: Control): () => void {
  const file = join(dir, CONTROL_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(control), { mode: 0o600 });
  renameSync(tmp, file);
  return () => {
    try {
      if (readControlFile(dir)?.token === control.token) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}

/** The control file, or null when it is absent or unreadable (a partial or foreign file). */
export function readControlFile(dir: string): Control | null {
  let raw: any;
  try {
    raw = JSON.parse(readFileSync(join(dir, CONTROL_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (!raw || !Number.isInteger(raw.pid) || typeof raw.token !== 'string' || typeof raw.listen !== 'string') return null;
  if (raw.url !== null && typeof raw.url !== 'string') return null;
  // The token goes to this machine only, whatever the file says.
  const url = typeof raw.url === 'string' && LOOPBACK_URL.test(raw.url) ? raw.url : null;
  return { pid: raw.pid, url, listen: raw.listen, token: raw.token };
}
