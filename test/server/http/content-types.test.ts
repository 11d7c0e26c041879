import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { TestGateway, basic, describe, expect, expectError, test, tokenFor, visa } from '../../fixtures.js';

// What existing clients send, against real routes: content types, encodings, `[]`, `//`, and the
// limits and text checks of the body parser (server/http/body.ts, form.ts, multipart.ts).


const sk = (gw: TestGateway) => gw.merchant.test.private_key;
type Payload = string | Buffer;
const post = (gw: TestGateway, url: string, payload: Payload | undefined, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'POST', url, payload, headers: { ...basic(sk(gw)), ...headers } });
const createCustomer = (gw: TestGateway, payload: Payload | undefined, headers: Record<string, string> = {}) => post(gw, '/api/v1/customers', payload, headers);
const customers = async (gw: TestGateway) =>
  (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers WHERE merchant_id = $1', [gw.merchant.id]))[0].n;

/** What a created customer is made of, without what differs between two creations. */
const fields = (body: any) => ({ first_name: body.first_name, city: body.city, metadata: body.metadata, default_receipts: body.default_receipts });
const EXPECTED = { first_name: 'Grace', city: 'São Paulo', metadata: { color: 'red', size: 'xl' }, default_receipts: true };
const JSON_BODY = JSON.stringify({ first_name: 'Grace', city: 'São Paulo', metadata: { color: 'red', size: 'xl' }, default_receipts: true });
const FORM_BODY = 'first_name=Grace&city=S%C3%A3o+Paulo&metadata[color]=red&metadata%5Bsize%5D=xl&default_receipts=true';

/** A multipart/form-data body as curl -F builds it. */
function multipart(parts: [string, string | Buffer, string?][], boundary = '----tessera7'): { payload: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const [name, value, filename] of parts) {
    const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
const MULTIPART = multipart([['first_name', 'Grace'], ['city', 'São Paulo'], ['metadata[color]', 'red'], ['metadata[size]', 'xl'], ['default_receipts', 'true']]);

describe('content types', () => {
  test.for<[string, Payload, Record<string, string>]>([
    ['application/json', JSON_BODY, { 'content-type': 'application/json' }],
    ['application/json; charset=utf-8', JSON_BODY, { 'content-type': 'application/json; charset=utf-8' }],
    ['text/json', JSON_BODY, { 'content-type': 'text/json' }],
    ['application/vnd.api+json', JSON_BODY, { 'content-type': 'application/vnd.api+json' }],
    ['JSON without a Content-Type', JSON_BODY, {}],
    ['application/x-www-form-urlencoded', FORM_BODY, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a form without a Content-Type', FORM_BODY, {}],
    ['JSON labelled as a form (curl -d, PHP CURLOPT_POSTFIELDS without a header)', JSON_BODY, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart/form-data (curl -F)', MULTIPART.payload, { 'content-type': MULTIPART.type }],
    ['gzip JSON', gzipSync(JSON_BODY), { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
    ['deflate form', deflateSync(FORM_BODY), { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'deflate' }],
    ['br multipart', brotliCompressSync(MULTIPART.payload), { 'content-type': MULTIPART.type, 'content-encoding': 'br' }],
    ['x-gzip bare JSON', gzipSync(JSON_BODY), { 'content-encoding': 'x-gzip' }],
    ['identity', JSON_BODY, { 'content-type': 'application/json', 'content-encoding': 'identity' }],
  ] as const)('%s creates the same customer', async ([_, payload, headers], { gateway: gw }) => {
    const res = await createCustomer(gw, payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(fields(res.json())).toEqual(EXPECTED);
  });

  test.for<[string, string]>([
    ['application/xml', '<customer><first_name>Grace</first_name></customer>'],
    ['text/xml', '<?xml version="1.0"?><customer/>'],
    ['text/plain', 'first_name=Grace'],
    ['text/plain; charset=utf-8', '{"first_name":"Grace"}'],
    ['application/octet-stream', '{"first_name":"Grace"}'],
    ['application/yaml', 'first_name: Grace'],
  ] as const)('%s -> 415 REQ03 and no customer', async ([type, payload], { gateway: gw }) => {
    const before = await customers(gw);
    expectError(await createCustomer(gw, payload, { 'content-type': type }), 415, 'REQ03', /multipart\/form-data/);
    expect(await customers(gw)).toBe(before);
  });
});

describe('Content-Encoding', () => {
  test('a gzip bomb (10 MiB of JSON in 10 KiB) is 413 REQ02, and nothing is written', async ({ gateway: gw }) => {
    const bomb = gzipSync(`{"first_name":"${'a'.repeat(10 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const before = await customers(gw);
    for (const type of ['application/json', MULTIPART.type, undefined]) {
      const res = await createCustomer(gw, bomb, { 'content-encoding': 'gzip', ...(type ? { 'content-type': type } : {}) });
      expectError(res, 413, 'REQ02');
    }
    expectError(await createCustomer(gw, brotliCompressSync(Buffer.alloc(8 * 1024 * 1024, 0x61)), { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'br' }), 413, 'REQ02');
    expect(await customers(gw)).toBe(before);
  });

  test.for<[string, Payload, number, string]>([
    ['compress', JSON_BODY, 415, 'REQ03'],
    ['gzip, br', JSON_BODY, 415, 'REQ03'],
    ['zstd', JSON_BODY, 415, 'REQ03'],
    ['gzip', JSON_BODY, 400, 'REQ01'], // says gzip, is not
    ['br', JSON_BODY, 400, 'REQ01'],
    ['deflate', JSON_BODY, 400, 'REQ01'],
  ] as const)('Content-Encoding %s -> %s %s and no customer', async ([encoding, payload, status, code], { gateway: gw }) => {
    const before = await customers(gw);
    expectError(await createCustomer(gw, payload, { 'content-type': 'application/json', 'content-encoding': encoding }), status, code);
    expect(await customers(gw)).toBe(before);
  });
});

describe('multipart/form-data', () => {
  test('a file part is refused with 400 REQ01 naming it, and nothing is written', async ({ gateway: gw }) => {
    const before = await customers(gw);
    const body = multipart([['first_name', 'Grace'], ['metadata[photo]', 'GIF89a', 'me.gif']]);
    expectError(await createCustomer(gw, body.payload, { 'content-type': body.type }), 400, 'REQ01', /metadata\[photo\].*file/);
    expect(await customers(gw)).toBe(before);
  });

  test.for<[string, { payload: Payload; type: string }, RegExp]>([
    ['no boundary', { payload: MULTIPART.payload, type: 'multipart/form-data' }, /boundary/],
    ['more than 1000 parts', multipart(Array.from({ length: 1001 }, (_, i) => [`metadata[k${i}]`, 'v'] as [string, string])), /1000 fields/],
    ['a value that is not UTF-8', multipart([['first_name', Buffer.from([0x47, 0xe9])]]), /body\.first_name.*UTF-8/],
    ['an encoded lone surrogate', multipart([['city', Buffer.from([0xed, 0xa0, 0x80])]]), /body\.city.*UTF-8/],
    // The part's own stream errors: unheard, that error ended the whole process.
    ['the first part cut off by the end of the body',
      { payload: Buffer.from('--XYZ\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nGrace'), type: 'multipart/form-data; boundary=XYZ' }, /malformed multipart/],
    ['a file part cut off by the end of the body',
      { payload: Buffer.from('--XYZ\r\nContent-Disposition: form-data; name="photo"; filename="a.gif"\r\n\r\nGIF8'), type: 'multipart/form-data; boundary=XYZ' }, /malformed multipart/],
  ] as const)('%s -> 400 REQ01, nothing written', async ([_, body, message], { gateway: gw }) => {
    const before = await customers(gw);
    expectError(await createCustomer(gw, body.payload, { 'content-type': body.type }), 400, 'REQ01', message);
    expect(await customers(gw)).toBe(before);
  });

  test('a multipart body over the limit -> 413 REQ02', async ({ gateway: gw }) => {
    const body = multipart([['first_name', 'x'.repeat(300 * 1024)]]);
    expectError(await createCustomer(gw, body.payload, { 'content-type': body.type }), 413, 'REQ02');
  });
});

describe('an empty JSON array is an empty body (PHP library)', () => {
  async function charge(gw: TestGateway, amount: number) {
    const token = await tokenFor(gw, visa);
    const res = await post(gw, '/api/v1/charge', JSON.stringify({ token, amount }), { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  }

  test.for<[string, Record<string, string>]>([
    ['as application/json', { 'content-type': 'application/json' }],
    ['without a Content-Type', {}],
  ] as const)('`[]` %s on refund-all refunds everything', async ([_, headers], { gateway: gw }) => {
    const id = await charge(gw, 1234);
    const res = await post(gw, `/api/v1/charge/${id}/cancel`, '[]', headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, refunded: true, amount_refunded: 1234 });
  });

  test('`[]` creates a customer with defaults, as an empty body does', async ({ gateway: gw }) => {
    const res = await createCustomer(gw, '[]', { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ country: 'USA', metadata: {} });
  });

  test('a non-empty array where an object is expected stays 400 REQ01, and nothing is refunded', async ({ gateway: gw }) => {
    const id = await charge(gw, 500);
    expectError(await post(gw, `/api/v1/charge/${id}/cancel`, '[{"amount":100}]', { 'content-type': 'application/json' }), 400, 'REQ01');
    expect((await gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(sk(gw)) })).json()).toMatchObject({ amount_refunded: 0 });
  });
});

describe('doubled slashes', () => {
  test('GET /api/v1//receipts/templates routes as /api/v1/receipts/templates', async ({ gateway: gw }) => {
    const single = await gw.app.inject({ url: '/api/v1/receipts/templates', headers: basic(sk(gw)) });
    const doubled = await gw.app.inject({ url: '/api/v1//receipts/templates', headers: basic(sk(gw)) });
    expect(doubled.statusCode, doubled.body).toBe(200);
    expect(doubled.json()).toEqual(single.json());
  });

  test('a trailing slash routes as the path without it: POST /customers/ creates (not 17001), GET /transactions/ lists', async ({ gateway: gw }) => {
    const created = await gw.app.inject({ method: 'POST', url: '/api/v1/customers/', payload: { first_name: 'Trailing' }, headers: basic(sk(gw)) });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().first_name).toBe('Trailing');
    const listed = await gw.app.inject({ url: '/api/v1/transactions/', headers: basic(sk(gw)) });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((await gw.app.inject({ url: '/dashboard/' })).statusCode).toBe(200);
  });

  test('POST //api//v1//customers creates a customer', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url: '//api//v1//customers', payload: { first_name: 'Ada' }, headers: basic(sk(gw)) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe('Ada');
  });
});

describe('limits, checked while parsing', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  test.for<[string, string, Record<string, string>, RegExp]>([
    ['100,000 form fields', 'a&'.repeat(100_000), form, /more than 1000 fields/],
    ['80,000 form fields without a Content-Type', 'a=&'.repeat(80_000), {}, /more than 1000 fields/],
    ['1001 metadata fields', Array.from({ length: 1001 }, (_, i) => `metadata[k${i}]=1`).join('&'), form, /more than 1000 fields/],
    ['a key 100,000 levels deep', `metadata${'[a]'.repeat(80_000)}=1`, form, /body\.metadata is nested more than 32 levels/],
    ['a key 33 levels deep', `metadata${'[a]'.repeat(32)}=1`, form, /nested more than 32 levels/],
    ['JSON 100,000 levels deep', `{"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, { 'content-type': 'application/json' }, /nested more than 32 levels/],
    ['JSON with 1001 fields', JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, 1]))), { 'content-type': 'application/json' }, /more than 1000 fields/],
    ['bare JSON with 1001 fields in metadata', JSON.stringify({ metadata: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, 1])) }), {}, /more than 1000 fields/],
    ['JSON 33 levels deep', `${'{"a":'.repeat(32)}{}${'}'.repeat(32)}`, { 'content-type': 'application/json' }, /nested more than 32 levels/],
  ] as const)('%s -> 400 REQ01 naming the limit, nothing written', async ([_, payload, headers, message], { gateway: gw }) => {
    const before = await customers(gw);
    expectError(await createCustomer(gw, payload, headers), 400, 'REQ01', message);
    expect(await customers(gw)).toBe(before);
  });

  test('32 levels are accepted (the body is the first)', async ({ gateway: gw }) => {
    const json = await createCustomer(gw, `{"metadata":${'{"a":'.repeat(31)}"1"${'}'.repeat(31)}}`, { 'content-type': 'application/json' });
    expect(json.statusCode, json.body).toBe(200);
    const formed = await createCustomer(gw, `metadata${'[a]'.repeat(31)}=1`, form);
    expect(formed.statusCode, formed.body).toBe(200);
    expect(formed.json().metadata).toEqual(json.json().metadata);
  });

  test('1000 JSON fields are accepted, and a colon inside a string is no field', async ({ gateway: gw }) => {
    const body = { first_name: 'a:b:c', ...Object.fromEntries(Array.from({ length: 999 }, (_, i) => [`unknown_${i}`, ':'])) };
    const res = await createCustomer(gw, JSON.stringify(body), { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe('a:b:c');
  });

  test('200,000 JSON fields to the account updater (4 MiB) -> 400 REQ01 naming its limit', async ({ gateway: gw }) => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, 0])));
    expectError(await post(gw, '/api/v1/tokens/update', body, { 'content-type': 'application/json' }), 400, 'REQ01', /more than 83886 fields/);
  });

  test('1000 form fields are accepted', async ({ gateway: gw }) => {
    const res = await createCustomer(gw, ['first_name=Many', ...Array.from({ length: 999 }, (_, i) => `unknown_${i}=${i}`)].join('&'), form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe('Many');
  });

  test('the account updater, whose body limit is raised, takes more than 1000 form fields', async ({ gateway: gw }) => {
    const entries = Array.from({ length: 400 }, (_, i) =>
      `payment_methods[${i}][payment_id]=${'0'.repeat(32)}&payment_methods[${i}][card_exp_month]=7&payment_methods[${i}][card_exp_year]=2033`);
    const res = await post(gw, '/api/v1/tokens/update', entries.join('&'), form);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json().payment_methods.rejected)).toHaveLength(400);
  });

  test('200,000 form fields to the account updater (4 MiB) -> 400 REQ01 naming its limit', async ({ gateway: gw }) => {
    expectError(await post(gw, '/api/v1/tokens/update', 'a&'.repeat(200_000), form), 400, 'REQ01', /more than 83886 fields/);
  });

  test('tags[]=a&tags[4294967294]=b makes no sparse array', async ({ gateway: gw }) => {
    const res = await createCustomer(gw, 'metadata[tags][]=a&metadata[tags][4294967294]=b', form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().metadata).toEqual({ tags: { 0: 'a', 4294967294: 'b' } });
  });
});

