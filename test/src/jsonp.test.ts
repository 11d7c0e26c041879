// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"enableJavaScriptEvaluation":true,"suppressInsecureJavaScriptEnvironmentWarning":true}}
// JavaScript evaluation is on so injected scripts really run: a fake server (happy-dom's
// fetch interceptor) answers with the same `/**/callback(json);` body the gateway sends.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { generateToken, type PaymentData, type TokenResponse } from '../../src/index.js';
import { scriptBase } from '../../src/jsonp.js';

const KEY = 'test_pk_' + 'a'.repeat(55);
const CARD = {
  card_owner_name: 'Ada Lovelace',
  card_number: '4111 1111 1111 1111',
  card_exp_month: 12,
  card_exp_year: 2099,
  csc: '123',
};
const BASE = 'https://gw.example';
const globals = window as unknown as Record<string, unknown>;

type Pending = { url: URL; reply(body: string, status?: number): void };
let pending: Pending[] = [];

beforeEach(() => {
  pending = [];
  const settings = (window as unknown as { happyDOM: { settings: { fetch: Record<string, unknown> } } }).happyDOM.settings;
  settings.fetch.interceptor = {
    beforeAsyncRequest: ({ request }: { request: Request }) =>
      new Promise<Response>((resolve) => {
        pending.push({
          url: new URL(request.url),
          reply: (body, status = 200) =>
            resolve(new Response(body, { status, headers: { 'Content-Type': 'application/javascript' } })),
        });
      }),
  };
});

// Tests that only inspect the URL leave their request open: fail it so no script or
// global leaks into the next test.
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const s of scripts()) s.dispatchEvent(new Event('error'));
  for (const k of callbackGlobals()) delete globals[k];
});

const scripts = () => Array.from(document.querySelectorAll('script'));
const callbackGlobals = () => Object.keys(globals).filter((k) => k.startsWith('__tessera_cb_'));
const nameIn = (script: HTMLScriptElement) => new URL(script.src).searchParams.get('callback')!;
const jsonpBody = (name: string, value: unknown) => `/**/${name}(${JSON.stringify(value)});`;
const token = (id: string) => ({ class: 'token', id, token_type: 'credit_card', last_4: '1111' });

function request(data: PaymentData = CARD, options: object = { baseUrl: BASE }) {
  const callback = vi.fn<(r: TokenResponse) => void>();
  generateToken(KEY, data, callback, options);
  return callback;
}

function expectClean() {
  expect(scripts()).toHaveLength(0);
  expect(callbackGlobals()).toEqual([]);
}

describe('validation', () => {
  test('a failure calls back once, asynchronously, and makes no request at all', async () => {
    const callback = request({ ...CARD, card_number: '4111111111111112' });
    expect(callback).not.toHaveBeenCalled();
    expect(scripts()).toHaveLength(0);
    await vi.waitFor(() => expect(callback).toHaveBeenCalledTimes(1));
    expect(callback).toHaveBeenCalledWith({ errors: [{ code: '11112', message: expect.any(String) }] });
    await new Promise((r) => setTimeout(r, 20));
    expect(callback).toHaveBeenCalledTimes(1);
    expect(pending).toHaveLength(0);
    expectClean();
  });

  test.each([KEY.slice(1), KEY + 'a', 42, undefined])('public key %j -> TKN01, no request', async (key) => {
    const callback = vi.fn();
    generateToken(key as string, CARD, callback);
    await vi.waitFor(() => expect(callback).toHaveBeenCalledTimes(1));
    expect(callback.mock.calls[0][0].errors[0].code).toBe('TKN01');
    expectClean();
  });

  test('a missing callback is a programming error, thrown at once', () => {
    expect(() => generateToken(KEY, CARD, undefined as never)).toThrow(TypeError);
    expect(scripts()).toHaveLength(0);
  });
});

