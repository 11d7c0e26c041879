import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestGateway, bank, basic, startGateway, tokenFor, visa } from '../../helpers/gateway.js';

// POST /charge/:id/cancel: refunds (spec 4.1). The answer is the updated transaction.

let gw: TestGateway;
beforeAll(async () => { gw = await startGateway(); });
afterAll(() => gw.close());

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function settled(amount: number, data: Record<string, unknown> = visa, m = gw.merchant) {
  const token = await tokenFor(gw, data, m.test.public_key);
  const res = await gw.app.inject({ method: 'POST', url: '/api/v1/charge', headers: basic(m.test.private_key), payload: { token, amount } });
  expect([200, 402]).toContain(res.statusCode);
  return res.statusCode === 200 ? (res.json().id as string) : (res.json().errors[0].transaction_id as string);
}
const refund = (id: string, payload?: unknown, key = gw.merchant.test.private_key) =>
  gw.app.inject({ method: 'POST', url: `/api/v1/charge/${id}/cancel`, headers: basic(key), payload: payload as any });
const read = async (id: string) =>
  (await gw.app.inject({ url: `/api/v1/charge/${id}`, headers: basic(gw.merchant.test.private_key) })).json();
const refundRows = async (id: string) =>
  (await gw.db.query('SELECT count(*)::int AS n FROM refunds WHERE transaction_id = $1', [id]))[0].n as number;

function expectError(res: { statusCode: number; json(): any }, status: number, code: string) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status,
    body: { errors: [expect.objectContaining({ code, message: expect.any(String) })] },
  });
}

/** One step: refund `amount` (undefined: no amount, the remainder) and expect code or the new totals. */
type Step = { amount?: unknown; code?: string; refunded_total: number; refunded: boolean };

const TABLE: [string, number, Step[]][] = [
  ['partial refunds accumulate, then the remainder without an amount', 1000, [
    { amount: 300, refunded_total: 300, refunded: false },
    { amount: 200, refunded_total: 500, refunded: false },
    { amount: 1, refunded_total: 501, refunded: false },
    { refunded_total: 1000, refunded: true },
  ]],
  ['a full refund without an amount', 1000, [{ refunded_total: 1000, refunded: true }]],
  ['a full refund naming the whole amount', 1000, [{ amount: 1000, refunded_total: 1000, refunded: true }]],
  ['the exact remainder completes the refund', 2500, [
    { amount: 2499, refunded_total: 2499, refunded: false },
    { amount: 1, refunded_total: 2500, refunded: true },
  ]],
  ['over-refund of a fresh charge changes nothing', 1000, [
    { amount: 1001, code: 'REFUND01', refunded_total: 0, refunded: false },
    { amount: 1000, refunded_total: 1000, refunded: true },
  ]],
  ['over-refund after a partial refund changes nothing', 1000, [
    { amount: 600, refunded_total: 600, refunded: false },
    { amount: 401, code: 'REFUND01', refunded_total: 600, refunded: false },
    { amount: 400, refunded_total: 1000, refunded: true },
  ]],
  ['nothing is left after a full refund', 1000, [
    { refunded_total: 1000, refunded: true },
    { amount: 1, code: 'REFUND01', refunded_total: 1000, refunded: true },
    { code: 'REFUND01', refunded_total: 1000, refunded: true },
  ]],
  ['amounts as digit strings', 700, [
    { amount: '200', refunded_total: 200, refunded: false },
    { amount: '500', refunded_total: 700, refunded: true },
  ]],
];