describe('text that PostgreSQL cannot store is 400 REQ01 naming the field, never a 500', () => {
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  test.for<[string, string, Payload, Record<string, string>, RegExp]>([
    ['a lone surrogate in a JSON value', '/api/v1/customers', '{"first_name":"\\ud800"}', json, /body\.first_name .*lone UTF-16 surrogate/],
    ['a lone low surrogate in a nested JSON value', '/api/v1/customers', '{"metadata":{"note":"x\\udc00y"}}', json, /body\.metadata\.note /],
    ['a lone surrogate in a JSON key', '/api/v1/customers', '{"metadata":{"\\ud800":"x"}}', json, /body\.metadata has a field name .*surrogate/],
    ['a lone surrogate in a bare JSON body', '/api/v1/customers', '{"zip":"\\udbff"}', {}, /body\.zip /],
    ['a lone surrogate inside JSON-encoded metadata', '/api/v1/customers', JSON.stringify({ metadata: '{"a":"\\ud800"}' }), json, /metadata\.a /],
    // Any field that may be a JSON-encoded string is checked after decoding (they answered 500).
    ['a lone surrogate inside JSON-encoded invoice items', '/api/v1/invoices',
      JSON.stringify({ customer_email: 'a@example.com', items: '[{"description":"\\ud800","unit_amount":100}]' }), json, /items\.0\.description /],
    ['a NUL inside JSON-encoded invoice items (form)', '/api/v1/invoices',
      `customer_email=a%40example.com&items=${encodeURIComponent('[{"description":"a\\u0000b","unit_amount":100}]')}`, form, /items\.0\.description must not contain the NUL/],
    ['a lone surrogate inside JSON-encoded webhook constraints', '/api/v1/webhooks/rules',
      JSON.stringify({ event_resource: 'transaction', constraints: '[{"field":"description","operator":"eq","value":"\\ud800"}]' }), json, /constraints\.0\.value /],
    ['a lone surrogate inside a JSON-encoded constraint list value', '/api/v1/webhooks/rules',
      JSON.stringify({ event_resource: 'transaction', constraints: [{ field: 'description', operator: 'in', value: '["\\ud800"]' }] }), json, /constraints\[0\]\.value\.0 /],
    ['an encoded lone surrogate in a form value', '/api/v1/customers', 'first_name=%ED%A0%80', form, /body\.first_name is not valid UTF-8/],
    ['an encoded lone surrogate in a form key', '/api/v1/customers', 'metadata[%ED%A0%80]=x', form, /form field name .*UTF-8/],
    ['a Latin-1 byte in a form value', '/api/v1/customers', 'city=caf%E9', form, /body\.city is not valid UTF-8/],
    ['raw bytes that are not UTF-8 in a JSON body', '/api/v1/customers', Buffer.from([...Buffer.from('{"city":"caf'), 0xe9, ...Buffer.from('"}')]), json, /body is not valid UTF-8/],
    ['an encoded lone surrogate in the query', '/api/v1/customers?note=%ED%A0%80', '{}', json, /query\.note is not valid UTF-8/],
    ['an encoded lone surrogate in a query name', '/api/v1/customers?%ED%A0%80=1', '{}', json, /query parameter name/],
    ['a NUL in a form value', '/api/v1/customers', 'first_name=a%00b', form, /body\.first_name must not contain the NUL/],
    ['a lone surrogate in a charge description', '/api/v1/charge', '{"token":"0000000000","amount":100,"description":"\\ud83d"}', json, /body\.description /],
  ] as const)('%s', async ([_, url, payload, headers, message], { gateway: gw }) => {
    const before = await customers(gw);
    const transactions = async () => (await gw.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions'))[0].n;
    const txBefore = await transactions();
    expectError(await post(gw, url, payload, headers), 400, 'REQ01', message);
    expect(await customers(gw)).toBe(before);
    expect(await transactions()).toBe(txBefore);
  });

  test('well-formed text passes: a surrogate pair, a literal % and percent-encoded UTF-8', async ({ gateway: gw }) => {
    const res = await createCustomer(gw, 'first_name=%F0%9F%98%80&last_name=100%&city=S%C3%A3o', form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ first_name: '😀', last_name: '100%', city: 'São' });
    const emoji = await createCustomer(gw, '{"first_name":"\\ud83d\\ude00"}', json);
    expect(emoji.json().first_name).toBe('😀');
  });
});

