// Secrets at rest and in transit: drive a representative workload through a real `tessera serve`
// with LOG_LEVEL=trace writing its log to a file, then search the database files, the log and
// every recorded response for any card number, CVV or bank account number that was sent, and the
// data directory for any private key: zero hits. Positive controls prove each search can hit.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { migratedDataDir } from '../helpers/data-template.js';
import { TEST_CARDS } from '../../server/processor/test-cards.js';
import {
  Client, PG_URL, PgDatabase, Reply, basic, figure, freshPgDatabase, pgQueryable, spawnServer, tableNames,
} from './helpers.js';

// CVVs nobody else uses: unique per card, none equal to an amount, a status code or a port we use.
const CVVS = ['846', '857', '868', '879', '891', '902', '913', '924', '935', '946', '957', '968', '979', '981', '992'];
const AMEX_CVV = '9731';
const ACCOUNTS = ['73190284561739', '58204719365820471', '90417362580193'];
const ROUTING = '110000000';
/** Refused numbers must not be kept or logged either. */
const REFUSED = ['4012888888881881', '4111111111111112'];

const cvvFor = (i: number, brand: string) => (brand === 'amex' ? AMEX_CVV : CVVS[i % CVVS.length]);
const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');

interface Needle {
  label: string;
  text: string;
  /** Digits: a hit needs a non-digit on both sides (a random 10-digit reference number may contain "9731"). */
  digits: boolean;
}

function needles(): Needle[] {
  const out: Needle[] = [];
  for (const c of TEST_CARDS) {
    out.push({ label: `card ${c.number}`, text: c.number, digits: true });
    out.push({ label: `card ${c.number} spaced`, text: spaced(c.number), digits: true });
    out.push({ label: `card ${c.number} base64`, text: Buffer.from(c.number).toString('base64').replace(/=+$/, ''), digits: false });
  }
  for (const n of REFUSED) out.push({ label: `refused ${n}`, text: n, digits: true });
  for (const a of ACCOUNTS) out.push({ label: `account ${a}`, text: a, digits: true });
  return out;
}

/**
 * CVVs are too short to search bare (a random hex id or a UUID holds "9731" now and then, between
 * letters or dashes): look for them as values (quoted, after = or :, or a short text datum).
 */
function cvvPatterns(cvv: string): Buffer[] {
  return [`"${cvv}"`, `'${cvv}'`, `=${cvv}&`, `=${cvv}"`, `=${cvv} `, `:${cvv},`, `:${cvv}}`, `: ${cvv}`].map((s) => Buffer.from(s))
    // PostgreSQL stores a short text value as a 1-byte header ((length + 1) * 2 + 1: 0x09 for 3 bytes) and the bytes.
    .concat([Buffer.concat([Buffer.from([((cvv.length + 1) << 1) | 1]), Buffer.from(cvv)])]);
}
const ALL_CVVS = [...CVVS, AMEX_CVV];

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
const isAlnum = (b: number | undefined) => isDigit(b) || (b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)));

/**
 * `wordEnd`: a hit also needs no letter right after it. A CVV pattern that ends with the CVV (`: 857`)
 * otherwise matches the start of a hex id: a receipt's "Transaction: 857e0c…" failed this test once.
 */
function countHits(hay: Buffer, needle: Buffer, digits: boolean, wordEnd = false): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    if (digits && (isDigit(hay[i - 1]) || isDigit(hay[i + needle.length]))) continue;
    if (wordEnd && isAlnum(hay[i + needle.length])) continue;
    n++;
  }
  return n;
}

/** Every search over one source; returns "label: n" for each hit. */
function scan(source: string, hay: Buffer, extra: Needle[] = []): string[] {
  const hits: string[] = [];
  for (const nd of [...needles(), ...extra]) {
    const n = countHits(hay, Buffer.from(nd.text), nd.digits);
    if (n) hits.push(`${source}: ${nd.label} ×${n}`);
  }
  for (const cvv of ALL_CVVS) {
    for (const p of cvvPatterns(cvv)) {
      const n = countHits(hay, p, true, p.toString('latin1') === `: ${cvv}`); // the one pattern open at its end
      if (n) hits.push(`${source}: cvv ${cvv} as ${JSON.stringify(p.toString('latin1'))} ×${n}`);
    }
  }
  return hits;
}

