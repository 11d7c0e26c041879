// Shared calls of the receipt, template and notify tests.
import { expect } from 'vitest';
import type { KeySet } from '../../../server/domain/keys.js';
import { TestGateway, basic, tokenFor, visa } from '../../helpers/gateway.js';

export type Res = { statusCode: number; json(): any; body: string; headers: Record<string, unknown> };

export function calls(gw: TestGateway) {
  const key = () => gw.merchant.test.private_key;
  return {
    post: (url: string, payload: unknown = {}, k = key(), headers: Record<string, string> = {}) =>
      gw.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...basic(k), ...headers }, payload: payload as any }) as Promise<Res>,
    get: (url: string, k = key()) => gw.app.inject({ url: `/api/v1${url}`, headers: basic(k) }) as Promise<Res>,
    del: (url: string, k = key()) => gw.app.inject({ method: 'DELETE', url: `/api/v1${url}`, headers: basic(k) }) as Promise<Res>,
    /** A settled card charge; `extra` goes into the charge body; `keys` default to the test merchant's test keys. */
    async charge(extra: Record<string, unknown> = {}, card: Record<string, unknown> = visa,
      keys: KeySet = gw.merchant.test): Promise<any> {
      const token = await tokenFor(gw, card, keys.public_key);
      const res = await gw.app.inject({
        method: 'POST', url: '/api/v1/charge', headers: basic(keys.private_key), payload: { token, amount: 1234, ...extra } as any,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
}

/** Receipt timestamps (spec 2.1): `+00:00`, not `Z`. */
export const RECEIPT_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
