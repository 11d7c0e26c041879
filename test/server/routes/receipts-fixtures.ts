// Shared calls of the receipt, template and notify tests.
import { expect } from 'vitest';
import type { KeySet } from '../../../server/domain/merchant/keys.js';
import type { ApiResponse } from '../../../server/testing/client.js';
import { apiFor } from '../../fixtures.js';
import { TestGateway, tokenFor, visa } from '../../helpers/gateway.js';

/**
 * Calls as the gateway's merchant (its test private key unless a key is given), through the shipped
 * QA client (`apiFor`): answers are the client's `{status, ok, body}`, `body` parsed JSON.
 */
export function calls(gw: TestGateway) {
  const key = () => gw.merchant.test.private_key;
  const client = apiFor(gw);
  return {
    post: (url: string, payload: unknown = {}, k = key(), headers: Record<string, string> = {}): Promise<ApiResponse<any>> =>
      client.request<any>('POST', url, payload, { key: k, headers }),
    get: (url: string, k = key()): Promise<ApiResponse<any>> => client.request<any>('GET', url, undefined, { key: k }),
    del: (url: string, k = key()): Promise<ApiResponse<any>> => client.request<any>('DELETE', url, undefined, { key: k }),
    /** A settled card charge; `extra` goes into the charge body; `keys` default to the test merchant's test keys. */
    async charge(extra: Record<string, unknown> = {}, card: Record<string, unknown> = visa,
      keys: KeySet = gw.merchant.test): Promise<any> {
      const token = await tokenFor(gw, card, keys.public_key);
      const res = await apiFor(gw, keys).request<any>('POST', '/charge', { token, amount: 1234, ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
  };
}

/** Receipt timestamps (spec 2.1): `+00:00`, not `Z`. */
export const RECEIPT_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