function readTree(dir: string): { files: number; bytes: number; buffers: [string, Buffer][] } {
  const buffers: [string, Buffer][] = [];
  let bytes = 0;
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) {
        const b = readFileSync(p);
        bytes += b.length;
        buffers.push([p.slice(dir.length + 1), b]);
      }
    }
  };
  walk(dir);
  return { files: buffers.length, bytes, buffers };
}

/**
 * The workload: tokens for every test card (JSON, form, JSONP; spaced and plain numbers; each with
 * its own CVV), bank tokens, token charges, direct card charges, declines, refused numbers,
 * customers with card and bank methods, method replacement, customer charges, refunds, receipts,
 * CVV verification, and reads of everything. Every reply is kept.
 */
async function workload(c: Client, pk: string, sk: string): Promise<{ replies: Reply[]; requests: number }> {
  const replies: Reply[] = [];
  const call = async (method: string, path: string, key: string | null, body?: unknown, form = false) => {
    const headers: Record<string, string> = key ? basic(key) : {};
    let payload = body;
    if (form && body && typeof body === 'object') {
      payload = new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const r = await c.request({ method, path, headers, body: payload });
    replies.push(r);
    return r;
  };
  const card = (i: number, number = TEST_CARDS[i].number) => ({
    card_owner_name: 'Secret Test', card_number: i % 2 ? spaced(number) : number, card_exp_month: 12, card_exp_year: 2099,
    [i % 3 ? 'csc' : 'cvv']: cvvFor(i, TEST_CARDS[i].brand), zip: '10001', address_1: '1 Main St',
  });
  const bankData = (a: string) => ({
    token_type: 'bank_account', bank_account_number: a, bank_routing_number: ROUTING,
    bank_account_holder_first_name: 'Grace', bank_account_holder_last_name: 'Hopper', bank_account_type: 'checking',
  });

  await call('POST', '/api/v1/settings', sk, { cvv_check: true });
  const tokens: string[] = [];
  for (let i = 0; i < TEST_CARDS.length; i++) {
    const r = await call('POST', '/api/v1/tokens', pk, card(i), i % 4 === 1);
    expect(r.status, r.body).toBe(200);
    tokens.push(r.json().id);
    const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(card(i)).map(([k, v]) => [k, String(v)])), callback: 'cb', public_api_key: pk });
    const j = await call('GET', `/api/v1/tokens/jsonp?${q}`, null);
    expect(j.body).toMatch(/^\/\*\*\/cb\(\{"class":"token"/);
  }
  for (const a of ACCOUNTS) {
    expect((await call('POST', '/api/v1/tokens', pk, bankData(a))).status).toBe(200);
    await call('GET', `/api/v1/tokens/jsonp?${new URLSearchParams({ ...bankData(a), callback: 'cb', public_api_key: pk })}`, null);
  }
  for (const n of REFUSED) {
    expect((await call('POST', '/api/v1/tokens', pk, { ...card(0), card_number: n })).status).toBe(400);
    await call('POST', '/api/v1/charge', sk, { ...card(0), card_number: n, amount: 500 });
  }
  await call('POST', '/api/v1/settings', sk, { cvv_check: false });
  // Charges: every token (a decline among them), direct cards, bank accounts.
  const charges: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const r = await call('POST', '/api/v1/charge', sk, { token: tokens[i], amount: 1000 + i, description: 'secret workload' });
    if (r.status === 200) charges.push(r.json().id);
  }
  for (let i = 0; i < 4; i++) {
    const r = await call('POST', '/api/v1/charge', sk, { ...card(i), amount: 2000 + i }, i % 2 === 0);
    expect(r.status, r.body).toBe(200);
    charges.push(r.json().id);
  }
  const bankToken = (await call('POST', '/api/v1/tokens', pk, bankData(ACCOUNTS[0]))).json().id;
  charges.push((await call('POST', '/api/v1/charge', sk, { token: bankToken, amount: 3000 })).json().id);
  // Customers with a card, a bank method added, the card replaced, charged both ways.
  const cardToken = (await call('POST', '/api/v1/tokens', pk, card(3))).json().id;
  const cust = (await call('POST', '/api/v1/customers', sk, { first_name: 'Secret', last_name: 'Keeper', email: 'keeper@example.com', token: cardToken })).json();
  const bt = (await call('POST', '/api/v1/tokens', pk, bankData(ACCOUNTS[1]))).json().id;
  const method = (await call('POST', `/api/v1/customers/${cust.id}/methods`, sk, { token: bt, method_type: 'bank_account' })).json();
  const replacement = (await call('POST', '/api/v1/tokens', pk, card(4))).json().id;
  await call('POST', `/api/v1/customers/${cust.id}/methods/${cust.default_method_id}`, sk, { token: replacement, cvv: cvvFor(4, TEST_CARDS[4].brand) });
  charges.push((await call('POST', '/api/v1/charge', sk, { customer_id: cust.id, amount: 4000 })).json().id);
  const bankCharge = await call('POST', '/api/v1/charge', sk, { customer_id: cust.id, amount: 4100, charge_bank_account: true });
  if (bankCharge.status === 200) charges.push(bankCharge.json().id);
  const cust2 = await call('POST', '/api/v1/customers', sk, { first_name: 'Second', token: (await call('POST', '/api/v1/tokens', pk, bankData(ACCOUNTS[2]))).json().id });
  expect(cust2.status).toBe(200);
  // Refunds and receipts.
  for (const [i, id] of charges.slice(0, 6).entries()) {
    await call('POST', `/api/v1/charge/${id}/cancel`, sk, i % 2 ? {} : { amount: 100 });
    await call('POST', `/api/v1/charge/${id}/receipt`, sk, i % 2 ? { receipt_type: 'sms', phone_number: '+15555550100' } : { email_address: 'keeper@example.com' });
  }
  await call('POST', '/api/v1/charge', sk, { customer_id: cust.id, amount: 4200, send_receipt: true, email_address: 'keeper@example.com' });
  // Reads of everything that could echo a number.
  for (const t of tokens.slice(0, 5)) await call('GET', `/api/v1/tokens/${t}`, sk);
  for (const id of charges) await call('GET', `/api/v1/charge/${id}`, sk);
  for (const path of ['/api/v1/transactions?limit=100', '/api/v1/customers?limit=100', `/api/v1/customers/${cust.id}`, `/api/v1/customers/${cust.id}/methods`,
    `/api/v1/customers/${cust.id}/methods/${method.id}`, '/api/v1/outbox?limit=100', '/api/v1/events?limit=100', '/api/v1/dashboard/transactions?limit=100',
    '/api/v1/dashboard/overview', '/metrics']) {
    await call('GET', path, path === '/metrics' ? null : sk);
  }
  await call('DELETE', `/api/v1/customers/${cust.id}/methods/${method.id}`, sk);
  return { replies, requests: replies.length };
}

