import type { TesseraClient } from '../../../server/testing/client.js';
import { TestGateway, bank, basic, describe, expect, test, visa } from '../../fixtures.js';

// POST /charge/:id/cancel: refunds (spec 4.1). The answer is the updated transaction.

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A charge of `amount` by `api`'s merchant: its id, settled or (amount 80, declining card, bank 12) not. */
async function settled(api: TesseraClient, amount: number, data: Record<string, unknown> = visa) {
  const res = await api.charge(await api.tokenize(data as any), amount);
  expect([200, 402]).toContain(res.status);
  return res.transaction!.id;
}
const refund = (api: TesseraClient, id: string, payload?: unknown, key?: string) =>
  api.request('POST', `/charge/${id}/cancel`, payload, { key });
const refundForm = (gw: TestGateway, id: string, payload?: string) => gw.app.inject({
  method: 'POST', url: `/api/v1/charge/${id}/cancel`, payload,
  headers: { ...basic(gw.merchant.test.private_key), ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
});
const read = async (api: TesseraClient, id: string) => (await api.request('GET', `/charge/${id}`)).body as any;
const refundRows = async (gw: TestGateway, id: string) =>
  (await gw.db.query('SELECT count(*)::int AS n FROM refunds WHERE transaction_id = $1', [id]))[0].n as number;

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
  test.for(TABLE)('%s', async ([, amount, steps], { gateway, api, expectError }) => {
    const id = await settled(api, amount);
    const amounts: number[] = [];
    for (const step of steps) {
      const res = await refund(api, id, step.amount === undefined ? undefined : { amount: step.amount });
      if (step.code) {
        expectError(res, 400, step.code);
      } else {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        amounts.push(step.refunded_total - amounts.reduce((a, b) => a + b, 0));
      }
      const t = step.code ? await read(api, id) : res.body;
      expect(t).toMatchObject({
        class: 'transaction', id, status: 'SETTLED', amount_settled: amount,
        amount_refunded: step.refunded_total, refunded: step.refunded,
      });
      expect(t.refunds.map((r: any) => r.amount)).toEqual(amounts);
      for (const r of t.refunds) {
        expect(Object.keys(r).sort()).toEqual(['amount', 'created_at', 'id', 'kind', 'status']);
        expect(r).toMatchObject({ status: 'succeeded', kind: 'refund' });
        expect(r.id).toMatch(/^[0-9a-f]{32}$/);
        expect(r.created_at).toMatch(TIMESTAMP);
      }
      expect(await refundRows(gateway, id)).toBe(amounts.length);
    }
  });

  test('refunds keep their order and their own timestamps', async ({ gateway, api }) => {
    const id = await settled(api, 1000);
    const t0 = gateway.clock.now().toISOString();
    await refund(api, id, { amount: 100 });
    gateway.clock.advance(60_000);
    const t1 = gateway.clock.now().toISOString();
    const t = (await refund(api, id, { amount: 200 })).body as any;
    expect(t.refunds.map((r: any) => [r.amount, r.created_at])).toEqual([[100, t0], [200, t1]]);
    expect(new Set(t.refunds.map((r: any) => r.id)).size).toBe(2);
  });

  test('a form-encoded amount works; an empty body refunds the remainder', async ({ gateway, api }) => {
    const id = await settled(api, 900);
    const res = await refundForm(gateway, id, 'amount=250');
    expect(res.statusCode).toBe(200);
    expect(res.json().amount_refunded).toBe(250);
    const rest = await refundForm(gateway, id);
    expect(rest.json()).toMatchObject({ amount_refunded: 900, refunded: true });
  });

  test('a settled bank-account charge can be refunded', async ({ api }) => {
    const id = await settled(api, 4000, bank);
    expect((await refund(api, id, { amount: 1500 })).body).toMatchObject({ payment_method: 'bank_account', amount_refunded: 1500 });
  });
});

