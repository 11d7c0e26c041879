// The dashboard's Webhooks page (issue 19, point 4) in Chromium against the real gateway and a
// receiver on this machine: add an endpoint, send it a test event (the receiver gets it, signed),
// add a rule connected to it and see a real event arrive, edit and delete; resend a failed
// delivery; reveal and rotate the signing secret.
// UPDATE_SCREENSHOTS=1 also writes docs/screenshots/webhooks.png.
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, charge, open, page, quiet, setupDashboard, shot, signIn } from './dashboard-fixtures.js';

setupDashboard();

interface Received { headers: IncomingHttpHeaders; body: any }
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (s: string) => (text += s)).on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('dashboard webhooks page', () => {
  it('adds an endpoint, sends it a test event, connects a rule that delivers a real event, edits and deletes', async () => {
    await signIn();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await expect(page.getByTestId('endpoints').textContent()).resolves.toContain('No endpoints yet.');

    // An endpoint.
    const add = page.getByRole('form', { name: 'Add an endpoint' });
    await add.getByLabel('Kind').selectOption('webhook');
    await add.getByLabel('URL, email address or phone number').fill(receiverUrl);
    // Attached to nothing for now: the page says so, aloud and above the list, with a one-click way to attach.
    await expect(add.getByLabel(/^Every event/).isChecked()).resolves.toBe(true);
    await add.getByLabel(/^None for now/).check();
    await add.getByRole('button', { name: 'Add the endpoint' }).click();
    const endpoints = page.getByTestId('endpoints-table');
    await endpoints.getByText(receiverUrl).waitFor();
    const [strategy] = (await api('/webhooks/strategies')).body.list;
    expect(strategy).toMatchObject({ mode: 'webhook', url: receiverUrl, rules: [] });
    await expect.poll(() => page.locator('#announce').textContent()).toMatch(/attached to no rule, so it receives no events/);
    const notice = page.getByTestId('unattached');
    await expect(notice.textContent()).resolves.toMatch(new RegExp(`attached to no rule, so it receives no events.*${receiverUrl}`));
    await notice.getByRole('button', { name: `Send every event to ${receiverUrl}` }).waitFor();

    // A test event reaches the receiver, signed, and the page says what the endpoint answered.
    await page.getByRole('button', { name: `Send a test event to ${receiverUrl}` }).click();
    await page.getByTestId('test-result').getByText(/Delivered: the endpoint answered 200/).waitFor();
    const test = received.find((r) => r.body.type === 'test');
    expect(test?.body.data).toMatchObject({ test: true, strategy_id: strategy.id });
    expect(test?.headers['tessera-signature']).toMatch(/v1=/);
    // It is listed with the deliveries, marked as a test.
    const deliveries = page.getByTestId('deliveries-table');
    await deliveries.getByText('test event', { exact: true }).waitFor();
    await expect(deliveries.locator('tbody tr').first().textContent()).resolves.toMatch(new RegExp(`test event${receiverUrl}delivered1200`));

    // A rule for created transactions, connected to the endpoint as it is added.
    const rule = page.getByRole('form', { name: 'Add a rule' });
    await rule.getByLabel('Resource').selectOption('transaction');
    await rule.getByLabel('transaction.created').check();
    await rule.getByLabel(receiverUrl).check();
    await rule.getByRole('button', { name: 'Add the rule' }).click();
    const rules = page.getByTestId('rules-table');
    await rules.getByText('transaction: transaction.created').waitFor();
    await expect(page.getByTestId('unattached').count()).resolves.toBe(0); // attached now
    await expect(rules.locator('td[data-label="Notifies"]').textContent()).resolves.toContain(receiverUrl);
    const [saved] = (await api('/webhooks/rules')).body.list;
    expect(saved).toMatchObject({ event_resource: 'transaction', event_types: ['transaction.created'], strategies: [strategy.id] });
    await shot('webhooks');

    // A charge made from Node arrives at the receiver through the rule.
    const paid = await charge('4111111111111111', 1500);
    await expect.poll(() => received.some((r) => r.body.type === 'transaction.created' && r.body.data?.id === paid.body.id), { timeout: 20_000 }).toBe(true);

    // Disconnect and connect again from the rule's row.
    await page.getByRole('button', { name: `Disconnect ${receiverUrl} from rule ${saved.id.slice(0, 12)}` }).click();
    await rules.getByRole('button', { name: `Connect to rule ${saved.id.slice(0, 12)}` }).waitFor();
    expect((await api(`/webhooks/rules/${saved.id}`)).body.strategies).toEqual([]);
    await rules.getByRole('button', { name: `Connect to rule ${saved.id.slice(0, 12)}` }).click();
    await rules.getByRole('button', { name: /^Disconnect/ }).waitFor();
    expect((await api(`/webhooks/rules/${saved.id}`)).body.strategies).toEqual([strategy.id]);

    // Edit the endpoint's URL in its dialog.
    await page.getByRole('button', { name: `Edit ${receiverUrl}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL, email address or phone number').fill(`${receiverUrl}/v2`);
    await dialog.getByRole('button', { name: 'Save the endpoint' }).click();
    await endpoints.getByText(`${receiverUrl}/v2`).waitFor();
    expect((await api(`/webhooks/strategies/${strategy.id}`)).body.url).toBe(`${receiverUrl}/v2`);

    // Deleting asks first; Cancel keeps it.
    await page.getByRole('button', { name: `Delete ${receiverUrl}/v2` }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api(`/webhooks/strategies/${strategy.id}`)).status).toBe(200);
    await page.getByRole('button', { name: `Delete ${receiverUrl}/v2` }).click();
    await dialog.getByRole('button', { name: 'Delete the endpoint' }).click();
    await page.getByTestId('endpoints').getByText('No endpoints yet.').waitFor();
    expect((await api(`/webhooks/strategies/${strategy.id}`)).status).toBe(404);
  });

  it('a new endpoint receives every event by default; one left alone is attached in one click, reusing the rules', async () => {
    await signIn();
    await open('webhooks', 'Webhooks');
    const resources = (await api('/webhooks/event_types')).body.resources.map((r: any) => r.resource);
    const before = (await api('/webhooks/rules?limit=100')).body.list.length;
    const add = page.getByRole('form', { name: 'Add an endpoint' });
    await add.getByLabel('URL, email address or phone number').fill(`${receiverUrl}/all`);
    await add.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByTestId('endpoints-table').getByText(`${receiverUrl}/all`).waitFor();
    await expect.poll(() => page.locator('#announce').textContent()).toBe(`Endpoint added: it receives every event (${resources.length} rules).`);
    const strategies = (await api('/webhooks/strategies')).body.list;
    const all = strategies.find((s: any) => s.url === `${receiverUrl}/all`);
    expect(all.rules).toHaveLength(resources.length);
    const rules = (await api('/webhooks/rules?limit=100')).body.list;
    expect(rules).toHaveLength(before + resources.length);
    for (const resource of resources) {
      expect(rules.filter((r: any) => r.event_resource === resource && !r.event_types.length && r.strategies.includes(all.id))).toHaveLength(1);
    }
    await expect.poll(() => page.getByTestId('unattached').count()).toBe(0);

    // An email endpoint made with none, then sent every event from the notice: the same rules, no new ones.
    await add.getByLabel('Kind').selectOption('email');
    await add.getByLabel('URL, email address or phone number').fill('ops@example.com');
    await add.getByLabel(/^None for now/).check();
    await add.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByTestId('unattached').getByRole('button', { name: 'Send every event to ops@example.com' }).click();
    await expect.poll(() => page.locator('#announce').textContent()).toBe(`ops@example.com receives every event (${resources.length} rules).`);
    await expect.poll(() => page.getByTestId('unattached').count()).toBe(0);
    const ops = (await api('/webhooks/strategies')).body.list.find((s: any) => s.email_address === 'ops@example.com');
    expect([...ops.rules].sort()).toEqual([...all.rules].sort());
    expect((await api('/webhooks/rules?limit=100')).body.list).toHaveLength(before + resources.length);
    // Leave no endpoint behind for the next tests.
    for (const s of [all, ops]) expect((await api(`/webhooks/strategies/${s.id}`, { method: 'DELETE' })).status).toBe(200);
    await quiet();
  });

  it('lists deliveries and resends a failed one', async () => {
    // A delivery that failed for good takes 31 attempts over days; the list is the API's own, stubbed
    // here to hold one, and the resend goes out as POST /webhooks/deliveries/:id/retry.
    const failed = {
      class: 'webhook_delivery', id: 4242, event_id: 'evt', event_type: 'transaction.created', rule_id: 'r', strategy_id: 's', mode: 'webhook',
      target: 'https://shop.example/hooks', status: 'failed', attempt_count: 31, next_attempt_at: null, last_status_code: 500,
      last_error: 'HTTP 500', delivered_at: null, outbox_id: null, created_at: new Date().toISOString(), attempts: [],
    };
    let retried = 0;
    await page.route('**/api/v1/webhooks/deliveries?**', (route) => route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ list: [retried ? { ...failed, status: 'pending', attempt_count: 31 } : failed], meta: { limit: 20, offset: 0, total_results: 1 } }),
    }));
    await page.route('**/api/v1/webhooks/deliveries/4242/retry', (route) => {
      retried++;
      expect(route.request().method()).toBe('POST');
      return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ ...failed, status: 'pending' }) });
    });
    await signIn();
    await open('webhooks', 'Webhooks');
    const table = page.getByTestId('deliveries-table');
    await expect(table.locator('tbody tr').first().textContent()).resolves.toMatch(/transaction\.created.*failed.*31/);
    await table.getByRole('button', { name: 'Resend delivery 4242 (transaction.created)' }).click();
    await table.getByText('pending').waitFor();
    expect(retried).toBe(1);
    await expect(table.getByRole('button', { name: /Resend/ }).count()).resolves.toBe(0);
    await quiet();
  });

  it('reveals the signing secret only on request, and rotates it after confirming', async () => {
    await signIn();
    await open('webhooks', 'Webhooks');
    const panel = page.getByTestId('webhook-secret');
    const input = panel.getByLabel('Signing secret', { exact: true });
    expect(await input.inputValue()).toBe('');
    await panel.getByRole('button', { name: 'Reveal secret' }).click();
    const { secret } = (await api('/webhooks/secret')).body;
    await expect.poll(() => input.inputValue()).toBe(secret);

    await panel.getByLabel('When rotating, keep the current secret signing for').selectOption('1h');
    await panel.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await api('/webhooks/secret')).body.secret).toBe(secret);
    await panel.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate the secret' }).click();
    await panel.getByText('A new signing secret is in use.').waitFor();
    const fresh = (await api('/webhooks/secret')).body;
    expect(fresh.secret).not.toBe(secret);
    expect(fresh.previous_secret_expires_at).not.toBeNull();
    expect(await input.inputValue()).toBe(fresh.secret);
    await expect(panel.textContent()).resolves.toMatch(/previous secret also signs until/);

    // Hide clears it from the page.
    await panel.getByRole('button', { name: 'Hide secret' }).click();
    expect(await input.inputValue()).toBe('');
  });
});
