// Safe money actions and truthful details in the dashboard (issue 19, points 5 and 6): a refund
// always asks first, and cancelling it moves no money; an empty amount is a full refund only once
// confirmed as one; placeholder payment methods are not shown as methods; amounts carry a currency
// symbol; statuses are words; the test clock advances by calendar months.
// UPDATE_SCREENSHOTS=1 also writes docs/screenshots/refund-confirmation.png.
import { describe, expect, it } from 'vitest';
import { api, charge, gateway, open, page, setupDashboard, shot, signIn } from './dashboard-fixtures.js';

setupDashboard();

describe('dashboard money actions', () => {
  it('asks before refunding: cancelling moves no money, an empty amount refunds the rest only once confirmed', async () => {
    const paid = await charge('4111111111111111', 5000, { description: 'Refund me' });
    expect(paid.status).toBe(200);
    const id = paid.body.id as string;
    await signIn();
    await open(`activity/transactions/${id}`, 'Activity');
    const refunds = page.getByTestId('refunds');
    await expect(refunds.textContent()).resolves.toContain('Up to $50.00 of $50.00');

    // A partial amount: the dialog names it and what remains; Cancel moves nothing.
    await page.getByLabel('Refund amount').fill('12.50');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toMatch(/refunds \$12\.50 of \$50\.00.*\$37\.50 will remain refundable/);
    await shot('refund-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.count()).resolves.toBe(0);
    await page.getByText('Cancelled: nothing was refunded.').waitFor();
    expect((await api(`/charge/${id}`)).body).toMatchObject({ amount_refunded: 0, refunds: [] });

    // Escape is a cancel too.
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    expect((await api(`/charge/${id}`)).body.amount_refunded).toBe(0);

    // The partial refund, confirmed.
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByRole('button', { name: 'Refund $12.50' }).click();
    await refunds.locator('tbody tr').first().waitFor(); // the page drew the refund
    await expect(refunds.locator('tbody tr').first().textContent()).resolves.toContain('$12.50');
    expect((await api(`/charge/${id}`)).body.amount_refunded).toBe(1250);
    // Its state says so, the same on its page and in the list.
    const state = page.getByTestId('transaction-detail').locator('.charge-state');
    await expect(state.textContent()).resolves.toBe('settled · partly refunded $12.50');
    await open('activity/transactions', 'Activity');
    const row = page.getByTestId('transactions-table').locator('tbody tr', { has: page.locator(`a[href$="${id}"]`) });
    await expect(row.locator('td[data-label="Status"]').textContent()).resolves.toBe('settled · partly refunded $12.50');
    await open(`activity/transactions/${id}`, 'Activity');

    // An empty field: the dialog says "full refund" of what remains, and only its button refunds.
    await expect(refunds.textContent()).resolves.toContain('Up to $37.50 of $50.00');
    await page.getByLabel('Refund amount').fill('');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(dialog.textContent()).resolves.toMatch(/all that remains.*Nothing will remain to refund/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api(`/charge/${id}`)).body.amount_refunded).toBe(1250);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm full refund of $37.50' }).click();
    await refunds.locator('tbody tr').nth(1).waitFor(); // the second refund, drawn
    await expect(refunds.locator('tbody').textContent()).resolves.toContain('$37.50');
    expect((await api(`/charge/${id}`)).body.amount_refunded).toBe(5000);
    // Nothing left: no refund form, and the charge reads "refunded" alone.
    await expect(page.getByLabel('Refund amount').count()).resolves.toBe(0);
    await expect(state.textContent()).resolves.toBe('refunded');
    await open('activity/transactions', 'Activity');
    await expect(row.locator('td[data-label="Status"]').textContent()).resolves.toBe('refunded');
  });

  it('refuses more than remains, and nonsense, before asking', async () => {
    const { body } = await charge('4111111111111111', 1000);
    await signIn();
    await open(`activity/transactions/${body.id}`, 'Activity');
    await page.getByLabel('Refund amount').fill('10.01');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('At most $10.00 remains to refund.').waitFor();
    await page.getByLabel('Refund amount').fill('ten');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('The amount is a number such as 5.00.').waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    expect((await api(`/charge/${body.id}`)).body.amount_refunded).toBe(0);
  });
});

