import { parse } from 'csv-parse/sync';
import { csvText, decimal, exportCsv } from '../../../server/domain/dashboard/exports.js';
import { Merchant, TestGateway, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';
import { api } from './billings-fixtures.js';

// GET /api/v1/dashboard/export/{transactions,customers,invoices}.csv (issue 19): streamed CSV of
// the key's merchant and environment, RFC 4180, formula cells escaped, masked card numbers only.
// The gateway's clock starts at 2026-01-15T12:00:00Z.

const download = (gw: TestGateway, m: Merchant, path: string, key = m.test.private_key) => gw.app.inject({ url: `/api/v1/dashboard/export/${path}`, headers: basic(key) });
/** The file as a spreadsheet reads it: a list of records keyed by the header row. */
const rows = (body: string): Record<string, string>[] => parse(body, { columns: true, relax_quotes: false });

const hostile = {
  first_name: '=HYPERLINK("http://evil.example","click")',
  last_name: 'Smith, "Jr"\r\nthe third',
  company: '+1 Corp',
  email: 'tab@example.com',
  phone: '-2+3',
  address_1: '@SUM(A1:A9)',
};

/** The merchant whose records the tests export, and the ids of those records; made once per file. */
async function seed(gw: TestGateway): Promise<{ m: Merchant; ids: Record<string, string> }> {
  const m = await gw.newMerchant();
  const a = api(gw, m);
  const ids: Record<string, string> = {};
  const charge = async (amount: number, extra: Record<string, unknown> = {}, card: Record<string, unknown> = visa) => {
    const res = await a.post('/charge', { token: await tokenFor(gw, card, m.test.public_key), amount, ...extra });
    return res.status === 200 ? res.body.id : res.body.errors[0].transaction_id;
  };
  ids.first = await charge(1250, { description: '=1+1' });
  ids.declined = await charge(80, {}, { ...visa, card_number: '4000000000000002' });
  ids.last = await charge(100_005, { description: 'Line one\nline "two", done' });
  await a.ok('POST', `/charge/${ids.first}/cancel`, { amount: 250 });
  ids.plain = (await a.ok('POST', '/customers', { first_name: 'Plain', last_name: 'Person' })).id;
  ids.hostile = (await a.ok('POST', '/customers', hostile)).id;
  ids.invoice = (await a.ok('POST', '/invoices', {
    customer_first_name: 'Ada', customer_email: 'ada@example.com', memo: '-10% off', items: [{ description: 'x', unit_amount: 4200 }],
  })).id;
  // Never exported here: another merchant's and the live environment's records.
  const other = api(gw, gw.other);
  await other.post('/charge', { token: await tokenFor(gw, visa, gw.other.test.public_key), amount: 7777 });
  await other.ok('POST', '/customers', { first_name: 'Other' });
  await a.ok('POST', '/customers', { first_name: 'Live' }, m.live.private_key);
  return { m, ids };
}
const test = base.extend<{ seeded: { m: Merchant; ids: Record<string, string> }; m: Merchant; ids: Record<string, string> }>({
  seeded: [async ({ gateway }, use) => use(await seed(gateway)), { scope: 'file' }],
  m: [async ({ seeded }, use) => use(seeded.m), { scope: 'file' }],
  ids: [async ({ seeded }, use) => use(seeded.ids), { scope: 'file' }],
});

describe('transactions.csv', () => {
  test('a download: CSV type, attachment name with the environment and date, newest first', async ({ gateway: gw, m, ids }) => {
    const res = await download(gw, m, 'transactions.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="transactions-test-2026-01-15.csv"');
    expect(res.body.split('\r\n')[0]).toBe(
      'id,created_at,status,successful,payment_method,card_type,card_number,name,email,customer_id,description,'
      + 'amount,amount_cents,amount_refunded,amount_refunded_cents,error_code,error_message,reference_number');
    const list = rows(res.body);
    expect(list.map((r) => r.id)).toEqual([ids.last, ids.declined, ids.first]);
    expect(list[2]).toMatchObject({
      created_at: '2026-01-15T12:00:00.000Z', status: 'SETTLED', successful: 'true', card_number: 'XXXXXXXXXXXX1111', name: 'Ada Lovelace',
      description: "'=1+1", amount: '12.50', amount_cents: '1250', amount_refunded: '2.50', amount_refunded_cents: '250',
    });
    expect(list[0]).toMatchObject({ description: 'Line one\nline "two", done', amount: '1000.05', amount_cents: '100005' });
    expect(list[1]).toMatchObject({ status: 'DECLINED', successful: 'false', amount: '0.80', error_code: '99820' });
    expect(res.body).not.toContain(visa.card_number);
  });

  test('the filters of /dashboard/transactions apply; a bad one is 400 REQ01 as JSON, not a file', async ({ gateway: gw, m, ids }) => {
    expect(rows((await download(gw, m, 'transactions.csv?status=declined')).body).map((r) => r.id)).toEqual([ids.declined]);
    expect(rows((await download(gw, m, 'transactions.csv?amount_min=1000&amount_max=2000')).body).map((r) => r.id)).toEqual([ids.first]);
    expect(rows((await download(gw, m, 'transactions.csv?created_from=2026-01-16')).body)).toEqual([]);
    const bad = await download(gw, m, 'transactions.csv?amount_min=lots');
    expectError(bad, 400, 'REQ01');
    expect(bad.headers['content-disposition']).toBeUndefined();
  });

  test('another merchant and the live environment export only their own', async ({ gateway: gw, m }) => {
    const other = rows((await download(gw, m, 'transactions.csv', gw.other.test.private_key)).body);
    expect(other.map((r) => r.amount_cents)).toEqual(['7777']);
    const live = await download(gw, m, 'transactions.csv', m.live.private_key);
    expect(live.headers['content-disposition']).toBe('attachment; filename="transactions-live-2026-01-15.csv"');
    expect(rows(live.body)).toEqual([]);
  });
});

describe('customers.csv and invoices.csv', () => {
  test('formula cells get a leading quote, quotes and line breaks survive, plain text is as typed', async ({ gateway: gw, m, ids }) => {
    const res = await download(gw, m, 'customers.csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="customers-test-2026-01-15.csv"');
    const list = rows(res.body);
    expect(list.map((r) => r.id)).toEqual([ids.hostile, ids.plain]);
    expect(list[0]).toMatchObject({
      first_name: `'${hostile.first_name}`, last_name: hostile.last_name, company: "'+1 Corp", email: 'tab@example.com',
      phone: "'-2+3", address_1: "'@SUM(A1:A9)",
    });
    expect(list[1]).toMatchObject({ first_name: 'Plain', last_name: 'Person' });
    // The raw text: the quoted field doubles its quotes and keeps its CRLF inside the quotes.
    expect(res.body).toContain('"Smith, ""Jr""\r\nthe third"');
    expect(rows((await download(gw, m, 'customers.csv?search_term=plain')).body).map((r) => r.id)).toEqual([ids.plain]);
    expect(rows((await download(gw, m, 'customers.csv', m.live.private_key)).body).map((r) => r.first_name)).toEqual(['Live']);
  });

  test('invoices: money as decimal and cents, the status filter, REQ01 for an unknown status', async ({ gateway: gw, m, ids }) => {
    const list = rows((await download(gw, m, 'invoices.csv')).body);
    expect(list).toEqual([expect.objectContaining({
      id: ids.invoice, status: 'unpaid', customer_first_name: 'Ada', amount: '42.00', amount_cents: '4200', amount_paid: '0.00',
      amount_paid_cents: '0', memo: "'-10% off",
    })]);
    expect(rows((await download(gw, m, 'invoices.csv?status=paid')).body)).toEqual([]);
    expectError(await download(gw, m, 'invoices.csv?status=lost'), 400, 'REQ01');
  });

  test('public key 403, no key 401', async ({ gateway: gw, m }) => {
    for (const path of ['transactions.csv', 'customers.csv', 'invoices.csv']) {
      expectError(await download(gw, m, path, m.test.public_key), 403, 'AUTH02');
      expectError(await gw.app.inject({ url: `/api/v1/dashboard/export/${path}` }), 401, 'AUTH01');
    }
  });
});

describe('the CSV writer', () => {
  test('batches follow each other by keyset: every row once, newest first, whatever the batch size', async ({ gateway: gw, m }) => {
    for (let i = 0; i < 7; i++) await api(gw, m).ok('POST', '/customers', { first_name: `Batch${i}` });
    const whole = (await download(gw, m, 'customers.csv')).body;
    let pieces = 0;
    let text = '';
    for await (const piece of exportCsv(gw.db, { merchantId: m.id, env: 'test' }, 'customers', {}, 2)) {
      pieces++;
      text += piece;
    }
    expect(text).toBe(whole);
    expect(rows(text)).toHaveLength(9);
    expect(pieces).toBe(1 + 5); // the header, then ceil(9 / 2) batches
  });

  test('cells: RFC 4180 quoting and formula escaping (OWASP); numbers stay numbers', () => {
    expect(csvText('plain')).toBe('plain');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('two\nlines')).toBe('"two\nlines"');
    expect(csvText('=cmd|')).toBe(`"'=cmd|"`);
    expect(csvText('-5')).toBe(`"'-5"`);
    expect(csvText('\rx')).toBe('"\'\rx"');
    expect(csvText('\tx')).toBe("\"'\tx\"");
    expect(csvText('\0x')).toBe(`"'\0x"`);
    expect(csvText(-5)).toBe(`"'-5"`); // a text column holding a negative number is still text
    // OWASP's two examples, and a formula after any separator of any locale, or after spaces and quotes.
    expect(csvText('=1+2";=1+2')).toBe(`"'=1+2"";'=1+2"`);
    expect(csvText(`=1+2'" ;,=1+2`)).toBe(`"'=1+2'"" ;,'=1+2"`);
    expect(csvText('a;=1')).toBe(`"a;'=1"`);
    expect(csvText('a,@SUM(A1)')).toBe(`"a,'@SUM(A1)"`);
    expect(csvText('a\t+1')).toBe(`"a\t'+1"`);
    expect(csvText('a\n-1')).toBe(`"a\n'-1"`);
    expect(csvText('a; "=1')).toBe(`"a; ""'=1"`);
    expect(csvText(' =1')).toBe(`" '=1"`);
    expect(csvText("it's")).toBe(`"it's"`);
    expect(csvText('a-b+c@d=e;f')).toBe('"a-b+c@d=e;f"'); // inside a cell, not at a cell's start: as typed
    expect(csvText(null)).toBe('');
    expect(decimal(-5)).toBe('-0.05');
    expect(decimal(-123456)).toBe('-1234.56');
    expect(decimal(0)).toBe('0.00');
  });
});

