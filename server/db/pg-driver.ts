import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import type postgresType from 'postgres';

// The `postgres` driver (3.4.9, the latest) has one fault that ends the process: a statement
// executed on a connection after its socket closed (a transaction's own ROLLBACK once PostgreSQL
// restarted under it, or the next statement of the transaction's function) is written to a socket
// that is gone, from a setImmediate nobody can catch: `TypeError: Cannot read properties of null
// (reading 'write')` at connection.js nextWrite, an uncaught exception. The statement is also left
// as the connection's current one and never answered.
//
// The fix is two guards in the driver's connection.js, applied to its source as it loads: a
// statement given to a connection without a socket is refused with the driver's own
// CONNECTION_CLOSED (as it would have been had it been sent a moment earlier; `true` keeps the
// pool from taking the connection for full), and a write without a socket is dropped (every
// statement it carried was failed when the socket closed). The patched module replaces the
// original in the CommonJS cache before the driver's index loads it; its API is the ESM build's.
// Should the driver's text change (an upgrade), the original loads and `driverPatched` is false:
// test/server/db/pg-driver.test.ts fails then, and shows the crash the guards prevent.

const GUARDS: [string, string][] = [
  ['  function execute(q) {\n',
    "  function execute(q) {\n    if (!socket) return (queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true)\n"],
  ['  function nextWrite(fn) {\n',
    '  function nextWrite(fn) {\n    if (!socket) return (chunk = nextWriteTimer = null, false)\n'],
];

const require = createRequire(import.meta.url);
const connectionPath = join(dirname(require.resolve('postgres')), 'connection.js');

function load(): boolean {
  if (require.cache[connectionPath]) return (require.cache[connectionPath] as { tesseraPatched?: boolean }).tesseraPatched === true;
  let source = readFileSync(connectionPath, 'utf8');
  for (const [from, to] of GUARDS) {
    if (source.split(from).length !== 2) return false;
    source = source.replace(from, to);
  }
  const patched = new Module(connectionPath) as Module & { _compile(code: string, filename: string): void; tesseraPatched?: boolean };
  patched.filename = connectionPath;
  patched.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(connectionPath));
  patched._compile(source, connectionPath);
  patched.loaded = true;
  patched.tesseraPatched = true;
  require.cache[connectionPath] = patched;
  return true;
}

/** Whether the guards above are in the driver this process runs. */
export const driverPatched = load();

/** The `postgres` driver with closed connections guarded (above). */
export const postgres = require('postgres') as typeof postgresType;
