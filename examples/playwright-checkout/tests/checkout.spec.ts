import { test as tessera, expect, fillCard, type Card, type CardInput } from 'tessera-gateway/playwright';
import { startShop } from '../shop.mjs';

// Every worker gets its own real Tessera gateway (in memory, started in well under a second once
// warm) and its own shop in front of it; every test starts from an empty test environment.
const test = tessera.extend<{}, { shop: { url: string } }>({
  shop: [
    async ({ gateway }, use) => {
      const shop = await startShop(gateway);
      await use(shop);
      await shop.close();
    },
    { scope: 'worker' },
  ],
});

test.beforeEach(async ({ page }) => {
  page.on('pageerror', (err) => {
    throw err;
  });
});

async function pay(page: import('@playwright/test').Page, card: Card | CardInput, opts: { email?: string } = {}) {
  if (opts.email) await page.getByLabel('Email for the receipt').fill(opts.email);
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  // The card number, expiration date and security code are in the gateway's frame (hosted fields).
  await fillCard(page, card);
  await page.getByLabel('ZIP code').fill('94107');
  await page.getByRole('button', { name: /^Pay/ }).click();
}

test('a Visa payment settles and the receipt is in the outbox', async ({ page, shop, gateway, cards, waitForEmail }) => {
  await page.goto(`${shop.url}/?amount=1999`);
  await pay(page, cards.visa, { email: 'ada@example.com' });

  const result = page.getByTestId('result');
  await expect(result).toHaveText(/^Paid\. Transaction [0-9a-f]{32}$/);
  const transactionId = (await result.getAttribute('data-transaction-id'))!;

  // What the gateway recorded, read with the private key.
  const { body: txn } = await gateway.request('GET', `/charge/${transactionId}`);
  expect(txn).toMatchObject({ status: 'SETTLED', successful: true, amount_settled: 1999, card_type: 'visa' });

  const email = await waitForEmail({ to: 'ada@example.com' });
  expect(email.subject).toContain('receipt');
  expect(email.text).toContain('$19.99');
  expect(email.text).toContain('1111');
});

test('the declined test card shows a decline (99820)', async ({ page, shop, gateway, cards }) => {
  await page.goto(shop.url);
  await pay(page, cards.declined);
  await expect(page.getByTestId('result')).toHaveText(/^Payment declined: .+ \(99820\)$/);

  const { body } = await gateway.request('GET', '/transactions');
  expect(body.list).toHaveLength(1);
  expect(body.list[0]).toMatchObject({ status: 'DECLINED', successful: false, amount_failed: 1999 });
});

test('an amount from 73 to 100 cents is declined on any card', async ({ page, shop, cards }) => {
  await page.goto(`${shop.url}/?amount=73`);
  await pay(page, cards.mastercard);
  await expect(page.getByTestId('result')).toHaveText(/Payment declined: .*\(99820\)/);
});

test('a mistyped number is refused in the browser before any request', async ({ page, shop, cards }) => {
  const tokenRequests: string[] = [];
  page.on('request', (r) => r.url().includes('/tokens') && tokenRequests.push(r.url()));
  await page.goto(shop.url);
  await pay(page, { number: '4111 1111 1111 1112' });
  await expect(page.getByTestId('result')).toHaveText(/Check your card details: .*\(11112\)/);
  expect(tokenRequests).toEqual([]);
});

test('tokenize in the page, charge from the test with the private key', async ({ page, shop, cards, charge }) => {
  await page.goto(shop.url);
  await fillCard(page, cards.amex);
  // The page's card fields can be driven directly: here the test plays the shop's server.
  const token = await page.evaluate(
    (extra) =>
      new Promise<string>((resolve, reject) =>
        (window as any).cardFields.tokenize(extra, (r: any) => (r.errors ? reject(new Error(r.errors[0].code)) : resolve(r.id))),
      ),
    { card_owner_name: 'Grace Hopper' },
  );

  const paid = await charge(token, 2500);
  expect(paid.ok).toBe(true);
  expect(paid.transaction).toMatchObject({ status: 'SETTLED', amount_settled: 2500, card_type: 'amex' });

  const again = await charge(token, 2500); // a token works once
  expect(again.ok).toBe(false);
  expect(again.errors[0].code).toBe('69201');
});

test('the payment is announced by a signed webhook', async ({ page, shop, gateway, cards, webhooks }) => {
  // What the merchant configures once: a rule (which events) and a strategy (where to send them).
  const rule = await gateway.request('POST', '/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
  const strategy = await gateway.request('POST', '/webhooks/strategies', { mode: 'webhook', url: webhooks.url });
  await gateway.request('POST', `/webhooks/rules/${rule.body.id}/strategies`, { strategy_id: strategy.body.id });

  await page.goto(`${shop.url}/?amount=4200`);
  await pay(page, cards.visa);
  await expect(page.getByTestId('result')).toHaveText(/^Paid\./);

  const hook = await webhooks.waitFor((w) => w.json?.type === 'transaction.created', { timeout: 20_000 });
  expect(hook.json.data).toMatchObject({ amount_settled: 4200, status: 'SETTLED' });
  expect(hook.headers['tessera-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
});

test.describe('a merchant that checks CVV', () => {
  // Applied after the reset that starts every test; the worker's gateway is shared.
  test.use({ tesseraSettings: { cvv_check: true } });

  test('the CVV-failure test card is refused (CPCVV2) and the shopper can retry', async ({ page, shop, cards }) => {
    await page.goto(shop.url);
    await pay(page, cards.cvvFailure);
    await expect(page.getByTestId('result')).toHaveText(/Payment declined: .*\(CPCVV2\)/);

    await pay(page, cards.visa);
    await expect(page.getByTestId('result')).toHaveText(/^Paid\./);
  });
});
