import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { sharedCompilers } from '../../../server/http/compilers.js';

// The schema compilers every app of a process shares (server/http/compilers.ts).
const options = { customOptions: { coerceTypes: true, removeAdditional: true } };
const body = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
const answer = { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } };

describe('shared schema compilers', () => {
  test('a second compiler for the same schemas returns the function the first compiled; another schema gets its own', () => {
    const a = sharedCompilers.buildValidator!({}, options as never);
    const b = sharedCompilers.buildValidator!({}, options as never);
    const route = (schema: unknown) => ({ schema, method: 'POST', url: '/x', httpPart: 'body' }) as never;
    const first = a(route(body));
    expect(b(route(JSON.parse(JSON.stringify(body))))).toBe(first);
    expect(b(route({ ...body, required: [] }))).not.toBe(first);
    // Other options are another Ajv: not shared.
    expect(sharedCompilers.buildValidator!({}, { customOptions: { coerceTypes: false } } as never)(route(body))).not.toBe(first);

    const s1 = sharedCompilers.buildSerializer!({}, {})({ schema: answer, method: 'GET', url: '/x', httpStatus: '200' } as never);
    const s2 = sharedCompilers.buildSerializer!({}, {})({ schema: answer, method: 'GET', url: '/y', httpStatus: '201' } as never);
    expect(s2).toBe(s1);
    expect(s1({ id: 'a', n: 2, secret: 'x' })).toBe('{"id":"a","n":2}');
  });

  test('apps built with them validate, coerce and serialize as Fastify does, and a headers schema is refused', async () => {
    const make = async () => {
      const app = Fastify({ ajv: options, schemaController: { compilersFactory: sharedCompilers } });
      app.post('/x', { schema: { body, response: { 200: answer } } }, async (req) => ({ id: 'a', ...(req.body as object), extra: true }));
      await app.ready();
      return app;
    };
    for (const app of [await make(), await make()]) {
      const ok = await app.inject({ method: 'POST', url: '/x', payload: { n: '7' } });
      expect([ok.statusCode, ok.body]).toEqual([200, '{"id":"a","n":7}']);
      const bad = await app.inject({ method: 'POST', url: '/x', payload: { n: 'seven' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/body\/n must be integer/);
      await app.close();
    }
    const headers = Fastify({ schemaController: { compilersFactory: sharedCompilers } });
    headers.get('/h', { schema: { headers: { type: 'object', properties: { 'X-A': { type: 'string' } } } } }, async () => 'ok');
    await expect(headers.ready()).rejects.toThrow(/headers schema is not lower-cased/);
  });
});
