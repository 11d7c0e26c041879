import { securityCode, validatePaymentData, validatePublicKey } from './checks.js';
import { jsonp, scriptBase } from './jsonp.js';

/** Parameters of GET /api/v1/tokens/jsonp (spec 4.2). Unknown keys are sent as well. */
export type PaymentData = {
  token_type?: 'credit_card' | 'bank_account';
  card_owner_name?: string;
  card_number?: string;
  card_exp_month?: number | string;
  card_exp_year?: number | string;
  /** Sent as `csc`; `cvv` is accepted as another name for it. */
  csc?: string;
  cvv?: string;
  amount?: number | string;
  bank_account_number?: string;
  bank_routing_number?: string;
  bank_account_holder_first_name?: string;
  bank_account_holder_last_name?: string;
  bank_account_type?: 'checking' | 'savings';
  address_1?: string;
  address_2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  [key: string]: string | number | null | undefined;
};

export type TokenError = { code: string; message: string };

/** The token object of spec 2.3; bin_* only in this creation response. */
export type Token = {
  class: 'token';
  id: string;
  token_type: 'credit_card' | 'bank_account';
  card_type?: string;
  card_owner_name?: string;
  last_4?: string;
  card_exp_month?: number;
  card_exp_year?: number;
  bin_brand?: string;
  bin_type?: string;
  bin_level?: string;
  [key: string]: unknown;
};

/** Narrow with `'errors' in response`. */
export type TokenResponse = Token | { errors: TokenError[] };

export type Callback = (response: TokenResponse) => void;

export type Options = {
  /** Gateway root, e.g. `https://pay.example.com`; a trailing `/api/v1` is tolerated. */
  baseUrl?: string;
  /** Milliseconds before the request fails with TKN01; default 15000. */
  timeout?: number;
};

// Read now: document.currentScript is only set while a classic script's top level runs.
// A module (tokenizer.mjs) has no currentScript but knows its own URL instead; the IIFE
// build replaces import.meta.url with "" (see rollup.config.mjs).
const loadedFrom = scriptBase(
  typeof document == 'undefined' ? '' : ((document.currentScript || {}) as { src?: string }).src || import.meta.url,
);

export function generateToken(
  public_key: string,
  payment_data: PaymentData,
  callback: Callback,
  options: Options = {},
): void {
  if (typeof callback != 'function') throw new TypeError('callback must be a function');
  const data: Record<string, unknown> = Object.assign({}, payment_data);
  const invalid = validatePublicKey(public_key) || validatePaymentData(data);
  // Always asynchronous, so callers see the same ordering for every outcome.
  if (invalid) return void setTimeout(() => callback({ errors: [invalid] }));

  data.csc = securityCode(data);
  delete data.cvv;
  const base = (options.baseUrl == null ? loadedFrom : options.baseUrl).replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  jsonp(
    (callbackName) => {
      // Ours are assigned last so payment_data cannot smuggle in a second key or callback.
      const query: Record<string, unknown> = Object.assign(data, { public_api_key: public_key, callback: callbackName });
      return (
        base +
        '/api/v1/tokens/jsonp?' +
        Object.keys(query)
          .filter((k) => query[k] != null)
          .map((k) => encodeURIComponent(k) + '=' + encodeURIComponent(String(query[k])))
          .join('&')
      );
    },
    options.timeout || 15e3,
    callback as (response: unknown) => void,
  );
}
