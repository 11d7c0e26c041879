import Fastify, { FastifyInstance } from 'fastify';
import { GatewayError } from '../../../server/errors.js';
import { registerBodyParsers } from '../../../server/http/body.js';
import { parseForm } from '../../../server/http/form.js';
import { assertNoNul, parseObjectParam } from '../../../server/lib/input.js';
import { registerErrorHandler } from '../../../server/http/errors.js';
import { TestGateway, basic, describe, expect, expectError, test, visa } from '../../fixtures.js';

/** Exactly the error envelope: one {code, message}, nothing Fastify-shaped, no stack. */

describe('parseForm', () => {
  test.each<[string, string, unknown]>([
    ['flat pairs, values stay strings', 'amount=100&recurring=true', { amount: '100', recurring: 'true' }],
    ['nested key', 'metadata[color]=red&metadata[size]=L', { metadata: { color: 'red', size: 'L' } }],
    ['deeply nested key', 'a[b][c]=1', { a: { b: { c: '1' } } }],
    ['array push', 'tags[]=x&tags[]=y', { tags: ['x', 'y'] }],
    ['objects inside an indexed list', 'items[0][qty]=2&items[1][qty]=3', { items: { 0: { qty: '2' }, 1: { qty: '3' } } }],
    ['percent- and plus-encoding', 'card_owner_name=Ada+Lovelace&city=S%C3%A3o%20Paulo', { card_owner_name: 'Ada Lovelace', city: 'São Paulo' }],
    ['empty value and empty body', 'zip=', { zip: '' }],
    ['nothing', '', {}],
    ['a key that is not a path is kept as is', 'a]b=1', { 'a]b': '1' }],
    ['a later scalar replaces a nested value', 'm[a]=1&m=2', { m: '2' }],
    ['a % without two hex digits stays as written', 'a=100%&b=%zz&c=%4', { a: '100%', b: '%zz', c: '%4' }],
    ['percent-encoded brackets are nesting', 'm%5Ba%5D=1', { m: { a: '1' } }],
    ['a name without a value, empty pairs, an empty name', 'a&&=x&b=', { a: '', '': 'x', b: '' }],
    ['an array grows by appending', 'tags[]=a&tags[1]=b&tags[]=c&tags[0]=z', { tags: ['z', 'b', 'c'] }],
    ['an index past the end turns the array into an object', 'tags[]=a&tags[7]=b', { tags: { 0: 'a', 7: 'b' } }],
    ['a name turns the array into an object', 'tags[]=a&tags[x]=b', { tags: { 0: 'a', x: 'b' } }],
    ['32 levels, the body being the first', `a${'[b]'.repeat(31)}=1`, JSON.parse(`{"a":${'{"b":'.repeat(31)}"1"${'}'.repeat(31)}}`)],
  ])('%s', (_, body, expected) => {
    expect(parseForm(body)).toEqual(expected);
  });

  test.each<[string, string, number, RegExp]>([
    ['more fields than the limit', 'a=1&b=2&c=3&d=4', 3, /more than 3 fields/],
    ['a key 33 levels deep', `a${'[b]'.repeat(32)}=1`, 1000, /body\.a is nested more than 32 levels/],
    ['a key a million levels deep', `a${'[b]'.repeat(1_000_000)}=1`, 1000, /nested more than 32 levels/],
    ['a value that is not UTF-8', 'city=caf%E9', 1000, /body\.city is not valid UTF-8/],
    ['an encoded lone surrogate', 'a[b]=%ED%A0%80', 1000, /body\.a\[b\] is not valid UTF-8/],
    ['an overlong encoding', 'a=%C0%AF', 1000, /not valid UTF-8/],
    ['a field name that is not UTF-8', '%FF=1', 1000, /form field name "%FF" is not valid UTF-8/],
  ])('refuses %s with REQ01', (_, body, maxKeys, message) => {
    let err: unknown;
    try {
      parseForm(body, maxKeys);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'REQ01', status: 400 });
    expect((err as Error).message).toMatch(message);
  });

  test.each([
    '__proto__[polluted]=1',
    '__proto__=1',
    'constructor[prototype][polluted]=1',
    'a[__proto__][polluted]=1',
    'metadata[constructor][prototype][polluted]=1',
  ])('%s neither pollutes prototypes nor lands elsewhere', (body) => {
    const out = parseForm(`${body}&ok=1`) as any;
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(out.a?.polluted).toBeUndefined();
    expect(out.metadata?.polluted).toBeUndefined();
    expect(out.ok).toBe('1');
  });
});