/**
 * Every place a spreadsheet could begin a cell, whatever its separator (`,` `;` TAB) and whether it
 * honours quotes or not: the raw text split at every separator and line break, past spaces and quotes.
 */
const cellStarts = (body: string) => body.split(/[,;\t\r\n]/).map((piece) => piece.replace(/^[ "]+/, ''));
const FORMULAS = ['=HYPERLINK("http://evil")', '+1+1', '@SUM(A1)', 'a;=1', '-2+3', 'x,=1', 'y\t@A1', '=1+2";=1+2'];

describe('a customer named like a formula, in every export', () => {
  test('no cell of transactions.csv, customers.csv or invoices.csv can begin with a formula; the values read back with a leading quote', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const a = api(gw, m);
    for (const [i, name] of FORMULAS.entries()) {
      await a.ok('POST', '/customers', { first_name: name, last_name: name, company: name, address_1: name });
      const token = await tokenFor(gw, { ...visa, card_owner_name: name }, m.test.public_key);
      const charged = await a.post('/charge', { token, amount: 1000 + i, description: name });
      expect(charged.status, JSON.stringify(charged.body)).toBe(200);
      await a.ok('POST', '/invoices', { customer_first_name: name, customer_last_name: name, memo: name, items: [{ description: 'x', unit_amount: 100 }] });
    }
    const escaped = (v: string) => v.replace(/(?<=(?:^|[,;\t\r\n])[ \t\r\n"]*)(?=[=+\-@])/g, "'");
    const expected = FORMULAS.map(escaped).reverse(); // newest first
    for (const [file, columns] of [
      ['transactions.csv', ['name', 'description']], ['customers.csv', ['first_name', 'last_name', 'company', 'address_1']],
      ['invoices.csv', ['customer_first_name', 'customer_last_name', 'memo']],
    ] as const) {
      const res = await download(gw, m, file);
      expect(res.statusCode, res.body).toBe(200);
      const dangerous = cellStarts(res.body).filter((c) => /^[=+\-@]/.test(c));
      expect(dangerous, file).toEqual([]);
      const list = rows(res.body);
      for (const column of columns) expect(list.map((r) => r[column]), `${file} ${column}`).toEqual(expected);
    }
    expect(expected).toEqual([`'=1+2";'=1+2`, "y\t'@A1", "x,'=1", "'-2+3", "a;'=1", "'@SUM(A1)", "'+1+1", `'=HYPERLINK("http://evil")`]);
  });
});
