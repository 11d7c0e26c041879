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

/** A failed command the operator can act on: one line, exit status 1. */
export class CommandError extends Error {}

/** How long a command waits for the gateway's answer (unless the request says otherwise). */
export const ADMIN_ANSWER_MS = 15_000;

export interface GatewayRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The admin route's path and query. */
  path: string;
  body?: object;
  waitMs?: number;
}

/**
 * A command's request to the embedded gateway (process `pid`) that holds the data directory
 * `dir`, through its admin route: the control file's loopback URL and token. What the operator
 * can act on is one line (CommandError): the file is not that process's (a gateway still starting,
 * a data-key run), the gateway listens on no loopback address, it does not answer in time, or it
 * refuses the token. `family` names the commands in those lines (`key`, `processor`). Any other
 * answer is the caller's: its status and its body (null when not JSON).
 */
export async function askGateway(
  dir: string, pid: number, family: 'key' | 'processor', req: GatewayRequest,
): Promise<{ url: string; status: number; body: any; stop: string }> {
  const control = readControlFile(dir);
  const file = join(dir, CONTROL_FILE);
  const stop = `stop it (kill ${pid}), run this command again, then start the gateway again`;
  if (!control || control.pid !== pid) {
    throw new CommandError(
      `tessera: process ${pid} holds the data directory ${dir} but takes no ${family} commands (no current ${file}): ` +
        `if it is a gateway still starting, run this again once it listens; if it is a tessera data-key run, wait for it to finish; else ${stop}`,
    );
  }
  if (!control.url) {
    throw new CommandError(
      `tessera: the gateway (process ${pid}) on ${dir} listens on ${control.listen} only, not on a loopback address this command can use: ` +
        `set HOST=0.0.0.0 or HOST=127.0.0.1 for it, or ${stop}`,
    );
  }
  const wait = req.waitMs ?? ADMIN_ANSWER_MS;
  const headers: Record<string, string> = { authorization: `Bearer ${control.token}` };
  if (req.body) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${control.url}${req.path}`, {
      method: req.method, headers, body: req.body && JSON.stringify(req.body), signal: AbortSignal.timeout(wait),
    });
  } catch (err: any) {
    const why = err?.name === 'TimeoutError' ? `no answer in ${wait / 1000} s` : String(err?.cause?.code ?? err?.message ?? err);
    throw new CommandError(
      `tessera: the gateway (process ${pid}) holding the data directory did not answer at ${control.url} (${why}): ` +
        `check that it is running and answering, or ${stop}`,
    );
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: reported by status */
  }
  const code = body?.errors?.[0]?.code;
  if (code === 'ADMIN01' || code === 'NOTFOUND') {
    throw new CommandError(
      `tessera: the gateway (process ${pid}) at ${control.url} refused the admin token of ${file} (${code}): ` +
        `the file is not from its current start, or it is an older Tessera${family === 'processor' ? ' without processor commands' : ''}; restart the gateway, or ${stop}`,
    );
  }
  return { url: control.url, status: res.status, body, stop };
}
