import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { frontendMessage, readRows } from '../../../server/db/pglite-wire.js';

// The PGlite adapter writes its statements and reads their answers itself (server/db/pglite-wire.ts)
// instead of through pg-protocol: it must write what pg-protocol writes and read what PGlite reads.
const { serialize } = protocol;
const INT8 = 20;
const parsers = { [INT8]: (v: string) => Number(v) };
let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create({ parsers });
});
afterAll(async () => {
  await pg.close();
});

const stock = (name: string, sql: string, values: (string | null)[], withParse: boolean) => Buffer.concat([
  ...(withParse && name ? [serialize.close({ type: 'S', name })] : []),
  ...(withParse ? [serialize.parse({ name, text: sql, types: [] })] : []),
  serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync(),
]);

test.for([
  ['named, with Parse', 'tabc', true, ['a', null, '', '1.5']],
  ['named, prepared already', 'tabc', false, ['x']],
  ['unnamed', '', true, []],
  ['non-ASCII and a lone surrogate (written as U+FFFD by both)', 'tü', true, ['é€😀', '\uD800x', 'Ω'.repeat(3000)]],
] as const)('the frontend message is byte for byte pg-protocol\'s: %s', ([, name, withParse, values]) => {
  const sql = 'SELECT $1::text AS "ünï", $2 -- ✓';
  expect(Buffer.from(frontendMessage({ name, sql, values: [...values], parse: withParse }))).toEqual(stock(name, sql, [...values], withParse));
});

/** The rows PGlite's own path reads from the same answer (pg-protocol's parser, then parseResults). */
async function both(sql: string, values: (string | null)[] = []) {
  const chunks: Buffer[] = [];
  await pg.execProtocolRawStream(frontendMessage({ name: '', sql, values, parse: true }), { onRawData: (b) => chunks.push(Buffer.from(b)) });
  const answer = Buffer.concat(chunks);
  const messages: any[] = [];
  new protocol.Parser().parse(answer, (m) => messages.push(m));
  return { ours: () => readRows(answer, pg.parsers), theirs: parse.parseResults(messages, pg.parsers)[0]?.rows ?? [], messages };
}

test('rows of every type the gateway stores read as PGlite reads them, many rows, nulls and non-ASCII names', async () => {
  const { ours, theirs } = await both(
    `SELECT g AS n, g::int8 AS big, (g * 1.25)::numeric AS dec, g % 2 = 0 AS even, NULL::text AS nothing,
            repeat('é😀', g) AS "näme", to_timestamp(g * 86400) AS at, ('{"k": [' || g || ', "v"]}')::jsonb AS doc,
            decode('00ff' || lpad(to_hex(g), 2, '0'), 'hex') AS raw, ARRAY[g, g + 1] AS pair, '' AS empty
       FROM generate_series(1, 300) g`,
  );
  const rows = ours();
  expect(rows).toHaveLength(300);
  expect(rows).toEqual(theirs);
  expect(rows[1]).toMatchObject({ n: 2, big: 2, dec: '2.50', even: true, nothing: null, näme: 'é😀é😀', doc: { k: [2, 'v'] }, pair: [2, 3], empty: '' });
  expect(rows[1].at).toEqual(new Date(2 * 86_400_000));
});

test('a statement without rows reads as none; an answer over many chunks reads whole', async () => {
  await pg.exec('CREATE TABLE w (id text PRIMARY KEY, body text)');
  const insert = await both('INSERT INTO w VALUES ($1, $2)', ['a', 'x'.repeat(200_000)]);
  expect(insert.ours()).toEqual([]);
  const select = await both('SELECT id, body FROM w');
  expect(select.ours()).toEqual(select.theirs);
  expect(select.ours()[0].body).toHaveLength(200_000);
});

test('an answer holding an error throws the DatabaseError PGlite would throw', async () => {
  const dup = await both('INSERT INTO w VALUES ($1, $2)', ['a', 'again']);
  const expected = dup.messages.find((m) => m.name === 'error');
  expect(expected).toMatchObject({ code: '23505', constraint: 'w_pkey' });
  expect(dup.ours).toThrow(expected);
  try {
    dup.ours();
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'error', code: '23505', constraint: 'w_pkey', table: 'w', severity: 'ERROR' });
  }
  // An error after some rows were sent (a division by zero on the third): the error, not the two rows.
  const late = await both('SELECT 6 / (3 - g) AS q FROM generate_series(1, 5) g');
  expect(late.ours).toThrow(/division by zero/);
});
