import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { badRequest, E, GatewayError } from '../errors.js';

export const CONTENT_ENCODINGS = ['gzip', 'deflate', 'br'] as const;
type Coding = (typeof CONTENT_ENCODINGS)[number];

/** The one coding of a request body, null for none (absent or `identity`); anything else is 415. */
export function contentCoding(header: string | string[] | undefined): Coding | null {
  const value = (Array.isArray(header) ? header.join(',') : header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return null;
  if (value === 'x-gzip') return 'gzip';
  if ((CONTENT_ENCODINGS as readonly string[]).includes(value)) return value as Coding;
  throw new GatewayError(E.UNSUPPORTED_CONTENT, `Content-Encoding ${JSON.stringify(value.slice(0, 40))} is not supported; send the body as is, or with gzip, deflate or br`);
}

/**
 * The decoded body as a stream for Fastify's parsers. Nothing happens until a parser reads it: a
 * body no parser reads (a GET, HEAD or OPTIONS, an unknown path, a route that takes none) is never
 * decoded, and Node discards it unread. The decoded size counts against the route's body limit as
 * it is produced (413 REQ02 the moment it passes it), so a small zip bomb never becomes memory;
 * `receivedEncodedLength` lets Fastify check Content-Length against the bytes sent. Every stream
 * here has an owner for its errors: a body that is not what its Content-Encoding says is an error
 * of the request (400), never an unhandled 'error' event that ends the process.
 */
export function decodeBody(payload: Readable, coding: Coding, limit: number): Readable {
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null = null;
  let size = 0;
  let failed = false;
  const out: Readable & { receivedEncodedLength: number } = Object.assign(new Readable({
    read() {
      if (decoder) decoder.resume();
      else start();
    },
    destroy(err, cb) {
      // The reader gave up (an error elsewhere, the request closed): stop decoding, drop the rest.
      stop();
      cb(err);
    },
  }), { receivedEncodedLength: 0 });
  // The reader listens too; this one makes sure an error with no reader left is still owned.
  out.on('error', () => {});
  const stop = () => {
    if (decoder) {
      payload.unpipe(decoder);
      decoder.removeAllListeners('data');
      decoder.on('error', () => {});
      decoder.destroy();
    }
    payload.resume(); // the rest of the request is read and dropped, so the answer can be sent
  };
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    out.destroy(err);
  };
  function start() {
    const d = coding === 'br' ? zlib.createBrotliDecompress() : coding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    decoder = d;
    payload.on('data', (chunk: Buffer) => { out.receivedEncodedLength += chunk.length; });
    payload.on('error', fail);
    d.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) fail(new GatewayError(E.BODY_TOO_LARGE, `request body too large once decoded (${coding}); the limit is ${limit} bytes`));
      else if (!out.push(chunk)) d.pause();
    });
    d.on('end', () => { if (!failed) out.push(null); });
    d.on('error', () => fail(badRequest(`the body is not valid ${coding} data (Content-Encoding: ${coding})`)));
    payload.pipe(d);
  }
  return out;
}

/** Whether the request carries a body at all (a GET with a stray Content-Encoding has nothing to decode). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
