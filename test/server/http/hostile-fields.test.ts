import { clip, isEmail, parseAmount, text } from '../../../server/lib/validate.js';
import { GatewayError } from '../../../server/errors.js';
import { calls } from '../routes/receipts-fixtures.js';
import { TestGateway, bank, basic, describe, expect, expectError, test as base, tokenFor } from '../../fixtures.js';

// Field readers (issue 15 item 1, issue 14 item 11): a value of a type the field does not take
// (an object with an own toString or valueOf, a list) is 400 REQ01 naming the field, never a 500;
// an email is one RFC 5321 mailbox. A sample of operations and fields here; the proof suite
// test/proof/fuzz-hostile.test.ts sends every class to every body field of every operation.

type Calls = ReturnType<typeof calls>;
/** What the table's requests are built from. */
type Seed = { gw: TestGateway; customer: string; charge: string };
/**
 * The gateway fixture, plus the receipt calls of receipts-fixtures.ts as `calls`, and `seed`, made
 * once per file: a customer with a card and a bank account (`customer`), and a settled charge (`charge`).
 */
const test = base.extend<{ calls: Calls; seed: Seed; customer: string; charge: string }>({
  calls: [async ({ gateway }, use) => use(calls(gateway)), { scope: 'file' }],
  seed: [async ({ gateway: gw, calls: api }, use) => {
    const c = await api.post('/customers', { first_name: 'Ada', email: 'ada@example.com', token: await tokenFor(gw) });
    const customer = c.body.id;
    await api.post(`/customers/${customer}/methods`, { token: await tokenFor(gw, bank) });
    await use({ gw, customer, charge: (await api.charge()).id });
  }, { scope: 'file' }],
  customer: [async ({ seed }, use) => use(seed.customer), { scope: 'file' }],
  charge: [async ({ seed }, use) => use(seed.charge), { scope: 'file' }],
});

const form = (gw: TestGateway, url: string, payload: string) => gw.app.inject({
  method: 'POST', url: `/api/v1${url}`, payload,
  headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
});

/** Row counts of the tables a refused request must leave alone. */
const counts = async (gw: TestGateway) => (await gw.db.query(
  `SELECT (SELECT count(*) FROM transactions)::int AS t, (SELECT count(*) FROM receipts)::int AS r, (SELECT count(*) FROM customers)::int AS c,
          (SELECT count(*) FROM plans)::int AS p, (SELECT count(*) FROM scheduled_transactions)::int AS s, (SELECT count(*) FROM outbox)::int AS o`))[0];

const HOSTILE: [string, unknown][] = [['{toString}', { toString: 1 }], ['{toString,valueOf}', { toString: 'x', valueOf: 'y' }], ['a list', ['a', 'b']]];

describe('own toString / valueOf objects and lists: 400 REQ01 naming the field, nothing written', () => {
  const cases: [string, (s: Seed) => string, (s: Seed) => Promise<Record<string, unknown>>, string][] = [
    ['POST /charge', () => '/charge', async ({ gw }) => ({ token: await tokenFor(gw), amount: 500 }), 'description'],
    ['POST /charge', () => '/charge', async ({ gw }) => ({ token: await tokenFor(gw), amount: 500 }), 'token'],
    ['POST /charge', () => '/charge', async ({ customer }) => ({ customer_id: customer, amount: 500 }), 'method_id'],
    ['POST /charge', () => '/charge', async ({ gw }) => ({ token: await tokenFor(gw), amount: 500 }), 'email_address'],
    ['POST /charge/:id/receipt', ({ charge }) => `/charge/${charge}/receipt`, async () => ({ email_address: 'a@example.com' }), 'receipt_template_id'],
    ['POST /charge/:id/receipt', ({ charge }) => `/charge/${charge}/receipt`, async () => ({}), 'email_address'],
    ['POST /plans', () => '/plans', async () => ({ name: 'P', frequency: 'monthly', amount: 100 }), 'name'],
    ['POST /plans', () => '/plans', async () => ({ name: 'P', frequency: 'daily', amount: 100 }), 'day'],
    ['POST /scheduled_transactions', () => '/scheduled_transactions', async ({ customer }) => ({ customer_id: customer, amount: 100, bill_on: '2030-01-01' }), 'bill_on'],
    ['POST /scheduled_transactions', () => '/scheduled_transactions', async ({ customer }) => ({ customer_id: customer, amount: 100, bill_on: '2030-01-01' }), 'city'],
    ['POST /billings/retry', () => '/billings/retry', async () => ({}), 'id'],
    ['POST /settings', () => '/settings', async () => ({}), 'default_receipt_template_id'],
    ['POST /settings', () => '/settings', async () => ({}), 'cvv_check'],
    ['POST /test_helpers/clock/advance', () => '/test_helpers/clock/advance', async () => ({ days: 1 }), 'days'],
    ['POST /test_helpers/clock/advance', () => '/test_helpers/clock/advance', async () => ({}), 'to'],
  ];
  for (const [label, url, base, field] of cases) {
    test.for(HOSTILE)(`${label} ${field} = %s (JSON)`, async ([_, value], { calls: api, seed, gateway: gw }) => {
      const before = await counts(gw);
      const res = await api.post(url(seed), { ...(await base(seed)), [field]: value });
      expectError(res, 400, 'REQ01');
      expect(res.body.errors[0].message).toContain(field);
      expect(await counts(gw)).toEqual(before);
    });
    test(`${label} ${field}[toString]=x (form)`, async ({ seed, gateway: gw }) => {
      const b = await base(seed);
      const before = await counts(gw);
      const rest = Object.entries(b).filter(([k]) => k !== field).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
      const res = await form(gw, url(seed), [...rest, `${field}[toString]=x`].join('&'));
      expectError(res, 400, 'REQ01');
      expect(await counts(gw)).toEqual(before);
    });
  }

  test('DELETE /customers with an object id: 400 REQ01', async ({ gateway: gw }) => {
    const res = await gw.app.inject({ method: 'DELETE', url: '/api/v1/customers', headers: basic(gw.merchant.test.private_key), payload: { id: { toString: 1 } } });
    expectError(res, 400, 'REQ01');
  });

  test('GET /webhooks/deliveries?status=constructor (a name on Object.prototype) is REQ01, not a filter on Object.prototype.constructor', async ({ calls: api }) => {
    for (const status of ['constructor', '__proto__', 'toString']) expectError(await api.get(`/webhooks/deliveries?status=${status}`), 400, 'REQ01');
  });
});

