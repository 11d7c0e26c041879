import { afterAll, beforeAll, expect, test } from 'vitest';
import { RunningTessera, startTessera } from '../../../server/start.js';
import { visa } from '../../helpers/gateway.js';

// The gateway as `tessera serve` runs it: the background loop completes an account-updater review
// once it falls due on the merchant's clock; here the test clock is moved past the review time and
// nothing reads the batch, so only the loop can have written the new dates.

let gw: RunningTessera;
beforeAll(async () => {
  gw = await startTessera({ storage: 'memory', port: 0, warn: () => {}, notify: { intervalMs: 50 } });
});
afterAll(() => gw?.close());

const call = async (method: string, path: string, body: unknown, key = gw.privateKey!) => {
  const res = await fetch(`${gw.url}/api/v1${path}`, {
    method, headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

test('the review completes in the background loop after the test clock passes its review time', async () => {
  const token = (await call('POST', '/tokens', visa, gw.publicKey!)).body.id;
  const customer = (await call('POST', '/customers', { token })).body;
  const methodId = customer.default_method_id;
  const batch = await call('POST', '/tokens/update', { payment_methods: { 0: { payment_id: methodId, card_exp_month: 5, card_exp_year: 2034 } } });
  expect(batch.status).toBe(200);
  expect(batch.body.status).toBe('received');

  const advanced = await call('POST', '/test_helpers/clock/advance', { minutes: 2 });
  expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
  const read = async () =>
    (await gw.db.query('SELECT card_exp_month, card_exp_year FROM payment_methods WHERE id = $1', [methodId]))[0];
  for (let i = 0; i < 100 && (await read()).card_exp_month !== 5; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await read()).toEqual({ card_exp_month: 5, card_exp_year: 2034 });
  const [head] = await gw.db.query('SELECT status, applied_count FROM account_updates WHERE id = $1', [batch.body.id]);
  expect(head).toEqual({ status: 'completed', applied_count: 1 });
});