/**
 * The pino lines of the output. The first start of an empty database also prints the demo
 * merchant's test keys once, on purpose (README: Keys); that banner is not a log line.
 */
function logLines(file: string): Buffer {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const banner = lines.filter((l) => /^private key\s/.test(l));
  expect(banner.length, 'the first start printed its keys once').toBeLessThanOrEqual(1);
  return Buffer.from(lines.filter((l) => !/^private key\s/.test(l)).join('\n'));
}

function scanReplies(replies: Reply[]): string[] {
  return scan('responses', Buffer.from(replies.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`).join('\n')));
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => {});
});

describe('no card number, CVV or account number at rest or in logs', () => {
  test('embedded PGlite: data directory, trace log and responses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-secrets-'));
    // A copy of the migrated template (test/helpers/data-template.ts): what is proven is what the
    // workload leaves at rest and in the log; the template holds the schema only, no key, no row.
    const dataDir = await migratedDataDir(join(dir, 'data'));
    const logFile = join(dir, 'tessera.log');
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const server = await spawnServer({ dataDir, logFile, logLevel: 'trace' });
    const client = new Client(server.url, 8);
    const { replies, requests } = await workload(client, server.publicKey!, server.privateKey!);
    // A second key set (the dashboard's rotation): its private key is shown once and kept only as a hash.
    const rotated = await client.request({ method: 'POST', path: '/api/v1/dashboard/keys', headers: basic(server.privateKey!), body: { expire_old: '1h' } });
    expect(rotated.status, `the dashboard rotates a key set: ${rotated.body}`).toBe(200);
    const rotatedKey: string = rotated.json().private_key;
    expect(rotatedKey).toMatch(/^test_sk_/);
    client.close();
    await server.stop();

    const tree = readTree(dataDir);
    const keys: Needle[] = [server.privateKey!, rotatedKey].flatMap((k) => [
      { label: `private key ${k.slice(0, 12)}…`, text: k, digits: false },
      { label: `Authorization of ${k.slice(0, 12)}…`, text: basic(k).authorization.slice(6), digits: false },
    ]);
    const hits: string[] = [];
    for (const [name, buf] of tree.buffers) hits.push(...scan(`data/${name}`, buf, keys));
    const log = logLines(logFile);
    hits.push(...scan('log', log, keys));
    hits.push(...scanReplies(replies));
    figure('secrets pglite', {
      requests, data_files: tree.files, data_bytes: tree.bytes, log_bytes: log.length, log_lines: log.toString().split('\n').length,
      needles: needles().length + keys.length + ALL_CVVS.length * cvvPatterns('000').length, hits: hits.length,
    });
    expect(hits).toEqual([]);

    // Positive controls: the searches read what they claim to read.
    const all = Buffer.concat(tree.buffers.map(([, b]) => b));
    expect(countHits(all, Buffer.from(server.publicKey!), false), 'the public key is kept whole, so the scan must find it').toBeGreaterThan(0);
    expect(countHits(all, Buffer.from('XXXXXXXXXXXX1111'), false), 'masked numbers are in the database').toBeGreaterThan(0);
    expect(countHits(all, Buffer.from('secret workload'), false), 'descriptions are in the database').toBeGreaterThan(0);
    // ": 857" is a CVV after a label, not the start of a hex id.
    expect([countHits(Buffer.from('CVV: 857<br>csc: 857}'), Buffer.from(': 857'), true, true),
      countHits(Buffer.from('Transaction: 857e0c1f'), Buffer.from(': 857'), true, true)]).toEqual([2, 0]);
    expect(log.toString()).toContain('"url":"/api/v1/tokens/jsonp"');
    // Every request was logged (incoming and completed), bodies of work included.
    expect(log.toString().split('"msg":"incoming request"').length - 1).toBeGreaterThanOrEqual(requests);
    expect(replies.some((r) => r.body.includes('XXXXXXXXXXXX1111'))).toBe(true);
  }, 120_000);

  test.skipIf(!PG_URL)(`PostgreSQL: every table's rows, trace log and responses${PG_URL ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`, async () => {
    const db: PgDatabase = await freshPgDatabase('proof_secrets');
    cleanups.push(() => db.drop());
    const dir = mkdtempSync(join(tmpdir(), 'tessera-secrets-pg-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const logFile = join(dir, 'tessera.log');
    const server = await spawnServer({ databaseUrl: db.url, dataKey: randomBytes(32).toString('base64'), logFile, logLevel: 'trace' });
    const client = new Client(server.url, 8);
    const { replies, requests } = await workload(client, server.publicKey!, server.privateKey!);
    client.close();
    await server.stop();
    const q = pgQueryable(db.url);
    let dump: Buffer;
    try {
      const parts: string[] = [];
      for (const t of await tableNames(q)) for (const r of await q.query(`SELECT x::text AS row FROM "${t}" x`)) parts.push(`${t}: ${r.row}`);
      dump = Buffer.from(parts.join('\n'));
    } finally {
      await q.close();
    }
    const keys: Needle[] = [{ label: 'private key', text: server.privateKey!, digits: false }];
    const hits = [...scan('database', dump, keys), ...scan('log', logLines(logFile), keys), ...scanReplies(replies)];
    figure('secrets postgres', { requests, dump_bytes: dump.length, hits: hits.length });
    expect(hits).toEqual([]);
    expect(dump.toString()).toContain(server.publicKey!);
    expect(dump.toString()).toContain('XXXXXXXXXXXX1111');
  }, 120_000);
});
