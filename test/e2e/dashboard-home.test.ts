// The dashboard's home page, search and CSV exports (issue 19, points 1 to 3) in Chromium against
// the real gateway: the totals and the chart hold the charges made from Node, the search finds a
// charge by its card's last 4 from the keyboard, and the exports download files a CSV parser reads.
// UPDATE_SCREENSHOTS=1 also writes docs/screenshots/{home,search}.png.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, charge, expectRequestFailure, open, page, quiet, rendered, setupDashboard, shot, signIn, submitSignIn } from './dashboard-fixtures.js';

setupDashboard();

let settled: any;
beforeAll(async () => {
  // Today: two successful charges (one on an Amex), one declined (73..100 cents), one partial refund, one customer.
  settled = (await charge('4111111111111111', 2500, { description: 'Blue mug' })).body;
  expect((await charge('378282246310005', 1250, { description: '=1+1 Tea' })).status).toBe(200);
  expect((await charge('4111111111111111', 80)).status).not.toBe(200);
  expect((await api(`/charge/${settled.id}/cancel`, { method: 'POST', body: { amount: 500 } })).status).toBe(200);
  expect((await api('/customers', { method: 'POST', body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' } })).status).toBe(200);
});

describe('dashboard home', () => {
  it('shows today, 7 and 30 days, a chart with the declines, and the latest events', async () => {
    await signIn();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const totals = page.getByTestId('totals');
    await expect(totals.getByTestId('stat-gross-volume').locator('strong').textContent()).resolves.toBe('$37.50');
    await expect(totals.getByTestId('stat-successful').locator('strong').textContent()).resolves.toBe('2');
    await expect(totals.getByTestId('stat-declined').locator('strong').textContent()).resolves.toBe('1');
    await expect(totals.getByTestId('stat-refunds').textContent()).resolves.toMatch(/\$5\.00.*1 refund/);
    await expect(totals.getByTestId('stat-new-customers').locator('strong').textContent()).resolves.toBe('1');

    // The chart: uPlot drew its canvas, with a legend naming the declines; its numbers are in a table and a sentence.
    const chart = page.getByTestId('chart');
    await chart.locator('canvas').first().waitFor();
    const size = await chart.locator('canvas').first().evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height }));
    expect(size.w).toBeGreaterThan(200);
    expect(size.h).toBeGreaterThan(100);
    await expect(chart.locator('.u-legend').textContent()).resolves.toMatch(/Successful.*Declined.*Gross volume/);
    await expect(page.getByTestId('chart-summary').textContent()).resolves
      .toMatch(/\$37\.50 gross volume, 2 successful charges, 1 declined charge, \$5\.00 refunded/);
    // The chart is the chosen period's (7 days by default): a row per day.
    await page.getByRole('heading', { level: 2, name: 'Charges per day · 7 days' }).waitFor();
    const rows = page.getByTestId('chart-table').locator('tbody tr');
    await expect(rows.count()).resolves.toBe(7);
    const today = rows.first();
    await expect(today.locator('td[data-label="Declined"]').textContent()).resolves.toBe('1');
    await expect(today.locator('td[data-label="Gross volume"]').textContent()).resolves.toBe('$37.50');
    // The canvas is decoration for screen readers: the figure's caption says what it shows.
    await expect(chart.locator('[data-chart]').getAttribute('aria-hidden')).resolves.toBe('true');

    await expect(page.getByTestId('recent-events').locator('li').count()).resolves.toBeGreaterThan(0);
    await shot('home');

    // The period buttons: today and 30 days hold the same (everything happened today).
    await page.getByRole('link', { name: '30 days' }).click();
    await page.getByRole('heading', { level: 2, name: '30 days', exact: true }).waitFor();
    await expect(totals.getByTestId('stat-successful').locator('strong').textContent()).resolves.toBe('2');
    await chart.locator('canvas').first().waitFor(); // drawn again with the library already loaded
    // The chart follows the period: 30 days, then today alone.
    await page.getByRole('heading', { level: 2, name: 'Charges per day · 30 days' }).waitFor();
    await expect(rows.count()).resolves.toBe(30);
    await page.getByRole('link', { name: 'Today' }).click();
    await page.getByRole('heading', { level: 2, name: 'Charges per day · Today' }).waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(page.getByTestId('chart-summary').textContent()).resolves.toMatch(/^Today: \$37\.50 gross volume, 2 successful charges/);
    await expect(totals.getByTestId('stat-gross-volume').locator('strong').textContent()).resolves.toBe('$37.50');
    await chart.locator('canvas').first().waitFor();
  });

  it('says so when the chart library does not load, and keeps its numbers readable', async () => {
    expectRequestFailure(/\/dashboard\/vendor\/uPlot\.iife\.min\.js$/);
    await page.route('**/dashboard/vendor/uPlot.iife.min.js', (route) => route.abort('connectionrefused'));
    await signIn();
    const chart = page.getByTestId('chart');
    await chart.getByText(/The chart could not be drawn \(the chart library did not load\)/).waitFor();
    await expect(chart.locator('canvas').count()).resolves.toBe(0);
    await expect(page.getByTestId('chart-table').locator('tbody tr').count()).resolves.toBe(7);
    await expect(page.getByTestId('chart-summary').textContent()).resolves.toMatch(/\$37\.50 gross volume/);
  });
});

describe('dashboard search', () => {
  it('finds a charge by the last 4 of its card as you type, keyboard only', async () => {
    await signIn();
    const box = page.getByRole('combobox', { name: 'Search' });
    // One input event (a slow machine typing key by key would show the results of '0', '00'... first).
    await box.fill('0005'); // the Amex's last 4
    const list = page.getByRole('listbox', { name: 'Search results' });
    const options = list.getByRole('option');
    await options.filter({ hasText: '$12.50' }).first().waitFor();
    await quiet();
    await expect(options.first().textContent()).resolves.toMatch(/transaction/);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await shot('search');

    // Down selects the first result (aria-activedescendant), Escape closes, Down opens again, Enter goes.
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp'); // wraps round to the last
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.last().getAttribute('id'));
    await page.keyboard.press('Escape');
    await expect(list.isHidden()).resolves.toBe(true);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    // The first Escape keeps what was typed (a search box's own Escape cleared it, and its input
    // event emptied the results 200 ms later: on a slow machine the next keys found nothing).
    expect(await box.inputValue()).toBe('0005');
    await page.keyboard.press('ArrowDown'); // opens the list again
    await page.keyboard.press('ArrowDown'); // the first result
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('transaction-detail');
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toMatch(/\*+0005|0005/);
    await expect(detail.textContent()).resolves.toContain('$12.50');

    // Amounts carry the currency sign, and a partly refunded charge says so.
    await box.fill('25.00');
    await options.filter({ hasText: '$25.00 settled · partly refunded $5.00' }).first().waitFor();
    await expect(list.textContent()).resolves.not.toMatch(/(^|[^$\d,])25\.00/);

    // A customer by email opens its record; nonsense says so.
    await box.fill('grace@');
    await list.getByRole('option', { name: /Grace/ }).click();
    await expect(page.getByRole('dialog').textContent()).resolves.toContain('Hopper');
    await page.keyboard.press('Escape');
    await box.fill('zzzz-nothing');
    await list.getByText(/Nothing matches/).waitFor();
    // Escape closes the list, a second one clears the box and its results: Down opens nothing.
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('zzzz-nothing');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');
    await page.keyboard.press('ArrowDown');
    await expect(list.isHidden()).resolves.toBe(true);
    await box.fill('zzzz-nothing');
    await list.getByText(/Nothing matches/).waitFor();
    await quiet();

    // Signing out leaves nothing of the search on the page.
    await box.fill('grace@');
    await list.getByRole('option', { name: /Grace/ }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await expect(page.locator('#search-results').textContent()).resolves.toBe('');
    expect(await page.locator('#search-input').inputValue()).toBe('');
  });

  it('typing in the search box while the first page loads keeps the focus there', async () => {
    // The home page's data is held back until the user has typed: its late render must not move
    // the focus to its heading (which closed the results and sent the keys elsewhere).
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/api/v1/dashboard/summary*', async (route) => { await held; await route.continue(); });
    await submitSignIn();
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill('0005');
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
    release();
    await rendered();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('search-input');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('search-result-0');
    await quiet();
  });
});

describe('dashboard exports', () => {
  /** Clicks an export button and parses the file the browser saved. */
  async function exported(testid: string) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
    const text = await readFile((await download.path())!, 'utf8');
    return { name: download.suggestedFilename(), rows: parse(text, { columns: true }) as Record<string, string>[] };
  }

  it('downloads the filtered transactions, the customers and the invoices as CSV', async () => {
    await signIn();
    await open('activity/transactions?status=SETTLED', 'Activity');
    const txns = await exported('export-transactions');
    expect(txns.name).toMatch(/^transactions-test-\d{4}-\d{2}-\d{2}\.csv$/);
    // The filter applies: the two settled charges, not the declined one.
    expect(txns.rows.length).toBe(2);
    const mug = txns.rows.find((r) => r.description === 'Blue mug')!;
    expect(mug).toMatchObject({ id: settled.id, amount_cents: '2500' });
    // A description that a spreadsheet would run as a formula comes out escaped.
    expect(txns.rows.find((r) => r.description?.includes('Tea'))!.description).toBe("'=1+1 Tea");
    await page.locator('.export-status', { hasText: /Saved transactions-test-/ }).waitFor();

    await open('activity/customers', 'Activity');
    const customers = await exported('export-customers');
    expect(customers.name).toMatch(/^customers-test-.*\.csv$/);
    expect(customers.rows.map((r) => r.email)).toContain('grace@example.com');

    await open('activity/invoices', 'Activity');
    const invoices = await exported('export-invoices');
    expect(invoices.name).toMatch(/^invoices-test-.*\.csv$/);
    expect(invoices.rows).toEqual([]);
  });
});