describe('over a real socket', () => {
  let base: string;
  test.beforeAll(async ({ gateway: gw }) => {
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = gw.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });

  test('fetch with a FormData body (multipart/form-data, as browsers and undici build it) creates the customer', async ({ gateway: gw }) => {
    const form = new FormData();
    form.set('first_name', 'Grace');
    form.set('city', 'São Paulo');
    form.set('metadata[color]', 'red');
    form.set('metadata[size]', 'xl');
    form.set('default_receipts', 'true');
    const res = await fetch(`${base}/api/v1/customers`, { method: 'POST', headers: basic(sk(gw)), body: form });
    expect(res.status).toBe(200);
    expect(fields(await res.json())).toEqual(EXPECTED);
  });

  /** One raw request on its own socket; resolves with the status line's code, or null when the server closed without one. */
  const raw = (request: Buffer) => new Promise<number | null>((resolve, reject) => {
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => { answer += d.toString('latin1'); });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(status ? Number(status[1]) : null);
    });
    socket.write(request); // not end(): a half-closed client gets no answer from Node's server
  });

  test('a body that is not what its Content-Encoding says, on a route or method that reads no body, is never decoded: no crash, no 5xx', async ({ gateway: gw }) => {
    // Before: the decoder was piped for every request with a body, and its error event had no
    // listener when no parser read the body (GET /healthz, HEAD /tokenizer.js, an unknown path): the process died.
    const uncaught: unknown[] = [];
    const onError = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onError);
    try {
      const bodies = [Buffer.from('this is not compressed at all'), gzipSync('{"a":1}').subarray(0, 12), Buffer.alloc(64, 0xff)];
      const targets = ['GET /healthz', 'HEAD /tokenizer.js', 'POST /no/such/path', 'OPTIONS /api/v1/charge', 'GET /api/v1/customers', 'DELETE /api/v1/customers/nope', 'POST /api/v1/customers'];
      const statuses: (number | null)[] = [];
      for (const target of targets) {
        for (const coding of ['gzip', 'deflate', 'br', 'x-gzip']) {
          for (const body of bodies) {
            for (const framing of ['length', 'chunked'] as const) {
              const head = `${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(sk(gw)).authorization}\r\nContent-Type: application/json\r\n`
                + `Content-Encoding: ${coding}\r\nConnection: close\r\n`;
              const framed = framing === 'length'
                ? Buffer.concat([Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`), body])
                : Buffer.concat([Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
              statuses.push(await raw(framed));
            }
          }
        }
      }
      // Give any stray error event a turn of the loop to surface.
      await new Promise((r) => setImmediate(r));
      expect(uncaught).toEqual([]);
      expect(statuses.filter((s) => s === null || s >= 500)).toEqual([]);
      // The POST that does read its body says why it cannot.
      expect(statuses.slice(-bodies.length * 8)).toContain(400);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  test('a gzip bomb sent chunked is 413 REQ02, and the server goes on answering', async ({ gateway: gw }) => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x61));
    const res = await fetch(`${base}/api/v1/customers`, {
      method: 'POST', headers: { ...basic(sk(gw)), 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: new Blob([bomb]).stream(), duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ errors: [{ code: 'REQ02', message: expect.any(String) }] });
    const after = await fetch(`${base}/api/v1/customers`, { method: 'POST', headers: { ...basic(sk(gw)), 'content-type': 'application/json' }, body: JSON_BODY });
    expect(after.status).toBe(200);
  });
});