describe('dashboard truthful details', () => {
  it('hides placeholder methods, shows amounts with a currency symbol and statuses as words', async () => {
    // A customer created without payment data lists two placeholder methods (spec 2.4).
    const bare = await api('/customers', { method: 'POST', body: { first_name: 'Nobody', last_name: 'Paid', email: 'nobody@example.com' } });
    expect(bare.status).toBe(200);
    expect(bare.body.methods.length).toBeGreaterThan(0);
    expect(bare.body.methods.every((m: any) => m.last_4 === null && m.bank_account_number_last_4 === null)).toBe(true);
    const declined = await charge('4111111111111111', 85); // 73..100 cents are declined
    expect(declined.status).not.toBe(200);
    const paid = await charge('4111111111111111', 123456, { email: 'shopper@example.com' });
    const token = await api('/tokens', { method: 'POST', key: gateway!.publicKey,
      body: { card_owner_name: 'G Hopper', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2035, csc: '123' } });
    const grace = await api('/customers', { method: 'POST', body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.example', token: token.body.id } });
    expect(grace.status).toBe(200);
    const byCustomer = await api('/charge', { method: 'POST', body: { customer_id: grace.body.id, amount: 4321 } });
    expect(byCustomer.status).toBe(200);

    await signIn();
    await open('activity/customers', 'Activity');
    const row = page.getByTestId('customers-table').locator('tbody tr', { hasText: 'Nobody' });
    await expect(row.locator('td[data-label="Payment methods"]').textContent()).resolves.toBe('none');
    await row.getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('dd').filter({ hasText: /^none$/ }).count()).resolves.toBeGreaterThan(0);
    await expect(dialog.textContent()).resolves.not.toMatch(/card_type|method_type|last_4/);
    await page.keyboard.press('Escape');

    await open('activity/transactions', 'Activity');
    const table = page.getByTestId('transactions-table');
    const paidRow = table.locator('tbody tr', { has: page.locator(`a[href$="${paid.body.id}"]`) });
    await expect(paidRow.locator('td[data-label="Amount"]').textContent()).resolves.toBe('$1,234.56');
    await expect(paidRow.locator('td[data-label="Status"] .pill').textContent()).resolves.toBe('settled');
    // Who paid: the name on the card and the email sent, or the stored customer's name, id and email.
    await expect(paidRow.locator('td[data-label="Customer"]').textContent()).resolves.toBe('Test Shopper');
    await expect(paidRow.locator('td[data-label="Email"]').textContent()).resolves.toBe('shopper@example.com');
    const graceRow = table.locator('tbody tr', { has: page.locator(`a[href$="${byCustomer.body.id}"]`) });
    await expect(graceRow.locator('td[data-label="Customer"]').textContent()).resolves.toBe(`Grace Hopper${grace.body.id}`);
    await expect(graceRow.locator('td[data-label="Email"]').textContent()).resolves.toBe('grace@navy.example');
    await expect(table.locator('thead th').allTextContents()).resolves.toEqual(expect.arrayContaining(['Customer', 'Email']));
    const declinedRow = table.locator('tbody tr', { hasText: '$0.85' });
    await expect(declinedRow.locator('td[data-label="Status"] .pill').textContent()).resolves.toBe('declined');
    await expect(table.textContent()).resolves.not.toMatch(/SETTLED|DECLINED/);
    // The status filter's choices are words too, sending the API's codes.
    await expect(page.getByLabel('Status').locator('option').allTextContents()).resolves.toEqual(['Any status', 'settled', 'declined', 'returned']);

    await open(`activity/transactions/${paid.body.id}`, 'Activity');
    const detail = page.getByTestId('transaction-detail');
    await expect(detail.textContent()).resolves.toMatch(/Amount\$1,234\.56/);
    await expect(detail.textContent()).resolves.toMatch(/CVV checknot checked|CVV checkmatched/);
  });

  it('advances the test clock by calendar months', async () => {
    await signIn();
    await open('tools', 'Test tools');
    const clock = page.getByTestId('test-clock');
    const before = (await api('/test_helpers/clock')).body;
    await clock.getByLabel('Advance by').fill('1');
    await clock.getByLabel('Unit').selectOption({ label: 'months' });
    await clock.getByRole('button', { name: 'Advance the clock' }).click();
    await clock.getByText(/Advanced by 1 month\./).waitFor();
    const after = (await api('/test_helpers/clock')).body;
    // One calendar month from the test time it started at (28 to 31 days, the day clamped).
    const from = new Date(before.now);
    const expected = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    const lastDay = new Date(Date.UTC(expected.getUTCFullYear(), expected.getUTCMonth() + 1, 0)).getUTCDate();
    expected.setUTCDate(Math.min(from.getUTCDate(), lastDay));
    expect(new Date(after.now).toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
    const days = (after.offset_ms - before.offset_ms) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
  });
});
