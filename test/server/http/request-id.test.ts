import { randomBytes } from 'node:crypto';
import { buildApp } from '../../../server/app.js';
import { ManualClock } from '../../../server/clock.js';
import { Vault } from '../../../server/vault.js';
import { basic, expect, test } from '../../fixtures.js';

// Issue 15.9: every answer carries X-Request-Id, unique across nodes and restarts (a random UUID),
// or the caller's own when it is sane. The log lines carry it as reqId (test/proof/operations.test.ts).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test.for([
  ['a 200', { url: '/healthz' }, 200],
  ['a 401', { url: '/api/v1/transactions' }, 401],
  ['a 404', { url: '/no/such/thing' }, 404],
  ['a validation error', { method: 'POST' as const, url: '/api/v1/charge', payload: '{"amount":', headers: { 'content-type': 'application/json'} }, 400],
  ['an undecodable URL', { url: '/api/v1/charge/%E0%A4%A' }, 400],
] as const)('%s carries a random UUID X-Request-Id', async ([, req, status], { gateway: gw }) => {
  const headers = 'headers' in req ? { ...req.headers, ...basic(gw.merchant.test.private_key) } : undefined;
  const res = await gw.app.inject({ ...req, headers });
  expect(res.statusCode).toBe(status);
  expect(res.headers['x-request-id']).toMatch(UUID);
});

test('ids differ between requests, and between two gateways (restarts and other nodes do not count from 1 again)', async ({ gateway: gw }) => {
  const ids = new Set<string>();
  for (let i = 0; i < 20; i++) ids.add(String((await gw.app.inject({ url: '/healthz' })).headers['x-request-id']));
  const other = await buildApp({ db: gw.db, vault: new Vault(randomBytes(32)), clock: new ManualClock() });
  try {
    ids.add(String((await other.inject({ url: '/healthz' })).headers['x-request-id']));
  } finally {
    await other.close();
  }
  expect(ids.size).toBe(21);
});

test.for<[string, string]>([
  ['a proxy trace id', 'trace-7f3a9c01'],
  ['a UUID', '0e5c1f7a-4b2d-4c8e-9f10-123456789abc'],
  ['128 printable characters', 'x'.repeat(128)],
])('an incoming X-Request-Id of sane form (%s) is kept and echoed', async ([, id], { gateway: gw }) => {
  const res = await gw.app.inject({ url: '/api/v1/transactions', headers: { ...basic(gw.merchant.test.private_key), 'x-request-id': id } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['x-request-id']).toBe(id);
});

test.for<[string, string]>([
  ['129 characters', 'x'.repeat(129)],
  ['a space', 'a b'],
  ['a control character', 'a\u0007b'],
  ['non-ASCII', 'réf-1'],
  ['empty', ''],
])('an incoming X-Request-Id with %s is replaced by a UUID', async ([, id], { gateway: gw }) => {
  const res = await gw.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['x-request-id']).toMatch(UUID);
});
