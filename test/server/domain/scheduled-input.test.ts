import { describe, expect, it } from 'vitest';
import { readScheduledInput } from '../../../server/domain/billing/scheduled.js';
import { ScheduledFields } from '../../../server/schemas/scheduled.js';
import { refusal as refusalOf } from './refusal.js';

// POST /scheduled_transactions' body read once, at the edge, into the typed ScheduledInput.

const now = new Date('2026-06-01T12:00:00Z');
const read = (body: Record<string, unknown>) => readScheduledInput(ScheduledFields.read(body), now);

const refusal = (body: Record<string, unknown>) => refusalOf(() => read(body));

describe('readScheduledInput', () => {
  it('reads a schedule for a stored customer, payer fields by their 2.7 names (phone as phone_number)', () => {
    expect(read({
      customer_id: 'c1', method_id: 'm1', amount: '1500', bill_on: '2026-06-02T09:00:00Z', description: ' Rent ',
      metadata: { unit: 4 }, send_receipt: 'no', email_address: 'ada@example.com', phone: '+15550100', receipt_template_id: 3,
    })).toEqual({
      customerId: 'c1', token: null, cvv: undefined, csc: undefined, methodId: 'm1', chargeBankAccount: undefined,
      amount: 1500, billOn: '2026-06-02', description: 'Rent', metadata: { unit: 4 }, sendReceipt: false,
      email: 'ada@example.com', receiptTemplateId: '3',
      payer: {
        company: null, website: null, address_1: null, address_2: null, city: null, state: null, zip: null,
        phone_number: '+15550100', fax_number: null,
      },
    });
  });

  it('reads a schedule for a token, keeping its security code for the customer it becomes', () => {
    expect(read({ token: 't1', amount: 5, bill_on: '2026-06-01', cvv: 123 })).toMatchObject({
      customerId: null, token: 't1', cvv: 123, amount: 5, billOn: '2026-06-01',
    });
  });

  it.each([
    [{ amount: 5, bill_on: '2026-06-02' }, '48291'],
    [{ token: 't1', bill_on: '2026-06-02' }, '69002'],
    [{ customer_id: 'c1', amount: 0, bill_on: '2026-06-02' }, '99819'],
    [{ token: 't1', amount: 'five', bill_on: '2026-06-02' }, '59112'],
    [{ customer_id: 'c1', amount: 5, bill_on: '2026-06-02', email_address: 'nope' }, '69006'],
  ])('refuses %j with %s', (body, code) => {
    expect(refusal(body).code).toBe(code);
  });

  it.each([
    [{ amount: 5, bill_on: '2026-06-02' }, '48291', 'customer_id missing'],
    [{ customer_id: 'c1', bill_on: '2026-06-02' }, '48291', 'amount missing'],
    [{ bill_on: '2026-06-02' }, '48291', 'parameters missing (customer_id, amount)'],
    [{ token: 't1', amount: '', bill_on: '2026-06-02' }, '69002', 'amount missing'],
  ])('%j: %s names only what is missing (%s)', (body, code, message) => {
    expect(refusal(body)).toEqual({ code, message });
  });

  it.each([
    [{ bill_on: '2026-05-31' }, 'bill_on must be today (2026-06-01, UTC) or later'],
    [{ bill_on: 'soon' }, 'bill_on must be a date, YYYY-MM-DD'],
    [{ bill_on: '2026-06-02', send_receipt: 'maybe' }, 'send_receipt must be true or false'],
    [{ bill_on: '2026-06-02', fax: 'f'.repeat(33) }, 'fax_number must be at most 32 characters'],
    [{ bill_on: '2026-06-02', metadata: { note: 'x'.repeat(8200) } }, 'metadata must be at most 8192 characters as JSON'],
  ])('refuses %j with 400 REQ01', (extra, message) => {
    expect(refusal({ customer_id: 'c1', amount: 5, ...extra })).toEqual({ code: 'REQ01', message });
  });

  it('reads a field sent blank as blank: its older name is read only when the field was not sent', () => {
    const base = { customer_id: 'c1', amount: 5, bill_on: '2026-06-02' };
    expect(read({ ...base, phone_number: '', phone: '+15551234567' }).payer.phone_number).toBeNull();
    expect(read({ ...base, phone_number: '', phone: {} }).payer.phone_number).toBeNull();
    expect(read({ ...base, phone: '+15551234567' }).payer.phone_number).toBe('+15551234567');
    expect(read({ ...base, fax_number: null, fax: '+15557654321' }).payer.fax_number).toBe('+15557654321');
  });
});
