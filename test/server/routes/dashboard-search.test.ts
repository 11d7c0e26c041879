import { amountsOf } from '../../../server/domain/dashboard/search.js';
import { Merchant, TestGateway, bank, basic, test as base, describe, expect, expectError, tokenFor, visa } from '../../fixtures.js';
import { api } from './billings-fixtures.js';

// GET /api/v1/dashboard/search (issue 19): transactions, customers, invoices and subscriptions of
// the key's merchant and environment by id prefix, email, name, last 4 digits and amount.

const mastercard = { ...visa, card_owner_name: 'Grace Hopper', card_number: '5555555555554444' };

const search = (gw: TestGateway, m: Merchant, query: string, key = m.test.private_key) => gw.app.inject({ url: `/api/v1/dashboard/search${query}`, headers: basic(key) });
const found = async (gw: TestGateway, m: Merchant, q: string, extra = '') => {
  const res = await search(gw, m, `?q=${encodeURIComponent(q)}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((r: any) => `${r.type}:${r.id}`);
};

/**
 * found() is `expected`, once the results that matched `q` only as an id prefix are set aside:
 * every q is one (search.ts) and ids are random hex, so a digits-only q such as 42 begins about
 * one id in 256 by chance. The seeded subscription is also found by its customer's id.
 */
async function expectFound(gw: TestGateway, m: Merchant, ids: Record<string, string>, q: string, expected: string[]) {
  const customerOf: Record<string, string> = { [`subscription:${ids.sub}`]: ids.grace };
  const prefixOf = (id: string) => id.toLowerCase().startsWith(q.toLowerCase());
  const byChance = (r: string) => !expected.includes(r) && (prefixOf(r.slice(r.indexOf(':') + 1)) || (r in customerOf && prefixOf(customerOf[r])));
  expect((await found(gw, m, q)).filter((r: string) => !byChance(r))).toEqual(expected);
}

/** The merchant whose records the tests search, and the ids of those records; made once per file. */
async function seed(gw: TestGateway): Promise<{ m: Merchant; ids: Record<string, string> }> {
  const m = await gw.newMerchant();
  const a = api(gw, m);
  const ids: Record<string, string> = {};
  ids.ada = (await a.customer({ email: 'ada@example.com' })).id;
  ids.grace = (await a.customer({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.example' }, mastercard.card_number)).id;
  const charge = async (amount: number, card: Record<string, unknown>) =>
    (await a.ok('POST', '/charge', { token: await tokenFor(gw, card, m.test.public_key), amount })).id;
  ids.t1250 = await charge(1250, visa);
  ids.t999 = await charge(999, mastercard);
  ids.invoice = (await a.ok('POST', '/invoices', {
    customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com', items: [{ description: 'Consulting', unit_amount: 4200 }],
  })).id;
  const plan = await a.plan({ amount: 1500 });
  ids.sub = String((await a.subscribe(plan.id, ids.grace)).id);
  // The same names, card and amounts elsewhere: another merchant, and this merchant's live mode.
  const other = api(gw, gw.other);
  await other.customer({ email: 'ada@example.com' });
  await other.post('/charge', { token: await tokenFor(gw, visa, gw.other.test.public_key), amount: 1250 });
  await a.customer({ email: 'ada@example.com' }, visa.card_number, m.live);
  return { m, ids };
}
const test = base.extend<{ seeded: { m: Merchant; ids: Record<string, string> }; m: Merchant; ids: Record<string, string> }>({
  seeded: [async ({ gateway }, use) => use(await seed(gateway)), { scope: 'file' }],
  m: [async ({ seeded }, use) => use(seeded.m), { scope: 'file' }],
  ids: [async ({ seeded }, use) => use(seeded.ids), { scope: 'file' }],
});

describe('GET /dashboard/search', () => {
  test('the result shape, and nothing of the card beyond its last 4', async ({ gateway: gw, m, ids }) => {
    const res = await search(gw, m, '?q=12.50');
    expect(res.json()).toEqual({
      class: 'search', q: '12.50',
      results: [{ type: 'transaction', id: ids.t1250, title: '$12.50 settled · Ada Lovelace', subtitle: expect.stringContaining('•••• 1111'), amount: 1250 }],
    });
    expect(res.body).not.toContain(visa.card_number);
    expect(res.body).not.toContain(visa.card_number.slice(0, 12));
  });

  test('amounts carry the currency sign; a charge says when it is partly or wholly refunded', async ({ gateway: gw, ids, m }) => {
    const n = await gw.newMerchant();
    const a = api(gw, n);
    const charge = async (amount: number) => (await a.ok('POST', '/charge', { token: await tokenFor(gw, visa, n.test.public_key), amount })).id;
    const part = await charge(123456);
    const whole = await charge(2000);
    await a.ok('POST', `/charge/${part}/cancel`, { amount: 500 });
    await a.ok('POST', `/charge/${whole}/cancel`, {});
    const titles = async (q: string) => (await search(gw, n, `?q=${q}`, n.test.private_key)).json().results.map((r: any) => r.title);
    expect(await titles('1234.56')).toEqual(['$1,234.56 settled · partly refunded $5.00 · Ada Lovelace']);
    expect(await titles('20.00')).toEqual(['$20.00 refunded · Ada Lovelace']);
    expect((await search(gw, m, '?q=42.00')).json().results).toContainEqual(expect.objectContaining({ id: ids.invoice, title: `Invoice ${ids.invoice} · $42.00` }));
  });

  test('by the last 4 digits: charges on the card and customers holding it', async ({ gateway: gw, m, ids }) => {
    await expectFound(gw, m, ids, '4444', [`transaction:${ids.t999}`, `customer:${ids.grace}`]);
    await expectFound(gw, m, ids, '1111', [`transaction:${ids.t1250}`, `customer:${ids.ada}`]);
  });

  test('by the last 4 digits of a bank account, from the masked number of the charge', async ({ gateway: gw, m }) => {
    const n = await gw.newMerchant();
    const res = await api(gw, n).ok('POST', '/charge', { token: await tokenFor(gw, bank, n.test.public_key), amount: 3100 });
    const body = (await search(gw, m, '?q=6789', n.test.private_key)).json();
    expect(body.results).toEqual([expect.objectContaining({ type: 'transaction', id: res.id, amount: 3100, subtitle: expect.stringContaining('•••• 6789') })]);
    expect(JSON.stringify(body)).not.toContain(bank.bank_account_number);
  });

  test('by amount: 12.50, 1250 (cents) and $12.50 are the same; a whole number is also dollars', async ({ gateway: gw, m, ids }) => {
    for (const q of ['12.50', '1250', '$12.50', '12.5']) await expectFound(gw, m, ids, q, [`transaction:${ids.t1250}`]);
    expect(await found(gw, m, '9.99')).toEqual([`transaction:${ids.t999}`]);
    await expectFound(gw, m, ids, '42', [`invoice:${ids.invoice}`]);
    expect(await found(gw, m, '15.00')).toEqual([`subscription:${ids.sub}`]);
    expect(amountsOf('1250')).toEqual([1250, 125000]);
    expect(amountsOf('0.05')).toEqual([5]);
    expect(amountsOf('12.345')).toEqual([]);
  });

  test('by email and name, case-insensitive, across customers, charges, invoices and subscriptions', async ({ gateway: gw, m, ids }) => {
    expect(await found(gw, m, 'ADA@example')).toEqual([`customer:${ids.ada}`, `invoice:${ids.invoice}`]);
    expect(await found(gw, m, 'grace')).toEqual([`transaction:${ids.t999}`, `customer:${ids.grace}`, `subscription:${ids.sub}`]);
    expect(await found(gw, m, 'lovelace')).toEqual([`transaction:${ids.t1250}`, `customer:${ids.ada}`, `invoice:${ids.invoice}`]);
  });

  test('by id prefix', async ({ gateway: gw, m, ids }) => {
    expect(await found(gw, m, ids.t1250.slice(0, 10))).toEqual([`transaction:${ids.t1250}`]);
    expect(await found(gw, m, ids.t1250.slice(0, 10).toUpperCase())).toEqual([`transaction:${ids.t1250}`]);
    expect(await found(gw, m, ids.invoice.slice(0, 8))).toEqual([`invoice:${ids.invoice}`]);
    expect(await found(gw, m, ids.ada)).toEqual([`customer:${ids.ada}`]);
  });

  test('LIKE wildcards in q are plain characters', async ({ gateway: gw, m }) => {
    for (const q of ['%', '_', '%@%', '\\', 'a_a']) expect(await found(gw, m, q)).toEqual([]);
  });

  test('limit caps the answer, the types taking turns', async ({ gateway: gw, m, ids }) => {
    expect(await found(gw, m, 'lovelace', '&limit=2')).toEqual([`transaction:${ids.t1250}`, `customer:${ids.ada}`]);
    expect(await found(gw, m, 'lovelace', '&limit=1')).toEqual([`transaction:${ids.t1250}`]);
  });

  test('another merchant and the live environment find only their own', async ({ gateway: gw, m, ids }) => {
    const other = (await search(gw, m, '?q=ada%40example.com', gw.other.test.private_key)).json().results;
    expect(other).toHaveLength(1);
    expect(other[0].id).not.toBe(ids.ada);
    const live = (await search(gw, m, '?q=1111', m.live.private_key)).json().results;
    expect(live.map((r: any) => r.type)).toEqual(['customer']);
    expect(live[0].id).not.toBe(ids.ada);
  });

  test('q of 1..100 characters and limit 1..20, else 400 DASH02; public key 403', async ({ gateway: gw, m }) => {
    for (const q of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(101)}`, '?q=ada&limit=0', '?q=ada&limit=21', '?q=ada&limit=x', '?q=a&q=b', '?q=ada&limit=020', '?q=ada&limit=1&limit=2']) {
      expectError(await search(gw, m, q), 400, 'DASH02');
    }
    expect((await search(gw, m, `?q=${'a'.repeat(100)}&limit=20`)).statusCode).toBe(200);
    expectError(await search(gw, m, '?q=a%00b'), 400, 'REQ01'); // NUL: refused for every query string
    expectError(await search(gw, m, '?q=ada', m.test.public_key), 403, 'AUTH02');
  });
});
