// Issue 16, items 8 and 9: a receipt on request goes to the charge's customer's email when the body
// names no address, and an invoice may be an amount instead of line items. Each request goes both
// ways the clients send it: form-encoded (the PHP library) and JSON.
import { Body, ENCODINGS, Encoding, Call, errorOf, test } from './compat-fixtures.js';
import { Merchant, TestGateway, basic, describe, expect, tokenFor, visa } from '../../fixtures.js';

const post = (call: Call, url: string, body: Body, m: Merchant, enc: Encoding = 'json') => call('POST', url, body, m, enc);

async function customerCharge(call: Call, gw: TestGateway, m: Merchant, customer: Body) {
  const token = await tokenFor(gw, visa, m.test.public_key);
  const c = await post(call, '/customers', { first_name: 'Ada', token, ...customer }, m);
  expect(c.statusCode, c.body).toBe(200);
  const charge = await post(call, '/charge', { customer_id: c.json().id, amount: 1200, send_receipt: 'false' }, m);
  expect(charge.statusCode, charge.body).toBe(200);
  return { customer: c.json(), charge: charge.json() };
}

describe('POST /charge/:id/receipt without email_address (item 8)', () => {
  test.for(ENCODINGS)('%s: goes to the charge\'s customer\'s email, as the charge\'s own receipt does', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const { customer, charge } = await customerCharge(call, gw, m, { email: 'ada@example.com' });
    const res = await post(call, `/charge/${charge.id}/receipt`, { receipt_type: 'email' }, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ class: 'receipt', receipt_type: 'email', email_address: 'ada@example.com', transaction_id: charge.id });
    const empty = await post(call, `/charge/${charge.id}/receipt`, {}, m, enc);
    expect(empty.json().email_address).toBe('ada@example.com');
    // A named address still wins.
    const named = await post(call, `/charge/${charge.id}/receipt`, { email_address: 'books@example.com' }, m, enc);
    expect(named.json().email_address).toBe('books@example.com');
    // The same address a customer charge with send_receipt uses.
    const auto = await post(call, '/charge', { customer_id: customer.id, amount: 1300, send_receipt: 'true' }, m, enc);
    expect(auto.json().receipt).toMatchObject({ due: true, email_address: 'ada@example.com' });
    // The customer's current email: a change is followed.
    await post(call, `/customers/${customer.id}`, { email: 'lovelace@example.com' }, m, enc);
    expect((await post(call, `/charge/${charge.id}/receipt`, {}, m, enc)).json().email_address).toBe('lovelace@example.com');
  });

  test.for(ENCODINGS)('%s: 69005 when there is no address to fall back on', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const { charge } = await customerCharge(call, gw, m, {});
    expect(errorOf(await post(call, `/charge/${charge.id}/receipt`, {}, m, enc))).toEqual({ status: 400, code: '69005' });
    const token = await tokenFor(gw, visa, m.test.public_key);
    const byToken = (await post(call, '/charge', { token, amount: 500 }, m)).json();
    expect(errorOf(await post(call, `/charge/${byToken.id}/receipt`, {}, m, enc))).toEqual({ status: 400, code: '69005' });
  });

  test.for(ENCODINGS)('%s: a deleted customer: the email recorded on the charge (the charge still shows it)', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const gone = await customerCharge(call, gw, m, { email: 'gone@example.com' });
    await gw.app.inject({ method: 'DELETE', url: `/api/v1/customers/${gone.customer.id}`, headers: basic(m.test.private_key) });
    const res = await post(call, `/charge/${gone.charge.id}/receipt`, {}, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ receipt_type: 'email', email_address: 'gone@example.com' });
  });
});

// The customer fields spec 4.11 lists, and an amount.
const INVOICE: Body = {
  customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_email: 'ada@example.com',
  customer_address_1: '12 St James Square', customer_city: 'London', customer_state: 'NY', customer_zip: '10001',
  customer_company: 'Analytical Engines', customer_phone: '+44 20 7946 0000', amount: 4599,
};

describe('POST /invoices with an amount and no line items (item 9)', () => {
  test.for(ENCODINGS)('%s: one line of that amount', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    const res = await post(call, '/invoices', INVOICE, m, enc);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'unpaid', amount: 4599, balance: 4599, customer_first_name: 'Ada', customer_email: 'ada@example.com',
      items: [{ description: 'Amount due', quantity: 1, unit_amount: 4599, amount: 4599 }],
    });
    const described = await post(call, '/invoices', { ...INVOICE, description: 'Lesson, March' }, m, enc);
    expect(described.json().items).toEqual([{ description: 'Lesson, March', quantity: 1, unit_amount: 4599, amount: 4599 }]);
    // An update may send an amount alone too.
    const updated = await post(call, `/invoices/${res.json().id}`, { amount: 5000 }, m, enc);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ amount: 5000, items: [{ unit_amount: 5000 }] });
  });

  test.for(ENCODINGS)('%s: a bad amount, or one that is not the items\' total, is refused', async (enc, { gateway: gw, call }) => {
    const m = await gw.newMerchant();
    for (const amount of [0, -5, '12.50', 'abc', '']) {
      expect(errorOf(await post(call, '/invoices', { ...INVOICE, amount }, m, enc)), String(amount)).toEqual({ status: 400, code: 'REQ01' });
    }
    const { amount: _, ...noAmount } = INVOICE;
    const none = await post(call, '/invoices', noAmount, m, enc);
    expect(errorOf(none)).toEqual({ status: 400, code: 'REQ01' });
    expect(none.json().errors[0].message).toMatch(/items .* or amount required/);
    const json = { ...INVOICE, items: [{ description: 'x', quantity: 2, unit_amount: 100 }] };
    expect(errorOf(await post(call, '/invoices', { ...json, amount: 201 } as any, m))).toEqual({ status: 400, code: 'REQ01' });
    const matching = await post(call, '/invoices', { ...json, amount: 200 } as any, m);
    expect(matching.statusCode, matching.body).toBe(200);
    expect(matching.json().amount).toBe(200);
  });
});
