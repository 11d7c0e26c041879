import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type GatewayProcess, basicAuth, launchChromium, startGateway } from './gateway.js';

// Issues 3 and 4: the demo page tokenizes in the browser, the merchant step charges the token
// (or saves it as a customer and charges the customer), and the page shows the transaction.
let server: GatewayProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startGateway();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function tokenize(page: Page, number = '4111 1111 1111 1111') {
  await page.goto(server.url + '/');
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field('Name on card').fill('Ada Lovelace');
  const frame = page.frameLocator('iframe[data-tessera-fields]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill('12' + String(new Date().getFullYear() + 2).slice(2));
  await frame.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Get a card token' }).click();
  await expect.poll(() => page.getByTestId('token-id').textContent()).toMatch(/^[0-9a-f]{10}$/);
}

const api = (path: string) =>
  fetch(server.url + '/api/v1' + path, { headers: { authorization: basicAuth(server.privateKey) } });

test('tokenize, the merchant step charges the token, the page shows the settled transaction', async () => {
  const page = await browser.newPage();
  await tokenize(page);
  await page.getByLabel('Amount in cents').fill('2500');
  await page.getByTestId('charge-token').click();
  await expect.poll(() => page.getByTestId('transaction-status').textContent()).toBe('SETTLED');
  expect(await page.getByTestId('amount-settled').textContent()).toBe('25.00');
  expect(await page.getByTestId('transaction-card').textContent()).toBe('visa XXXXXXXXXXXX1111');
  const id = await page.getByTestId('transaction-id').textContent();
  const res = await api(`/charge/${id}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ id, status: 'SETTLED', amount_settled: 2500, source: 'token' });
  await page.close();
});

test('a declining amount shows 99820 and the recorded transaction', async () => {
  const page = await browser.newPage();
  await tokenize(page);
  await page.getByLabel('Amount in cents').fill('80');
  await page.getByTestId('charge-token').click();
  await expect.poll(() => page.getByTestId('charge-error').textContent()).toMatch(/^99820: /);
  const id = await page.getByTestId('transaction-id').textContent();
  expect((await (await api(`/charge/${id}`)).json()).status).toBe('DECLINED');
  await page.close();
});

test('save as customer, then charge the customer', async () => {
  const page = await browser.newPage();
  await tokenize(page, '5555 5555 5555 4444');
  await page.getByTestId('save-and-charge').click();
  await expect.poll(() => page.getByTestId('transaction-status').textContent()).toBe('SETTLED');
  const customerId = await page.getByTestId('customer-id').textContent();
  const customer = await (await api(`/customers/${customerId}`)).json();
  expect(customer).toMatchObject({ id: customerId, card_type: 'mastercard', last_4: '4444' });
  const txn = await (await api(`/charge/${await page.getByTestId('transaction-id').textContent()}`)).json();
  expect(txn).toMatchObject({ customer_id: customerId, source: 'customer', status: 'SETTLED' });
  await page.close();
});
