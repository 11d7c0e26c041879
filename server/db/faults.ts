// What a database error says about the database rather than about the statement: it is away
// (refused, closed, restarting), it did not answer within its deadline, or it cannot write (disk
// full). Such a fault is answered 503 DB01 with Retry-After by the HTTP layer and makes /readyz
// unavailable; any other error of a statement is the statement's (a bug: 500).

export type DatabaseFault = 'unavailable' | 'timeout' | 'disk' | 'busy';

/** PostgreSQL SQLSTATEs of the server's state, not of the statement. */
const SQLSTATE: Record<string, DatabaseFault> = {
  '57P01': 'unavailable', // admin_shutdown (a fast restart or stop)
  '57P02': 'unavailable', // crash_shutdown
  '57P03': 'unavailable', // cannot_connect_now (starting up, shutting down)
  '57P04': 'unavailable', // database_dropped
  '57014': 'timeout', // query_canceled: statement_timeout, or our deadline's cancel
  '55P03': 'timeout', // lock_not_available: lock_timeout
  '25P03': 'timeout', // idle_in_transaction_session_timeout
  '53100': 'disk', // disk_full
  '58030': 'disk', // io_error
  '53200': 'busy', // out_of_memory
  '53300': 'busy', // too_many_connections
  '53400': 'busy', // configuration_limit_exceeded
  '40001': 'busy', // serialization_failure
  '40P01': 'busy', // deadlock_detected
};

/** The driver's own codes and the socket's: the connection, not the statement. */
const CONNECTION = new Set([
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);
const DISK = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

/** Our own deadline on a statement or a transaction (pg.ts), when PostgreSQL does not answer at all. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'DB_DEADLINE';
  /**
   * `statement`: the server answered nothing for one statement past its own statement_timeout (a
   * frozen server, a dead network): the database counts as away. `transaction`: the whole took
   * too long (a busy pool, many statements): a timeout of its own.
   */
  constructor(what: string, ms: number, readonly kind: 'statement' | 'transaction' = 'statement') {
    super(`the database did not answer ${what} within ${ms} ms`);
  }
}

/** Refused at once: the database was found away moments ago and another statement is finding out whether it is back (Breaker). */
export class DatabaseAwayError extends Error {
  readonly code = 'DB_AWAY';
  constructor() {
    super('the database was unavailable moments ago; another statement is checking whether it is back');
  }
}

/** The fault an error stands for, or null when it is an error of the statement itself. */
export function databaseFault(err: unknown): DatabaseFault | null {
  if (err instanceof DatabaseTimeoutError) return 'timeout';
  if (err instanceof DatabaseAwayError) return 'unavailable';
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; errno?: unknown; message?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SQLSTATE[code]) return SQLSTATE[code];
  if (/^08/.test(code) && code.length === 5) return 'unavailable'; // connection_exception class
  if (CONNECTION.has(code)) return 'unavailable';
  if (DISK.has(code)) return 'disk';
  // PGlite's file system (Emscripten, WASI numbering) throws ErrnoError with errno 51 (ENOSPC) or 29 (EIO); PostgreSQL's own words otherwise.
  if (e.name === 'ErrnoError' && (e.errno === 51 || e.errno === 29)) return 'disk';
  // A message is read only where there is no code to read (PGlite's file system): messages of
  // coded errors may quote what a client sent.
  if (code === '' && typeof e.message === 'string' && /No space left on device|ENOSPC/.test(e.message)) return 'disk';
  return null;
}

/**
 * The database's recent faults as seen by this process's statements: /readyz reports the database
 * unavailable while one happened within the last RECENT_MS (a full disk fails writes while `SELECT 1`
 * still answers).
 */
export class FaultLog {
  static readonly RECENT_MS = 5_000;
  private last: { fault: DatabaseFault; at: number } | null = null;
  constructor(private readonly now: () => number = Date.now) {}
  record(err: unknown): void {
    const fault = databaseFault(err);
    // Timeouts and contention belong to one statement's load, not to the database's health; but a
    // statement the server never answered, past its own statement_timeout, says the server is away.
    const away = fault === 'unavailable' || (err instanceof DatabaseTimeoutError && err.kind === 'statement');
    if (away) this.last = { fault: 'unavailable', at: this.now() };
    else if (fault === 'disk') this.last = { fault, at: this.now() };
  }
  /** The fault of the last RECENT_MS, or null. */
  recent(): DatabaseFault | null {
    return this.last && this.now() - this.last.at < FaultLog.RECENT_MS ? this.last.fault : null;
  }
  /** A statement got an answer: the database is not away (a full disk is not cleared by a read). */
  answered(): void {
    if (this.last?.fault === 'unavailable') this.last = null;
  }
}

/**
 * While the database is known to be away (an outage within FaultLog.RECENT_MS), one statement at a
 * time goes to find out and the others are refused at once with DatabaseAwayError (503 DB01): a
 * driver that keeps reconnecting would otherwise hold each of them to its full deadline, and a
 * node's requests would pile up for the length of the outage. Any answer closes it again.
 */
export class Breaker {
  private probing = false;
  constructor(private readonly faults: FaultLog) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    // While a probe is out, whatever the window says: the others would only wait for the same answer.
    if (this.probing) throw new DatabaseAwayError();
    const open = this.faults.recent() === 'unavailable';
    if (open) this.probing = true;
    try {
      const result = await fn();
      this.faults.answered();
      return result;
    } catch (err) {
      // An error of the statement itself is an answer too: the database is there.
      if (databaseFault(err) === null) this.faults.answered();
      throw err;
    } finally {
      if (open) this.probing = false;
    }
  }
}