describe('request URL', () => {
  test('every payment_data key is URL-encoded; cvv is sent as csc; empty values are left out', async () => {
    request({ ...CARD, csc: undefined, cvv: '321', 'a&b c': 'x=y&z %', address_2: undefined, company: null, zip: '' });
    const url = new URL(scripts()[0].src);
    expect(url.origin + url.pathname).toBe(BASE + '/api/v1/tokens/jsonp');
    const q = url.searchParams;
    expect(q.get('public_api_key')).toBe(KEY);
    expect(q.get('a&b c')).toBe('x=y&z %');
    expect(q.get('csc')).toBe('321');
    expect(q.has('cvv')).toBe(false);
    expect(q.has('address_2') || q.has('company')).toBe(false);
    expect(q.get('zip')).toBe('');
    expect(q.get('card_number')).toBe(CARD.card_number);
    expect(q.get('card_exp_month')).toBe('12');
    expect(url.search).not.toContain('a&b c');
    expect(q.get('callback')).toMatch(/^__tessera_cb_\d+_[a-z0-9]+$/);
  });

  test('payment_data cannot replace the key or the callback name', () => {
    request({ ...CARD, callback: 'evil', public_api_key: 'other' });
    const q = new URL(scripts()[0].src).searchParams;
    expect(q.getAll('callback')).toEqual([nameIn(scripts()[0])]);
    expect(q.getAll('callback')[0]).toMatch(/^__tessera_cb_/);
    expect(q.getAll('public_api_key')).toEqual([KEY]);
  });

  test.each([
    ['https://gw.example', 'https://gw.example/api/v1/tokens/jsonp?'],
    ['https://gw.example/', 'https://gw.example/api/v1/tokens/jsonp?'],
    ['https://gw.example/pay/api/v1', 'https://gw.example/pay/api/v1/tokens/jsonp?'],
    ['https://gw.example/pay/api/v1/', 'https://gw.example/pay/api/v1/tokens/jsonp?'],
  ])('baseUrl %s is normalised', (baseUrl, expected) => {
    request(CARD, { baseUrl });
    expect(scripts()[0].src.startsWith(expected)).toBe(true);
  });

  test.each([
    ['https://gw.example/tokenizer.js', 'https://gw.example'],
    ['https://gw.example/tokenizer-0.1.0.js', 'https://gw.example'],
    ['https://gw.example/pay/tokenizer.js?v=2', 'https://gw.example/pay'],
    ['https://gw.example:8443/a/b/tokenizer-1.2.3.js#x', 'https://gw.example:8443/a/b'],
    ['https://cdn.example/lib/tessera.min.js', 'https://cdn.example'],
    ['https://gw.example/tokenizer.mjs', 'https://gw.example'], // import.meta.url of the ES build
    ['file:///app/node_modules/tessera/dist/tokenizer/tessera.mjs', ''],
    ['', ''],
    [undefined, ''],
  ])('scriptBase(%j) = %j', (src, base) => expect(scriptBase(src)).toBe(base));

  test('without an override the base comes from the src of the script that loaded the tokenizer', async () => {
    Object.defineProperty(document, 'currentScript', {
      configurable: true,
      get: () => ({ src: 'https://pay.example/gw/tokenizer-0.1.0.js' }),
    });
    vi.resetModules();
    try {
      const fresh = await import('../../src/index.js');
      fresh.generateToken(KEY, CARD, () => {});
      fresh.generateToken(KEY, CARD, () => {}, { timeout: 1000 });
    } finally {
      delete (document as unknown as Record<string, unknown>).currentScript;
    }
    for (const s of scripts()) expect(s.src.startsWith('https://pay.example/gw/api/v1/tokens/jsonp?')).toBe(true);
    expect(scripts()).toHaveLength(2);
  });

  test('with no script src and no override the request goes to the page origin', async () => {
    vi.resetModules();
    const fresh = await import('../../src/index.js');
    fresh.generateToken(KEY, CARD, () => {});
    expect(scripts()[0].getAttribute('src')!.startsWith('/api/v1/tokens/jsonp?')).toBe(true);
  });
});

