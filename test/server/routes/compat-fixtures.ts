// Requests as the existing clients of this API family send them: form-encoded (the PHP library)
// or JSON, with the merchant's test private key. Shared by the compat-*.test.ts files, as the
// fixture `call` beside the gateway fixture's own (the QA client sends JSON only).
import { Merchant, TestGateway, basic, test as base } from '../../fixtures.js';

export type Body = Record<string, string | number>;
export type Encoding = 'form' | 'json';
export const ENCODINGS: Encoding[] = ['form', 'json'];

/** A request to /api/v1 of `gw`; a body is form-encoded or sent as JSON. */
export function clientCall(gw: TestGateway) {
  return (method: 'GET' | 'POST', url: string, body: Body | undefined, m: Merchant, enc: Encoding = 'json') => {
    const form = enc === 'form' && body !== undefined;
    return gw.app.inject({
      method, url: `/api/v1${url}`,
      headers: { ...basic(m.test.private_key), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      payload: form ? new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString() : (body as any),
    });
  };
}
export type Call = ReturnType<typeof clientCall>;

/** The gateway fixture, plus `call`: clientCall bound to this file's gateway. */
export const test = base.extend<{ call: Call }>({ call: [async ({ gateway }, use) => use(clientCall(gateway)), { scope: 'file' }] });

export const errorOf = (res: { statusCode: number; json(): any }) => ({ status: res.statusCode, code: res.json().errors?.[0]?.code });
