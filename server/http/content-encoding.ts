import { PassThrough, Readable } from 'node:stream';
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
 * The decoded body as a stream for Fastify's parsers. The decoded size counts against the route's
 * body limit as it is produced (413 REQ02 the moment it passes it), so a small zip bomb never
 * becomes memory; `receivedEncodedLength` lets Fastify check Content-Length against the bytes sent.
 */
export function decodeBody(payload: Readable, coding: Coding, limit: number): Readable {
  const decoder = coding === 'br' ? zlib.createBrotliDecompress() : coding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
  const out = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
  let size = 0;
  let failed = false;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    payload.unpipe(decoder);
    decoder.destroy();
    payload.resume(); // the rest of the request is read and dropped, so the answer can be sent
    out.destroy(err);
  };
  payload.on('data', (chunk: Buffer) => { out.receivedEncodedLength += chunk.length; });
  payload.on('error', fail);
  decoder.on('data', (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (size > limit) fail(new GatewayError(E.BODY_TOO_LARGE, `request body too large once decoded (${coding}); the limit is ${limit} bytes`));
    else out.write(chunk);
  });
  decoder.on('end', () => { if (!failed) out.end(); });
  decoder.on('error', () => fail(badRequest(`the body is not valid ${coding} data (Content-Encoding: ${coding})`)));
  payload.pipe(decoder);
  return out;
}

/** Whether the request carries a body at all (a GET with a stray Content-Encoding has nothing to decode). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