describe('one mailbox per email field (RFC 5321 local@domain, nothing else)', () => {
  const ATTACKS = ['x<attacker@evil.example>', 'a,attacker@evil.example', 'Ada <ada@example.com>', 'a@example.com, b@example.com',
    'a@example.com\r\nBcc: b@evil.example', 'a b@example.com', '"a,b"@example.com', 'a@b@example.com', 'a@example', '.a@example.com',
    'a..b@example.com', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`, 'a@-example.com', 'a@example.com.', 'ädä@example.com'];
  test.each(ATTACKS)('isEmail(%j) is false', (s) => expect(isEmail(s)).toBe(false));
  test.each(['ada@example.com', "o'brien+tag@mail.example.co.uk", 'a.b-c_d@x-y.example', `${'a'.repeat(64)}@example.com`, 'A@EXAMPLE.COM'])(
    'isEmail(%j) is true', (s) => expect(isEmail(s)).toBe(true));

  test.for(['x<attacker@evil.example>', 'a,attacker@evil.example'])('customers: %j is 81609 on create and update, nothing stored', async (email, { calls: api, customer, gateway: gw }) => {
    const before = await counts(gw);
    expectError(await api.post('/customers', { first_name: 'Eve', email }), 400, '81609');
    expect(await counts(gw)).toEqual(before);
    expectError(await api.post(`/customers/${customer}`, { email }), 400, '81609');
    expect((await api.get(`/customers/${customer}`)).body.email).toBe('ada@example.com');
  });

  test.for(['x<attacker@evil.example>', 'a,attacker@evil.example'])('receipts: %j is 69006, no receipt and no outbox message', async (email, { gateway: gw, calls: api, charge }) => {
    const before = await counts(gw);
    expectError(await api.post(`/charge/${charge}/receipt`, { email_address: email }), 400, '69006');
    expectError(await api.post('/charge', { token: await tokenFor(gw), amount: 300, email_address: email, send_receipt: true }), 400, '69006');
    expect(await counts(gw)).toEqual(before);
  });

  test.for(['x<attacker@evil.example>', 'a,attacker@evil.example'])('webhook email strategies: %j is refused', async (email, { calls: api }) => {
    expectError(await api.post('/webhooks/strategies', { mode: 'email', email_address: email }), 400, 'REQ01');
  });
});

describe('the readers themselves', () => {
  test('parseAmount: absent is missing; present but empty is empty; digits only', () => {
    expect(parseAmount(undefined)).toBe('missing');
    for (const v of [null, '', '   ']) expect(parseAmount(v)).toBe('empty');
    for (const v of ['1.00', '1999.0', ' 12 ', '1e3', '0x10', '+5', { toString: 1 }, ['5'], true, 1.5, 100_000_000_000]) expect(parseAmount(v)).toBe('invalid');
    for (const v of [0, -1, '0', '-5']) expect(parseAmount(v)).toBe('not_positive');
    expect(parseAmount('0012')).toBe(12);
    expect(parseAmount(1999)).toBe(1999);
    expect(parseAmount('99999999999')).toBe(99_999_999_999);
  });

  test('clip: cuts by code point, never inside a surrogate pair; lone surrogates and NUL become U+FFFD', () => {
    expect(clip(`${'a'.repeat(63)}\u{1F600}x`, 64)).toBe(`${'a'.repeat(63)}\u{1F600}`);
    expect(clip('\u{1F600}'.repeat(3), 2)).toBe('\u{1F600}\u{1F600}');
    expect(clip('a\ud800b\udfffc\u0000', 64)).toBe('a\ufffdb\ufffdc\ufffd');
  });

  test('text: strings and numbers; anything else is REQ01 naming the field', () => {
    expect(text('  a  ', 'f')).toBe('a');
    expect(text(12, 'f')).toBe('12');
    expect(text('   ', 'f')).toBeNull();
    expect(text(null, 'f')).toBeNull();
    for (const v of [{ toString: 1 }, { valueOf: 1 }, [], ['a'], true]) {
      expect(() => text(v, 'zip')).toThrow(new GatewayError('REQ01', 'zip must be a string'));
    }
  });
});

describe('fields the route schemas type as strings take no lists (the validator no longer unwraps [x] to x)', () => {
  test.for<[string, string, Record<string, unknown>]>([
    ['customer search term', '/api/v1/customers/search', { search_term: ['Eve'] }],
    ['customer search offset', '/api/v1/customers/search', { search_term: 'A', offset: [1] }],
    ['secret rotation expire_old', '/api/v1/webhooks/secret/rotate', { expire_old: ['now'] }],
  ])('%s: 400 REQ01', async ([_name, url, payload], { gateway: gw }) => {
    const res = await gw.app.inject({ method: 'POST', url, payload, headers: basic(gw.merchant.test.private_key) });
    expect({ status: res.statusCode, code: res.json().errors?.[0]?.code }).toEqual({ status: 400, code: 'REQ01' });
  });
});
