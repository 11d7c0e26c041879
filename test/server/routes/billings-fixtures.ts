import { builtInRegistry } from '../../../server/processor/processor.js';
// Shared calls of the recurring-billing tests (plans, subscriptions, billings, scheduled, clock, scheduler).
import { expect } from 'vitest';
import type { KeySet } from '../../../server/domain/merchant/keys.js';
import type { JobDeps } from '../../../server/jobs/scheduler.js';
import type { ApiResponse } from '../../../server/testing/client.js';
import { apiFor } from '../../fixtures.js';
import { Merchant, TestGateway, tokenFor, visa } from '../../helpers/gateway.js';

/** `YYYY-MM-DD HH:MM:SS` (spec 2.1, billings). */
export const BILLING_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const DECLINING_CARD = '4000000000000002';

/**
 * Calls as `m` (default: the gateway's merchant) with its test private key unless a key is given,
 * through the shipped QA client (`apiFor`): answers are the client's `{status, ok, body}`.
 */
export function api(gw: TestGateway, m?: Merchant) {
  const merchant = () => m ?? gw.merchant;
  const key = () => merchant().test.private_key;
  const client = apiFor(gw, merchant().test);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, k = key()): Promise<ApiResponse<any>> =>
    client.request<any>(method, url, payload, { key: k });
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, k = key()) => {
    const res = await call(method, url, payload, k);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  return {
    call,
    ok,
    get: (url: string, k?: string) => call('GET', url, undefined, k),
    post: (url: string, payload: unknown = {}, k?: string) => call('POST', url, payload, k),
    del: (url: string, k?: string) => call('DELETE', url, undefined, k),
    /** A customer whose default method is a card (visa unless another number is given). */
    async customer(body: Record<string, unknown> = {}, card: string = visa.card_number, keys: KeySet = merchant().test) {
      const token = await tokenFor(gw, { ...visa, card_number: card }, keys.public_key);
      return ok('POST', '/customers', { first_name: 'Ada', last_name: 'Lovelace', token, ...body }, keys.private_key);
    },
    plan: (body: Record<string, unknown> = {}, k?: string) =>
      ok('POST', '/plans', { name: 'Gold', frequency: 'monthly', amount: 1500, ...body }, k),
    subscribe: (planId: number, customerId: string, body: Record<string, unknown> = {}, k?: string) =>
      ok('POST', `/plans/${planId}/subscription/${customerId}`, body, k),
    advance: (body: Record<string, unknown>, k?: string) => ok('POST', '/test_helpers/clock/advance', body, k),
    /** Billings of a subscription, oldest first. */
    async billings(subscriptionId: number, k?: string): Promise<any[]> {
      const res = await ok('GET', `/billings?subscription_id=${subscriptionId}&limit=100`, undefined, k);
      return res.list.reverse();
    },
  };
}

/** A fresh merchant (its own test clock) and calls bound to it. */
export async function isolated(gw: TestGateway) {
  const m = await gw.newMerchant();
  return { m, a: api(gw, m) };
}

export const code = (res: ApiResponse<any>) => res.body.errors?.[0]?.code;

export const jobDeps = (gw: TestGateway): JobDeps => ({ db: gw.db, vault: gw.vault, clock: gw.clock, processors: builtInRegistry() });

export const DAY = 86_400_000;
