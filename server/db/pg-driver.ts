import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type postgresType from 'postgres';

// The `postgres` driver (3.4.9, the latest) has one fault that ends the process: a statement
// executed on a connection after it closed (a transaction's own ROLLBACK once PostgreSQL restarted
// under it, or the next statement of the transaction's function) is written to a socket that is
// gone, from a setImmediate nobody can catch: `TypeError: Cannot read properties of null (reading
// 'write')` at connection.js nextWrite, an uncaught exception. It also leaves that statement as the
// connection's current one, so a reconnect could hand its answer to it.
//
// The fix is at the one door such statements use: `connection.execute` as the pool and the
// transaction scope call it. A connection is open from the driver's `onopen` until its `onclose`;
// a statement given to it in between is executed, any other is refused with the driver's own
// CONNECTION_CLOSED error, as it would have been had it been sent a moment earlier. The pool's
// internal first statement of a reconnect does not pass this door (the connection calls its own
// execute). The wrapper sits on the CommonJS build, whose modules can be replaced before the driver
// loads them; its API is the ESM build's. test/server/db/pg-driver.test.ts shows the crash it prevents.

type Conn = { execute(q: Query): boolean; queue: unknown };
type Query = { reject(err: unknown): void };
type Handlers = { onopen?: (c: Conn) => void; onend?: (c: Conn) => void; onclose?: (c: Conn, e: unknown) => void };
type ConnectionFactory = (options: unknown, queues?: unknown, handlers?: Handlers) => Conn;

const require = createRequire(import.meta.url);
const indexPath = require.resolve('postgres');
const connectionPath = join(dirname(indexPath), 'connection.js');
const { Errors } = require(join(dirname(indexPath), 'errors.js')) as { Errors: { connection(code: string, options: unknown): Error } };
const original = require(connectionPath) as ConnectionFactory;

function guarded(options: unknown, queues?: unknown, handlers: Handlers = {}): Conn {
  let open = false;
  const { onopen, onclose } = handlers;
  const conn = original(options, queues, {
    ...handlers,
    onopen: (c) => {
      open = true;
      onopen?.(c);
    },
    onclose: (c, e) => {
      open = false;
      onclose?.(c, e);
    },
  });
  // A connection made for a cancel request is never opened through a pool: leave it as it is.
  if (!queues) return conn;
  const execute = conn.execute;
  conn.execute = (q: Query) => {
    if (open) return execute(q);
    q.reject(Errors.connection('CONNECTION_CLOSED', options));
    return true; // handled: the caller must not take this connection for full
  };
  return conn;
}

if (!(require.cache[connectionPath]?.exports as { tesseraGuarded?: boolean } | undefined)?.tesseraGuarded) {
  require.cache[connectionPath]!.exports = Object.assign(guarded, { tesseraGuarded: true });
}

/** The `postgres` driver with closed connections guarded (above). */
export const postgres = require('postgres') as typeof postgresType;
