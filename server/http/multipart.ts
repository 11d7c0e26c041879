import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { badRequest, E, GatewayError, tooManyFields } from '../errors.js';
import { FormBody, decodeUtf8 } from './form.js';

/**
 * A multipart/form-data body (curl -F, some PHP code) read like a form body: the same nested keys
 * (`metadata[color]=red`), the same field limit and body limit, values as UTF-8 text (bytes that
 * are not UTF-8 refused, as in forms). No operation takes a file: a part with a filename is
 * refused with 400, never stored or silently dropped.
 */
export function parseMultipart(headers: IncomingHttpHeaders, payload: Readable, limit: number, maxKeys: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const form = new FormBody(maxKeys);
    let settled = false;
    let busboy: ReturnType<typeof Busboy>;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      if (busboy) payload.unpipe(busboy);
      payload.resume(); // read and drop the rest, so the answer can be sent
      reject(err instanceof GatewayError ? err : badRequest('malformed multipart/form-data body'));
    };
    if (Number(headers['content-length']) > limit) return fail(new GatewayError(E.BODY_TOO_LARGE));
    try {
      busboy = Busboy({
        headers: headers as BusboyHeaders,
        // Every part is read as bytes (a "file" to busboy), so its text is decoded strictly here.
        isPartAFile: () => true,
        limits: { parts: maxKeys, fileSize: limit },
      });
    } catch {
      return fail(badRequest('multipart/form-data needs a boundary parameter'));
    }
    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(new GatewayError(E.BODY_TOO_LARGE));
    });
    payload.on('error', fail);
    busboy.on('file', (name, stream, filename) => {
      const chunks: Buffer[] = [];
      // A part cut off by the end of the body errors on its own stream: unheard, that error
      // would be thrown out of the event loop and end the process.
      stream.on('error', fail);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (settled) return;
        try {
          if (name === undefined) throw badRequest('a multipart part has no name');
          if (filename !== undefined) {
            throw badRequest(`body.${name} is a file; no operation takes files, send the field as text`);
          }
          form.add(name, decodeUtf8(Buffer.concat(chunks), `body.${name}`));
        } catch (err) {
          fail(err);
        }
      });
    });
    busboy.on('partsLimit', () => fail(tooManyFields(maxKeys)));
    busboy.on('error', fail);
    busboy.on('finish', () => {
      if (settled) return;
      settled = true;
      resolve(form.value);
    });
    payload.pipe(busboy);
  });
}
