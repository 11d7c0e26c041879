import { inspect } from 'node:util';

// Anything thrown, as one line a person can act on. Not everything thrown is an Error with a
// string message: PGlite's file system (Emscripten) throws `ErrnoError { errno: 51 }`, no message
// at all, and String() of that is "[object Object]" (a full disk at first start printed exactly
// that, issue 27 item 10c). Used by the CLI's failure line (main.ts).

/** Emscripten's errno numbers (WASI's, not Linux's: its ENOSPC is 51, its 28 is EINVAL). */
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: 'EACCES', 10: 'EBUSY', 19: 'EDQUOT', 20: 'EEXIST', 22: 'EFBIG', 28: 'EINVAL', 29: 'EIO', 31: 'EISDIR', 33: 'EMFILE',
  41: 'ENFILE', 44: 'ENOENT', 48: 'ENOMEM', 51: 'ENOSPC', 54: 'ENOTDIR', 55: 'ENOTEMPTY', 63: 'EPERM', 69: 'EROFS',
};

/** What each file-system error code means, in words. */
const CAUSES: Record<string, string> = {
  ENOSPC: 'disk full (no space left on device)',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error (the disk or its file system is failing)',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  EMFILE: 'too many open files (this process)',
  ENFILE: 'too many open files (the system)',
  EFBIG: 'file too large',
  ENOMEM: 'out of memory',
  EBUSY: 'resource busy',
};

/** PostgreSQL's SQLSTATEs of storage (what PGlite's and a server's own messages carry). */
const SQLSTATE_CAUSES: Record<string, string> = { '53100': 'ENOSPC', '58030': 'EIO' };

export interface Described {
  /** The error in words, one line. */
  text: string;
  /** A file-system error code (ENOSPC, EACCES, ...) when the error is one: the storage is the cause. */
  code: string | null;
  /** The path the error names, when it names one (Node's fs errors do; PGlite's do not). */
  path: string | null;
}

const oneLine = (s: string) => s.split('\n')[0].trim();

function asText(v: unknown): string {
  if (typeof v === 'string') return oneLine(v);
  return oneLine(inspect(v, { depth: 2, breakLength: Infinity, compact: true }));
}

/** The file-system code an error stands for, wherever it carries it. */
function storageCode(e: Record<string, unknown>, message: string): string | null {
  if (typeof e.code === 'string' && CAUSES[e.code]) return e.code;
  if (typeof e.code === 'string' && SQLSTATE_CAUSES[e.code]) return SQLSTATE_CAUSES[e.code];
  if (e.name === 'ErrnoError' && typeof e.errno === 'number' && CAUSES[EMSCRIPTEN_ERRNO[e.errno]]) return EMSCRIPTEN_ERRNO[e.errno];
  if (/no space left on device/i.test(message)) return 'ENOSPC';
  if (/disk quota exceeded/i.test(message)) return 'EDQUOT';
  if (/read-only file system/i.test(message)) return 'EROFS';
  return null;
}

/** Anything thrown, described: never "[object Object]", never empty. */
export function describeError(err: unknown): Described {
  if (err === null || err === undefined) return { text: `unknown error (${String(err)} was thrown)`, code: null, path: null };
  if (typeof err !== 'object') return { text: asText(String(err)) || 'unknown error', code: null, path: null };
  const e = err as Record<string, unknown>;
  // The message when it is text; an object where a message belongs is shown as what it is.
  const raw = e.message;
  let message = typeof raw === 'string' ? oneLine(raw) : raw !== undefined && raw !== null ? asText(raw) : '';
  const code = storageCode(e, message);
  if (!message) {
    const name = typeof e.errno === 'number' ? EMSCRIPTEN_ERRNO[e.errno] : undefined;
    message = e.name === 'ErrnoError' && typeof e.errno === 'number'
      ? `file system error ${e.errno}${name ? ` (${name})` : ''}`
      : asText(err);
  }
  const path = typeof e.path === 'string' ? e.path : typeof e.dest === 'string' ? e.dest : null;
  return { text: message, code, path };
}

/**
 * The CLI's line for a start that failed: with a storage cause, the path (the error's own, else
 * `dataDir`) and the cause in words first, e.g. `data directory /var/lib/tessera: disk full (no
 * space left on device) [ENOSPC: no space left on device, write]`; otherwise the error's text.
 */
export function startFailureLine(err: unknown, dataDir?: string): string {
  const d = describeError(err);
  if (!d.code) {
    const where = dataDir && err !== null && typeof err === 'object' && !(err instanceof Error) ? ` (data directory ${dataDir})` : '';
    return `${d.text}${where}`;
  }
  const where = d.path ? (dataDir && d.path !== dataDir ? `data directory ${dataDir}: ${d.path}` : d.path) : dataDir ? `data directory ${dataDir}` : 'storage';
  const detail = d.text.toLowerCase().includes(CAUSES[d.code].split(' (')[0]) ? '' : ` [${d.text}]`;
  return `${where}: ${CAUSES[d.code]}${detail}`;
}