describe('refund errors', () => {
  // Absent means "the remainder"; a present amount must be one: empty, null, a decimal, padded or
  // signed text, an object (own toString/valueOf) or a list is refused and refunds nothing.
  test.for<unknown>([0, -5, 1.5, 'abc', '1e3', true, null, '', '  ', '1.00', '1999.0', ' 12 ', '+5', '-5', '0x10', '99999999999999999999',
    { toString: 1 }, { valueOf: 1 }, ['100'], 9_007_199_254_740_993])('59112: amount %j; nothing changes', async (amount, { gateway, api, expectError }) => {
    const id = await settled(api, 1000);
    expectError(await refund(api, id, { amount }), 400, '59112');
    expect(await read(api, id)).toMatchObject({ amount_refunded: 0, refunds: [], refunded: false });
    expect(await refundRows(gateway, id)).toBe(0);
  });

  test.for(['amount=', 'amount=1.00', 'amount[toString]=5', 'amount[]=5&amount[]=6', 'amount=%2012%20'])(
    '59112: form body %s refunds nothing (an empty field is not an absent one)', async (payload, { gateway, api, expectError }) => {
      const id = await settled(api, 1000);
      expectError(await refundForm(gateway, id, payload), 400, '59112');
      expect(await refundRows(gateway, id)).toBe(0);
    });

  test('absent amount (JSON {} or a form without the field) refunds the remainder', async ({ gateway, api }) => {
    const a = await settled(api, 1000);
    expect((await refund(api, a, {})).body).toMatchObject({ amount_refunded: 1000, refunded: true });
    const b = await settled(api, 700);
    expect((await refundForm(gateway, b, 'note=x')).json()).toMatchObject({ amount_refunded: 700, refunded: true });
  });

  test('REFUND02: a DECLINED charge (amount 80, and the always-declining card)', async ({ gateway, api, expectError }) => {
    for (const id of [await settled(api, 80), await settled(api, 500, { ...visa, card_number: '4000000000000002' })]) {
      expect((await read(api, id)).status).toBe('DECLINED');
      expectError(await refund(api, id, { amount: 10 }), 409, 'REFUND02');
      expectError(await refund(api, id), 409, 'REFUND02');
      expect(await refundRows(gateway, id)).toBe(0);
    }
  });

  test('REFUND02: a RETURNED ACH charge (amount 12 on a bank account)', async ({ api, expectError }) => {
    const id = await settled(api, 12, bank);
    expect(await read(api, id)).toMatchObject({ status: 'RETURNED', successful: false });
    expectError(await refund(api, id, { amount: 12 }), 409, 'REFUND02');
    expectError(await refund(api, id), 409, 'REFUND02');
    expect(await read(api, id)).toMatchObject({ amount_refunded: 0, refunds: [] });
  });

  test("69404: unknown id, another merchant's charge, a test charge with the live key", async ({ gateway, api, expectError }) => {
    expectError(await refund(api, 'f'.repeat(32), { amount: 10 }), 404, '69404');
    const id = await settled(api, 1000);
    expectError(await refund(api, id, { amount: 10 }, gateway.other.test.private_key), 404, '69404');
    expectError(await refund(api, id, { amount: 10 }, gateway.merchant.live.private_key), 404, '69404');
    expect(await read(api, id)).toMatchObject({ amount_refunded: 0, refunds: [] });
  });

  test('the public key cannot refund', async ({ gateway, api, expectError }) => {
    const id = await settled(api, 1000);
    expectError(await refund(api, id, { amount: 10 }, gateway.merchant.test.public_key), 403, 'AUTH02');
  });
});

describe('concurrent refunds', () => {
  test('10 parallel refunds of 300 on a 1000 charge: exactly 3 succeed, 900 refunded', async ({ gateway, api, expectError }) => {
    const id = await settled(api, 1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => refund(api, id, { amount: 300 })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 400, 'REFUND01');
    expect(await read(api, id)).toMatchObject({ amount_refunded: 900, refunded: false });
    expect((await read(api, id)).refunds.map((r: any) => r.amount)).toEqual([300, 300, 300]);
    expect(await refundRows(gateway, id)).toBe(3);
    expect(ok.map((r) => r.body.amount_refunded).sort()).toEqual([300, 600, 900]);
  });

  test('parallel full refunds without an amount: exactly one succeeds', async ({ gateway, api }) => {
    const id = await settled(api, 1000);
    const results = await Promise.all(Array.from({ length: 8 }, () => refund(api, id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await read(api, id)).toMatchObject({ amount_refunded: 1000, refunded: true });
    expect(await refundRows(gateway, id)).toBe(1);
  });
});
