import { protocol, types } from '@electric-sql/pglite';
import type { Row } from './db.js';

// The PostgreSQL wire protocol for the PGlite adapter's one-message statements: the frontend
// message written with Buffer (native UTF-8 length and copy), the answer read from the raw bytes.
// PGlite's own path runs every answer through pg-protocol's parser (a copy and a TextDecoder per
// field, a DataView read per byte of each name) and then builds rows with Object.fromEntries:
// about a quarter of a charge's CPU on the embedded database (docs/decisions/database.md, "Statements").
// An answer holding an ErrorResponse is handed to pg-protocol's parser instead, so a failing
// statement throws exactly the DatabaseError PGlite throws.

export interface Statement {
  /** The prepared statement's name; '' for an unnamed one. */
  name: string;
  sql: string;
  /** Parameters as PostgreSQL's text input reads them; null for NULL. */
  values: (string | null)[];
  /** Send Parse (and, for a named statement, Close first: a Parse that went through in a message that then failed left the name taken). */
  parse: boolean;
}

const cstringLength = (s: string) => Buffer.byteLength(s) + 1;

/** [Close, Parse,] Bind, Describe (portal), Execute, Sync as one buffer: all parameters and results as text. */
export function frontendMessage(st: Statement): Uint8Array {
  const { name, sql, values } = st;
  const withClose = st.parse && name !== '';
  let size = 0;
  if (withClose) size += 1 + 4 + 1 + cstringLength(name);
  if (st.parse) size += 1 + 4 + cstringLength(name) + cstringLength(sql) + 2;
  const lengths = values.map((v) => (v === null ? -1 : Buffer.byteLength(v)));
  const bindBody = 4 + 1 + cstringLength(name) + 2 + 2 * values.length + 2 + lengths.reduce((n, l) => n + 4 + Math.max(l, 0), 0) + 2;
  size += 1 + bindBody;
  size += 1 + 4 + 1 + 1; // Describe portal ''
  size += 1 + 4 + 1 + 4; // Execute '' 0
  size += 1 + 4; // Sync

  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  const byte = (b: number) => (buf[at++] = b);
  const int16 = (n: number) => (at = buf.writeInt16BE(n, at));
  const int32 = (n: number) => (at = buf.writeInt32BE(n, at));
  const cstring = (s: string) => {
    at += buf.write(s, at, 'utf8');
    buf[at++] = 0;
  };
  if (withClose) {
    byte(0x43); int32(4 + 1 + cstringLength(name)); byte(0x53); cstring(name); // 'C' 'S'
  }
  if (st.parse) {
    byte(0x50); int32(4 + cstringLength(name) + cstringLength(sql) + 2); cstring(name); cstring(sql); int16(0); // 'P', no parameter types
  }
  byte(0x42); int32(bindBody); byte(0); cstring(name); // 'B', portal ''
  int16(values.length);
  for (let i = 0; i < values.length; i++) int16(0); // each parameter's format: text (as pg-protocol writes it)
  int16(values.length);
  for (let i = 0; i < values.length; i++) {
    int32(lengths[i]);
    if (lengths[i] > 0) at += buf.write(values[i]!, at, 'utf8');
  }
  int16(0); // every result column text
  byte(0x44); int32(4 + 1 + 1); byte(0x50); byte(0); // 'D' 'P' ''
  byte(0x45); int32(4 + 1 + 4); byte(0); int32(0); // 'E' '' no row limit
  byte(0x53); int32(4); // 'S'
  if (at !== size) throw new Error(`pglite-wire: wrote ${at} of ${size} bytes`);
  return buf;
}

/**
 * The rows of the first result in a backend answer (RowDescription, DataRow ..., CommandComplete),
 * each value parsed as PGlite parses it (`parsers` by type oid). An answer with an ErrorResponse
 * throws that error as PGlite's parser reads it.
 */
export function readRows(answer: Buffer, parsers: Parameters<typeof types.parseType>[2]): Row[] {
  const rows: Row[] = [];
  let names: string[] = [];
  let oids: number[] = [];
  let done = false;
  for (let at = 0; at + 5 <= answer.length;) {
    const code = answer[at];
    const end = at + 1 + answer.readInt32BE(at + 1);
    let p = at + 5;
    if (code === 0x45) throw databaseError(answer); // 'E'
    if (!done && code === 0x54) { // 'T' RowDescription
      const n = answer.readInt16BE(p);
      p += 2;
      names = new Array(n);
      oids = new Array(n);
      for (let i = 0; i < n; i++) {
        const zero = answer.indexOf(0, p);
        names[i] = answer.toString('utf8', p, zero);
        oids[i] = answer.readInt32BE(zero + 7); // after table oid (4) and column number (2)
        p = zero + 19;
      }
    } else if (!done && code === 0x44) { // 'D' DataRow
      const n = answer.readInt16BE(p);
      p += 2;
      const row: Row = {};
      for (let i = 0; i < n; i++) {
        const len = answer.readInt32BE(p);
        p += 4;
        if (len < 0) {
          row[names[i]] = null;
        } else {
          row[names[i]] = types.parseType(answer.toString('utf8', p, p + len), oids[i], parsers);
          p += len;
        }
      }
      rows.push(row);
    } else if (code === 0x43) { // 'C' CommandComplete: later results are not read (one statement a message)
      done = true;
    }
    at = end;
  }
  return rows;
}

function databaseError(answer: Buffer): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(answer, (msg) => {
    if (!error && msg instanceof Error) error = msg;
  });
  return error ?? new Error('pglite-wire: an ErrorResponse that does not parse');
}