describe('refund arithmetic', () => {
  test.each(TABLE)('%s', async (_, amount, steps) => {
    const id = await settled(amount);
    const amounts: number[] = [];
    for (const step of steps) {
      const res = await refund(id, step.amount === undefined ? undefined : { amount: step.amount });
      if (step.code) {
        expectError(res, 400, step.code);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        amounts.push(step.refunded_total - amounts.reduce((a, b) => a + b, 0));
      }
      const t = step.code ? await read(id) : res.json();
      expect(t).toMatchObject({
        class: 'transaction', id, status: 'SETTLED', amount_settled: amount,
        amount_refunded: step.refunded_total, refunded: step.refunded,
      });
      expect(t.refunds.map((r: any) => r.amount)).toEqual(amounts);
      for (const r of t.refunds) {
        expect(Object.keys(r).sort()).toEqual(['amount', 'created_at', 'id']);
        expect(r.id).toMatch(/^[0-9a-f]{32}$/);
        expect(r.created_at).toMatch(TIMESTAMP);
      }
      expect(await refundRows(id)).toBe(amounts.length);
    }
  });

  test('refunds keep their order and their own timestamps', async () => {
    const id = await settled(1000);
    const t0 = gw.clock.now().toISOString();
    await refund(id, { amount: 100 });
    gw.clock.advance(60_000);
    const t1 = gw.clock.now().toISOString();
    const t = (await refund(id, { amount: 200 })).json();
    expect(t.refunds.map((r: any) => [r.amount, r.created_at])).toEqual([[100, t0], [200, t1]]);
    expect(new Set(t.refunds.map((r: any) => r.id)).size).toBe(2);
  });

  test('a form-encoded amount works; an empty body refunds the remainder', async () => {
    const id = await settled(900);
    const res = await gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${id}/cancel`, payload: 'amount=250',
      headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().amount_refunded).toBe(250);
    const rest = await gw.app.inject({ method: 'POST', url: `/api/v1/charge/${id}/cancel`, headers: basic(gw.merchant.test.private_key) });
    expect(rest.json()).toMatchObject({ amount_refunded: 900, refunded: true });
  });

  test('a settled bank-account charge can be refunded', async () => {
    const id = await settled(4000, bank);
    expect((await refund(id, { amount: 1500 })).json()).toMatchObject({ payment_method: 'bank_account', amount_refunded: 1500 });
  });
});

describe('refund errors', () => {
  // Absent means "the remainder"; a present amount must be one: empty, null, a decimal, padded or
  // signed text, an object (own toString/valueOf) or a list is refused and refunds nothing.
  test.each<unknown>([0, -5, 1.5, 'abc', '1e3', true, null, '', '  ', '1.00', '1999.0', ' 12 ', '+5', '-5', '0x10', '99999999999999999999',
    { toString: 1 }, { valueOf: 1 }, ['100'], 9_007_199_254_740_993])('59112: amount %j; nothing changes', async (amount) => {
    const id = await settled(1000);
    expectError(await refund(id, { amount }), 400, '59112');
    expect(await read(id)).toMatchObject({ amount_refunded: 0, refunds: [], refunded: false });
    expect(await refundRows(id)).toBe(0);
  });

  test.each(['amount=', 'amount=1.00', 'amount[toString]=5', 'amount[]=5&amount[]=6', 'amount=%2012%20'])(
    '59112: form body %s refunds nothing (an empty field is not an absent one)', async (payload) => {
      const id = await settled(1000);
      const res = await gw.app.inject({
        method: 'POST', url: `/api/v1/charge/${id}/cancel`, payload,
        headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectError(res, 400, '59112');
      expect(await refundRows(id)).toBe(0);
    });

  test('absent amount (JSON {} or a form without the field) refunds the remainder', async () => {
    const a = await settled(1000);
    expect((await refund(a, {})).json()).toMatchObject({ amount_refunded: 1000, refunded: true });
    const b = await settled(700);
    const res = await gw.app.inject({
      method: 'POST', url: `/api/v1/charge/${b}/cancel`, payload: 'note=x',
      headers: { ...basic(gw.merchant.test.private_key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json()).toMatchObject({ amount_refunded: 700, refunded: true });
  });

  test('REFUND02: a DECLINED charge (amount 80, and the always-declining card)', async () => {
    for (const id of [await settled(80), await settled(500, { ...visa, card_number: '4000000000000002' })]) {
      expect((await read(id)).status).toBe('DECLINED');
      expectError(await refund(id, { amount: 10 }), 409, 'REFUND02');
      expectError(await refund(id), 409, 'REFUND02');
      expect(await refundRows(id)).toBe(0);
    }
  });

  test('REFUND02: a RETURNED ACH charge (amount 12 on a bank account)', async () => {
    const id = await settled(12, bank);
    expect(await read(id)).toMatchObject({ status: 'RETURNED', successful: false });
    expectError(await refund(id, { amount: 12 }), 409, 'REFUND02');
    expectError(await refund(id), 409, 'REFUND02');
    expect(await read(id)).toMatchObject({ amount_refunded: 0, refunds: [] });
  });

  test("69404: unknown id, another merchant's charge, a test charge with the live key", async () => {
    expectError(await refund('f'.repeat(32), { amount: 10 }), 404, '69404');
    const id = await settled(1000);
    expectError(await refund(id, { amount: 10 }, gw.other.test.private_key), 404, '69404');
    expectError(await refund(id, { amount: 10 }, gw.merchant.live.private_key), 404, '69404');
    expect(await read(id)).toMatchObject({ amount_refunded: 0, refunds: [] });
  });

  test('the public key cannot refund', async () => {
    const id = await settled(1000);
    expectError(await refund(id, { amount: 10 }, gw.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('concurrent refunds', () => {
  test('10 parallel refunds of 300 on a 1000 charge: exactly 3 succeed, 900 refunded', async () => {
    const id = await settled(1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => refund(id, { amount: 300 })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.statusCode >= 500)).toHaveLength(0);
    for (const r of results.filter((x) => x.statusCode !== 200)) expectError(r, 400, 'REFUND01');
    expect(await read(id)).toMatchObject({ amount_refunded: 900, refunded: false });
    expect((await read(id)).refunds.map((r: any) => r.amount)).toEqual([300, 300, 300]);
    expect(await refundRows(id)).toBe(3);
    expect(ok.map((r) => r.json().amount_refunded).sort()).toEqual([300, 600, 900]);
  });

  test('parallel full refunds without an amount: exactly one succeeds', async () => {
    const id = await settled(1000);
    const results = await Promise.all(Array.from({ length: 8 }, () => refund(id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await read(id)).toMatchObject({ amount_refunded: 1000, refunded: true });
    expect(await refundRows(id)).toBe(1);
  });
});
