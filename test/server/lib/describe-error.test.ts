import { describe, expect, test } from 'vitest';
import { describeError, startFailureLine } from '../../../server/lib/describe-error.js';

// Start failures in words (issue 27, item 10c): anything thrown, including what PGlite throws
// (ErrnoError objects without a message), becomes one line naming the path and the cause.
// test/qa/start-disk-full.test.ts makes a real disk full; these are the shapes one by one.

const nodeError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
/** PGlite's file-system error as it is thrown: an object with a name and Emscripten's errno, no message. */
const errno = (n: number) => ({ name: 'ErrnoError', errno: n });

describe('startFailureLine', () => {
  test.each([
    ['PGlite ErrnoError 51 (Emscripten ENOSPC)', errno(51), 'data directory /d: disk full (no space left on device) [file system error 51 (ENOSPC)]'],
    ['PGlite ErrnoError 19 (EDQUOT)', errno(19), 'data directory /d: disk quota exceeded [file system error 19 (EDQUOT)]'],
    ['PGlite ErrnoError 69 (EROFS)', errno(69), 'data directory /d: read-only file system [file system error 69 (EROFS)]'],
    ['Node write without a path', nodeError('ENOSPC: no space left on device, write', { code: 'ENOSPC', errno: -28, syscall: 'write' }),
      'data directory /d: disk full (no space left on device) [ENOSPC: no space left on device, write]'],
    ['Node mkdir with its path', nodeError("EACCES: permission denied, mkdir '/d/sub'", { code: 'EACCES', syscall: 'mkdir', path: '/d/sub' }),
      "data directory /d: /d/sub: permission denied"],
    ['PostgreSQL disk_full', nodeError('could not extend file "base/5/16384": No space left on device', { code: '53100' }),
      'data directory /d: disk full (no space left on device) [could not extend file "base/5/16384": No space left on device]'],
    ['a message naming the cause only in words', new Error('could not write to file "pg_wal/xlogtemp.1": No space left on device'),
      'data directory /d: disk full (no space left on device) [could not write to file "pg_wal/xlogtemp.1": No space left on device]'],
  ])('%s', (_, err, line) => {
    expect(startFailureLine(err, '/d')).toBe(line);
  });

  test('without a data directory (PostgreSQL), the cause still comes first', () => {
    expect(startFailureLine(errno(51))).toBe('storage: disk full (no space left on device) [file system error 51 (ENOSPC)]');
  });

  test('what is not storage: its own words, never [object Object]', () => {
    expect(startFailureLine(new Error('port in use\nstack'), '/d')).toBe('port in use');
    expect(startFailureLine({ message: { detail: 'nested' } }, '/d')).toBe("{ detail: 'nested' } (data directory /d)");
    expect(startFailureLine({ reason: 'odd' }, '/d')).toBe("{ reason: 'odd' } (data directory /d)");
    expect(startFailureLine('a string', '/d')).toBe('a string');
    expect(startFailureLine(undefined)).toBe('unknown error (undefined was thrown)');
    expect(startFailureLine(errno(999), '/d')).toBe('file system error 999 (data directory /d)');
    for (const thrown of [{}, [], { message: {} }, Object.create(null), new Error('')]) {
      expect(startFailureLine(thrown, '/d')).not.toMatch(/\[object Object\]|^$/);
    }
  });

  test('describeError keeps the code and the path apart', () => {
    expect(describeError(nodeError("ENOSPC: no space left on device, open '/d/x'", { code: 'ENOSPC', path: '/d/x' })))
      .toEqual({ text: "ENOSPC: no space left on device, open '/d/x'", code: 'ENOSPC', path: '/d/x' });
    expect(describeError(errno(28))).toEqual({ text: 'file system error 28 (EINVAL)', code: null, path: null });
  });
});