describe('assertNoNul: the walk of every request', () => {
  const nest = (levels: number): unknown => (levels === 1 ? { leaf: 'x' } : { a: nest(levels - 1) });

  test.each<[string, unknown, RegExp]>([
    ['a lone surrogate in a list, named by its index', { items: [1, 'ok', { text: 'x\ud800' }] }, /^body\.items\.2\.text must not contain a lone UTF-16 surrogate/],
    ['a lone surrogate as the value itself', '\udfff', /^body must not contain a lone/],
    ['a NUL in a field name', { metadata: { 'a\u0000': 1 } }, /^body\.metadata has a field name with the NUL character/],
    ['a lone surrogate in a field name at the top', { '\ud800': 1 }, /^body has a field name with a lone UTF-16 surrogate/],
    ['33 levels', nest(33), /^body(\.a){32} is nested more than 32 levels deep/],
  ])('refuses %s with REQ01 naming the field', (_, value, message) => {
    let err: unknown;
    try {
      assertNoNul(value, 'body');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'REQ01', status: 400 });
    expect((err as Error).message).toMatch(message);
  });

  test('accepts 32 levels, surrogate pairs, numbers, booleans and nulls', () => {
    expect(() => assertNoNul({ deep: nest(31), text: '😀 é', list: [1, true, null, 2.5, ['a']] }, 'body')).not.toThrow();
  });
});

describe('parseObjectParam', () => {
  test.each<[string, unknown, unknown]>([
    ['an object as is', { color: 'red' }, { color: 'red' }],
    ['a JSON-encoded object', '{"color":"red","n":1}', { color: 'red', n: 1 }],
    ['undefined as null', undefined, null],
    ['null as null', null, null],
    ['an empty string as null', '', null],
  ])('takes %s', (_, value, expected) => {
    expect(parseObjectParam(value, 'metadata')).toEqual(expected);
  });

  test.each<[string, unknown]>([
    ['invalid JSON', '{color: red}'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"red"'],
    ['a JSON number', '42'],
    ['an array', ['a']],
    ['a number', 7],
    ['a boolean', true],
    ['a JSON-encoded lone surrogate', '{"note":"\\ud800"}'],
    ['a JSON-encoded lone surrogate in a key', '{"\\udc00":1}'],
    ['a JSON-encoded NUL', '{"note":"\\u0000"}'],
    ['JSON nested 33 levels deep', `${'{"a":'.repeat(33)}1${'}'.repeat(33)}`],
  ])('refuses %s with REQ01 naming the parameter', (_, value) => {
    let err: unknown;
    try {
      parseObjectParam(value, 'metadata');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'REQ01', status: 400 });
    expect((err as Error).message).toContain('metadata');
  });
});

