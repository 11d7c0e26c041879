import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SaleRequest } from '../../../server/processor/connector.js';
import { authorizenet } from '../../../server/processor/connectors/authorizenet/index.js';

// Opt-in: the connector against Authorize.Net's real sandbox (apitest.authorize.net). Skipped unless
// AUTHNET_LOGIN_ID and AUTHNET_TRANSACTION_KEY are set (a free sandbox account's credentials; the
// lookups also need its Transaction Details API turned on). docs/decisions/authorizenet.md says how.

const LOGIN = process.env.AUTHNET_LOGIN_ID;
const KEY = process.env.AUTHNET_TRANSACTION_KEY;
const live = !!LOGIN && !!KEY;

describe.skipIf(!live)('Authorize.Net sandbox', () => {
  const anet = authorizenet.create(
    { connector: 'authorizenet', settings: { login_id: LOGIN ?? '', sandbox: true }, secrets: { transaction_key: KEY ?? '' } },
    { fetch: globalThis.fetch },
  );
  const ctx = () => ({ signal: AbortSignal.timeout(25_000) });
  const reference = () => `ts_${Date.now().toString(36)}${randomInt(1e6).toString(36)}`.slice(0, 20);
  // An amount of its own each run (cents 1-99 over $1-$49): the duplicate check never trips on a rerun.
  const amount = () => 100 * randomInt(1, 50) + randomInt(1, 100);
  const sale = (over: Partial<SaleRequest> = {}): SaleRequest => ({
    reference: reference(), amount: amount(), currency: 'USD', payerIp: '203.0.113.5', description: 'Tessera sandbox test',
    instrument: {
      kind: 'card', number: '4111111111111111', expMonth: 12, expYear: new Date().getFullYear() + 2, csc: '900', holder: 'Sandbox Tester',
      address: { line1: '1 Main St', line2: null, city: 'Bellevue', state: 'WA', zip: '98004', country: 'US' },
    },
    customer: { id: 'cus_sandbox', email: 'sandbox@example.com', firstName: null, lastName: null, company: null },
    ...over,
  });

  it('a card sale is approved, found by its id and by its reference, then voided', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    expect(r.outcome, r.message ?? '').toBe('approved');
    const byId = await anet.lookup({ reference: s.reference, processorId: r.processorId, createdAt: new Date(), amount: s.amount }, ctx());
    expect(byId).toMatchObject({ found: true, result: { outcome: 'approved' } });
    const byRef = await anet.lookup({ reference: s.reference, processorId: null, createdAt: new Date(), amount: s.amount }, ctx());
    expect(byRef).toMatchObject({ found: true, result: { processorId: r.processorId } });
    const v = await anet.void({
      reference: reference(), amount: s.amount, currency: 'USD',
      sale: { reference: s.reference, processorId: r.processorId!, amount: s.amount, instrument: { kind: 'card', last4: '1111', expMonth: 12, expYear: 2030 } },
    }, ctx());
    expect(v.outcome, v.message ?? '').toBe('approved');
  }, 120_000);

  it('a decline (ZIP 46282) is declined with the processor\'s text', async () => {
    const s = sale();
    const r = await anet.sale({ ...s, instrument: { ...s.instrument, address: { ...(s.instrument as { address: object }).address, zip: '46282' } } as SaleRequest['instrument'] }, ctx());
    expect(r).toMatchObject({ outcome: 'declined', reasonCode: '2' });
  }, 60_000);

  it('a refund of an unsettled sale is refused with reason 54', async () => {
    const s = sale();
    const r = await anet.sale(s, ctx());
    const f = await anet.refund({
      reference: reference(), amount: 100, currency: 'USD',
      sale: { reference: s.reference, processorId: r.processorId!, amount: s.amount, instrument: { kind: 'card', last4: '1111', expMonth: 12, expYear: 2030 } },
    }, ctx());
    expect(f).toMatchObject({ outcome: 'invalid', reasonCode: '54', notSettled: true });
  }, 60_000);

  it('an eCheck sale is approved', async () => {
    const r = await anet.sale(sale({
      amount: randomInt(100, 9_900),
      instrument: { kind: 'bank', routing: '121042882', account: String(randomInt(1e8, 1e9)), type: 'checking', holder: 'Sandbox Tester', entryClass: 'WEB' },
    }), ctx());
    expect(r.outcome, r.message ?? '').toBe('approved');
  }, 60_000);

  it('a reference never sent is not found', async () => {
    expect(await anet.lookup({ reference: reference(), processorId: null, createdAt: new Date(), amount: 100 }, ctx())).toEqual({ found: false });
  }, 120_000);

  it('wrong credentials are invalid (E00007)', async () => {
    const wrong = authorizenet.create(
      { connector: 'authorizenet', settings: { login_id: LOGIN ?? '', sandbox: true }, secrets: { transaction_key: '0000000000000000' } },
      { fetch: globalThis.fetch },
    );
    expect(await wrong.sale(sale(), ctx())).toMatchObject({ outcome: 'invalid', reasonCode: 'E00007' });
  }, 60_000);
});