describe('lifecycle', () => {
  test('success through a real JSONP reply: token delivered once, script and global gone', async () => {
    const callback = request();
    expect(scripts()).toHaveLength(1);
    expect(callbackGlobals()).toEqual([nameIn(scripts()[0])]);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    const name = pending[0].url.searchParams.get('callback')!;
    pending[0].reply(jsonpBody(name, token('abc123def0')));
    await vi.waitFor(() => expect(callback).toHaveBeenCalledTimes(1));
    expect(callback).toHaveBeenCalledWith(token('abc123def0'));
    expectClean();
    await new Promise((r) => setTimeout(r, 20)); // the script's own load event must not call back again
    expect(callback).toHaveBeenCalledTimes(1);
  });

  test('success by invoking the global the script src names', () => {
    const callback = request();
    (globals[nameIn(scripts()[0])] as (r: unknown) => void)(token('0123456789'));
    expect(callback).toHaveBeenCalledExactlyOnceWith(token('0123456789'));
    expectClean();
  });

  test('an error response reaches the callback as is', async () => {
    const callback = request();
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    const errors = { errors: [{ code: '11301', message: 'invalid visa number' }] };
    pending[0].reply(jsonpBody(pending[0].url.searchParams.get('callback')!, errors));
    await vi.waitFor(() => expect(callback).toHaveBeenCalledTimes(1));
    expect(callback).toHaveBeenCalledWith(errors);
    expectClean();
  });

  test('cleanup happens before the callback runs, so a throwing callback leaves nothing behind', () => {
    const callback = vi.fn(() => {
      throw new Error('merchant bug');
    });
    generateToken(KEY, CARD, callback, { baseUrl: BASE });
    const name = nameIn(scripts()[0]);
    expect(() => (globals[name] as (r: unknown) => void)(token('x'))).toThrow('merchant bug');
    expectClean();
  });

  // happy-dom fires `error` for an HTTP error or a refused load, like a browser, but also
  // prints it; dispatching the event directly keeps the output quiet.
  test('script error event (network failure, HTTP error, blocked) -> TKN01', () => {
    const callback = request();
    scripts()[0].dispatchEvent(new Event('error'));
    expect(callback).toHaveBeenCalledExactlyOnceWith({ errors: [{ code: 'TKN01', message: expect.any(String) }] });
    expectClean();
  });

  test('script loaded but never called back (not a JSONP reply) -> TKN01 at once', async () => {
    const callback = request();
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    pending[0].reply('/* a proxy page */');
    await vi.waitFor(() => expect(callback).toHaveBeenCalledTimes(1));
    expect((callback.mock.calls[0][0] as { errors: { code: string }[] }).errors[0].code).toBe('TKN01');
    expectClean();
  });

  test('timeout (default 15 s) -> TKN01; a late reply neither calls back again nor throws', async () => {
    vi.useFakeTimers();
    const callback = request();
    const name = nameIn(scripts()[0]);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(callback).toHaveBeenCalledExactlyOnceWith({ errors: [{ code: 'TKN01', message: expect.any(String) }] });
    expect(scripts()).toHaveLength(0);
    // The stub left behind is not the user's callback and removes itself when used.
    expect(typeof globals[name]).toBe('function');
    vi.useRealTimers();
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    pending[0].reply(jsonpBody(name, token('late')));
    await vi.waitFor(() => expect(globals[name]).toBeUndefined());
    expect(callback).toHaveBeenCalledTimes(1);
    expectClean();
  });

  test('timeout is configurable', async () => {
    vi.useFakeTimers();
    const callback = request(CARD, { baseUrl: BASE, timeout: 200 });
    await vi.advanceTimersByTimeAsync(199);
    expect(callback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(callback).toHaveBeenCalledTimes(1);
    expect(scripts()).toHaveLength(0);
  });

  test('concurrent calls get distinct callbacks and each its own answer', async () => {
    const callbacks = Array.from({ length: 25 }, () => request());
    const names = scripts().map(nameIn);
    expect(new Set(names).size).toBe(25);
    expect(callbackGlobals().sort()).toEqual([...names].sort());
    await vi.waitFor(() => expect(pending).toHaveLength(25));
    for (const p of [...pending].reverse()) {
      const name = p.url.searchParams.get('callback')!;
      p.reply(jsonpBody(name, token(name)));
    }
    await vi.waitFor(() => callbacks.forEach((cb) => expect(cb).toHaveBeenCalledTimes(1)));
    callbacks.forEach((cb, i) => expect(cb).toHaveBeenCalledWith(token(names[i])));
    expectClean();
  });
});