describe('body parsers and the error handler on a bare app', () => {
  let app: FastifyInstance;
  test.beforeAll(async () => {
    app = Fastify({ bodyLimit: 1024 });
    registerBodyParsers(app);
    registerErrorHandler(app);
    app.post('/echo', async (req) => ({ body: req.body ?? null }));
    app.get('/boom', async () => {
      throw new Error('secret detail from deep inside');
    });
    app.get('/typed', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => ({}));
    await app.ready();
  });
  test.afterAll(() => app.close());

  const echo = (payload: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/echo', payload, headers });

  test.each<[string, string, Record<string, string>, unknown]>([
    ['JSON', '{"a":{"b":1}}', { 'content-type': 'application/json' }, { a: { b: 1 } }],
    ['JSON with charset', '{"a":1}', { 'content-type': 'application/json; charset=utf-8' }, { a: 1 }],
    ['JSON without a Content-Type', '{"a":1}', {}, { a: 1 }],
    ['JSON array without a Content-Type', '[1,2]', {}, [1, 2]],
    ['form', 'metadata[color]=red&tags[]=x', { 'content-type': 'application/x-www-form-urlencoded' }, { metadata: { color: 'red' }, tags: ['x'] }],
    ['form without a Content-Type', 'a=1&b[c]=2', {}, { a: '1', b: { c: '2' } }],
    ['JSON labelled as a form (curl -d, PHP CURLOPT_POSTFIELDS)', '{"a":{"b":1}}', { 'content-type': 'application/x-www-form-urlencoded' }, { a: { b: 1 } }],
    ['a JSON array labelled as a form', ' [1,2]', { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, [1, 2]],
    ['JSON as application/*+json', '{"a":1}', { 'content-type': 'application/vnd.api+json; charset=utf-8' }, { a: 1 }],
    ['JSON as text/json', '{"a":1}', { 'content-type': 'text/json' }, { a: 1 }],
    ['an empty JSON array is an empty body', '[]', { 'content-type': 'application/json' }, {}],
    ['a bare empty JSON array is an empty body', ' [ ] ', {}, {}],
    ['a non-empty JSON array stays an array', '[{}]', { 'content-type': 'application/json' }, [{}]],
    ['JSON with a byte-order mark', '\ufeff{"a":1}', { 'content-type': 'application/json' }, { a: 1 }],
    ['an empty JSON body', '', { 'content-type': 'application/json' }, {}],
  ])('%s', async (_, payload, headers, expected) => {
    const res = await echo(payload, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual(expected);
  });

  test.each([
    ['text/plain', 'a=1'],
    ['application/xml', '<a>1</a>'],
    ['text/xml', '<a>1</a>'],
    ['application/octet-stream', '{"a":1}'],
    ['text/html; charset=utf-8', 'a=1'],
    ['application/jsonx', '{"a":1}'],
    ['not a media type', 'a=1'],
  ])('Content-Type %s -> 415 REQ03', async (type, payload) => {
    const res = await echo(payload, { 'content-type': type });
    expectError(res, 415, 'REQ03');
  });

  test('415 comes before the body is read: an unsupported body over the limit is still 415', async () => {
    expectError(await echo('x'.repeat(5000), { 'content-type': 'text/plain' }), 415, 'REQ03');
  });

  test('the 415 message lists what is accepted', async () => {
    expect((await echo('a=1', { 'content-type': 'text/plain' })).json().errors[0].message)
      .toMatch(/application\/json.*x-www-form-urlencoded.*multipart\/form-data/);
  });

  test.each([
    ['truncated JSON', '{"a":', { 'content-type': 'application/json' }],
    ['JSON with a trailing comma', '{"a":1,}', { 'content-type': 'application/json' }],
    ['bare JSON-looking garbage', '{nope', {}],
    ['JSON-looking garbage labelled as a form (not one empty field)', '{"first_name":"Ada",}', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('%s -> 400 REQ01', async (_, payload, headers) => {
    expectError(await echo(payload, headers), 400, 'REQ01');
  });

  test('a body over the limit -> 413 REQ02, whatever its type', async () => {
    expectError(await echo(JSON.stringify({ a: 'x'.repeat(2000) }), { 'content-type': 'application/json' }), 413, 'REQ02');
    expectError(await echo(`a=${'x'.repeat(2000)}`, { 'content-type': 'application/x-www-form-urlencoded' }), 413, 'REQ02');
  });

  test('an unexpected error is a 500 INTERNAL that tells nothing', async () => {
    const res = await app.inject({ url: '/boom' });
    expectError(res, 500, 'INTERNAL');
    expect(res.body).not.toContain('secret detail');
  });

  test('a schema failure maps to REQ01 and names the field', async () => {
    const res = await app.inject({ url: '/typed?n=abc' });
    expectError(res, 400, 'REQ01');
    expect(res.json().errors[0].message).toContain('querystring.n');
  });

  test('an unknown route -> 404 NOTFOUND without the query string', async () => {
    const res = await app.inject({ url: '/nowhere?card_number=4111111111111111' });
    expectError(res, 404, 'NOTFOUND');
    expect(res.body).not.toContain('4111111111111111');
  });
});

describe('the gateway', () => {

  const post = (gw: TestGateway, payload: string, headers: Record<string, string>) =>
    gw.app.inject({ method: 'POST', url: '/api/v1/tokens', payload, headers: { ...basic(gw.merchant.test.public_key), ...headers } });

  test('malformed JSON -> 400 REQ01', async ({ gateway: gw }) => {
    expectError(await post(gw, '{"card_number": "4111', { 'content-type': 'application/json' }), 400, 'REQ01');
    expectError(await post(gw, '{"card_number": ', {}), 400, 'REQ01');
  });

  test('the key is looked at before the body: malformed JSON without a key is 401, with one 400', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: '/api/v1/tokens', payload: '{', headers: { 'content-type': 'application/json' } });
    expectError(res, 401, 'AUTH01');
    expectError(await post(gw, '{', { 'content-type': 'application/json' }), 400, 'REQ01');
  });

  test('a body over the 256 KiB default -> 413 REQ02', async ({ gateway: gw }) => {
    const big = JSON.stringify({ ...visa, address_1: 'x'.repeat(300 * 1024) });
    expectError(await post(gw, big, { 'content-type': 'application/json' }), 413, 'REQ02');
  });

  test('a body just under the limit is parsed (and then validated)', async ({ gateway: gw }) => {
    const res = await post(gw, JSON.stringify({ ...visa, address_1: 'x'.repeat(200 * 1024) }), { 'content-type': 'application/json' });
    expectError(res, 400, 'REQ01'); // address_1 longer than 255: a validation error, not a size error
  });

  test('a parameter of the wrong type -> 400 REQ01, not a Fastify error', async ({ gateway: gw }) => {
    const res = await post(gw, JSON.stringify({ ...visa, card_number: { nested: true } }), { 'content-type': 'application/json' });
    expectError(res, 400, 'REQ01');
    expect(res.json().errors[0].message).toContain('card_number');
  });

  test.for([
    ['GET', '/api/v1/nope'],
    ['POST', '/api/v1/nope'],
    ['DELETE', '/api/v1/tokens'],
    ['GET', '/api/v2/tokens/abc'],
  ] as const)('%s %s -> 404 NOTFOUND', async ([method, url], { gateway: gw }) => {
    const res = await gw.app.inject({ method: method as any, url, headers: basic(gw.merchant.test.private_key) });
    expectError(res, 404, 'NOTFOUND');
  });

  test('an unknown path is 404, not 415, whatever body it is sent with', async ({ gateway: gw }) => {
    const res = await gw.app.inject({
      method: 'POST', url: '/api/v1/nope', payload: '<a/>', headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/xml' },
    });
    expectError(res, 404, 'NOTFOUND');
  });
});
