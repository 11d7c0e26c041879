import type { PaymentData } from '../../src/index.js';

// What a test needs to play the merchant's server against a running gateway, over plain HTTP
// (fetch), so it works the same against startTessera() in the test process or a gateway elsewhere.

export interface GatewayAddress {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  publicKey: string;
  privateKey: string;
}

export interface ApiError {
  code: string;
  message: string;
  /** Set on a recorded decline (99820): the DECLINED transaction. */
  transaction_id?: string;
  [key: string]: unknown;
}

export interface ApiResponse<T = Record<string, any>> {
  status: number;
  ok: boolean;
  /** The parsed JSON body. */
  body: T & { errors?: ApiError[] };
}

/** A transaction as POST /charge and GET /charge/:id answer it (spec 2.2); the fields tests use most. */
export interface Transaction {
  class: 'transaction';
  id: string;
  status: string;
  successful: boolean;
  amount_authorized: number;
  amount_settled: number;
  amount_failed: number;
  amount_refunded: number;
  card_type: string | null;
  card_number: string | null;
  error_code: string | null;
  error_message: string | null;
  [key: string]: unknown;
}

export interface ChargeResult {
  status: number;
  /** true for an answer with a transaction that went through (HTTP 200 and `successful`). */
  ok: boolean;
  /** The transaction: on success, on a RETURNED bank charge, and (fetched) on a recorded decline. */
  transaction: Transaction | null;
  /** The error items of a refused charge, e.g. [{code: '99820', transaction_id}]. */
  errors: ApiError[];
}

export interface OutboxMessage {
  class: 'outbox_message';
  id: number;
  kind: 'email' | 'sms';
  /** `captured`: a test-mode message the gateway kept instead of sending (waitForEmail finds it all the same). */
  status: 'pending' | 'sent' | 'failed' | 'captured';
  source: string | null;
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  created_at: string;
  [key: string]: unknown;
}

export interface EmailMatch {
  to?: string;
  subject?: string | RegExp;
  /** Matched against the plain-text body. */
  text?: string | RegExp;
  where?: (message: OutboxMessage) => boolean;
}

export interface WaitOptions {
  /** Milliseconds; default 10000. */
  timeout?: number;
  /** Milliseconds between polls; default 100. */
  interval?: number;
}

const matches = (value: string | null | undefined, want: string | RegExp | undefined) =>
  want === undefined || (typeof want === 'string' ? value === want : want.test(value ?? ''));

export function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TesseraClient {
  readonly url: string;
  /** Any API call with the private key (or `key`); `path` is under /api/v1, e.g. '/transactions'. */
  request<T = Record<string, any>>(method: string, path: string, body?: unknown, opts?: { key?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** POST /tokens with the public key, as the tokenizer would; returns the token id (throws on an error). */
  tokenize(data: PaymentData): Promise<string>;
  /**
   * POST /charge with the private key, as the merchant's server does. Never throws for a refused
   * charge: read `ok`, `errors[0].code` and, for a recorded decline, `transaction`.
   */
  charge(token: string, amount: number, extra?: Record<string, unknown>): Promise<ChargeResult>;
  /** POST /settings (cvv_check, zip_check, default_receipts, ...). */
  settings(patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** POST /test_helpers/reset: the merchant's test records are gone, settings back to defaults. */
  reset(): Promise<{ deleted: Record<string, number> }>;
  /**
   * POST /test_helpers/clock/advance?wait=true (`{days: 30}`, `{to: '2027-01-01T00:00:00Z'}`, …):
   * resolves when the advance is done, long ones included, with the clock and what ran meanwhile.
   */
  advanceClock(body: Record<string, unknown>): Promise<ClockAdvance>;
  /**
   * POST /test_helpers/settle: resolves when everything due for the test environment — webhooks,
   * billing callbacks, email, SMS, due billings — was delivered or failed (retries not yet due are
   * reported as `pending_retry`, not waited for), with counts per kind. Use it instead of sleeping
   * or polling after a charge. Throws on an error answer; `settled: false` after the timeout.
   */
  settle(opts?: SettleOptions): Promise<SettleSummary>;
  /** GET /outbox (newest first). Fails clearly when the gateway has no outbox endpoint. */
  outbox(filter?: { kind?: 'email' | 'sms'; status?: string }): Promise<OutboxMessage[]>;
  /**
   * Looks for a matching email in the outbox; when none is there, settles the gateway and looks
   * again; only when there is still none (a request still under way) it looks again every
   * `interval` until `timeout`, then throws listing what was there.
   */
  waitForEmail(match?: EmailMatch | ((m: OutboxMessage) => boolean), opts?: WaitOptions): Promise<OutboxMessage>;
}

/** Deliveries of one kind in the test environment since its last reset (see POST /test_helpers/settle). */
export interface SettleCounts {
  delivered: number;
  failed: number;
  /** Failed attempts whose retry is not due yet: reported, not waited for. */
  pending_retry: number;
  /** Due or being sent when settle gave up (0 when `settled`). */
  pending: number;
}

/** The answer of POST /test_helpers/settle. */
export interface SettleSummary {
  class: 'test_settle';
  env: 'test';
  merchant_id: string;
  /** Nothing due is left; false when the timeout came first. */
  settled: boolean;
  took_ms: number;
  webhooks: SettleCounts;
  /** Billing callbacks (a plan's callback_url). */
  callbacks: SettleCounts;
  /** `queued`: kept in the outbox because the gateway has no transport for the kind (the QA default). */
  emails: SettleCounts & { queued: number };
  sms: SettleCounts & { queued: number };
  /** Billings and scheduled transactions still due (0 when settled); runs that failed unexpectedly; a clock advance under way. */
  scheduled: { due: number; errors: number; advancing: boolean };
  events: { undispatched: number };
  next_retry_at: string | null;
}

export interface SettleOptions {
  /** Milliseconds settle may take before answering `settled: false`; default 10000, at most 60000. */
  timeout?: number;
}

/** The answer of a finished test-clock advance. */
export interface ClockAdvance {
  class: 'test_clock';
  previous: string;
  now: string;
  offset_ms: number;
  advancing: false;
  ran: { billings: number; failed_billings: number; scheduled_transactions: number; failed_scheduled_transactions: number; errors: number };
  [key: string]: unknown;
}

/** `fetch` defaults to the global one; a test may pass another transport (an in-process app's inject). */
export function tesseraClient(gw: GatewayAddress, opts: { fetch?: typeof fetch } = {}): TesseraClient {
  const base = gw.url.replace(/\/+$/, '');
  const send = opts.fetch ?? fetch;

  async function request<T>(method: string, path: string, body?: unknown, opts: { key?: string; headers?: Record<string, string> } = {}) {
    const res = await send(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: basicAuth(opts.key ?? gw.privateKey),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...opts.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new Error(`${method} ${path}: ${res.status} answer is not JSON: ${text.slice(0, 200)}`);
    }
    return { status: res.status, ok: res.ok, body: parsed } as ApiResponse<T>;
  }

  async function outbox(filter: { kind?: string; status?: string } = {}): Promise<OutboxMessage[]> {
    const q = new URLSearchParams({ limit: '100', ...filter });
    const res = await request<{ list: OutboxMessage[] }>('GET', `/outbox?${q}`);
    if (res.status === 404) {
      throw new Error(
        `this gateway has no outbox endpoint (GET ${base}/api/v1/outbox answered 404): ` +
          'it needs the receipts feature (issue 5); emails cannot be awaited',
      );
    }
    if (!res.ok) throw new Error(`GET /outbox: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.list;
  }

  return {
    url: base,
    request,
    async tokenize(data) {
      const res = await request<{ id: string }>('POST', '/tokens', data, { key: gw.publicKey });
      if (!res.ok) throw new Error(`token refused: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
    async charge(token, amount, extra = {}) {
      const res = await request<Transaction>('POST', '/charge', { token, amount, ...extra });
      const errors = res.body.errors ?? [];
      let transaction: Transaction | null = res.ok ? (res.body as Transaction) : null;
      const declined = errors.find((e) => e.transaction_id);
      if (declined) {
        const t = await request<Transaction>('GET', `/charge/${declined.transaction_id}`);
        if (t.ok) transaction = t.body as Transaction;
      }
      return { status: res.status, ok: res.ok && !!transaction?.successful, transaction, errors };
    },
    async settings(patch) {
      const res = await request('POST', '/settings', patch);
      if (!res.ok) throw new Error(`POST /settings: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async reset() {
      const res = await request<{ deleted: Record<string, number> }>('POST', '/test_helpers/reset');
      if (!res.ok) throw new Error(`POST /test_helpers/reset: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async advanceClock(body) {
      const res = await request<ClockAdvance>('POST', '/test_helpers/clock/advance?wait=true', body);
      if (!res.ok) throw new Error(`POST /test_helpers/clock/advance: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async settle(opts = {}) {
      const res = await request<SettleSummary>('POST', '/test_helpers/settle', opts.timeout === undefined ? {} : { timeout_ms: opts.timeout });
      if (!res.ok) throw new Error(`POST /test_helpers/settle: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    outbox,
    async waitForEmail(match = {}, opts = {}) {
      const test =
        typeof match === 'function'
          ? match
          : (m: OutboxMessage) =>
              (match.to === undefined || m.to === match.to) &&
              matches(m.subject, match.subject) &&
              matches(m.text, match.text) &&
              (match.where?.(m) ?? true);
      const timeout = opts.timeout ?? 10_000;
      const deadline = Date.now() + timeout;
      let seen: OutboxMessage[] = [];
      const look = async () => {
        seen = await outbox({ kind: 'email' });
        return seen.find(test);
      };
      // Settle when the email is not there yet: what is due (a webhook strategy's email, say) is
      // then done. Older gateways without settle, or a live key, fall back to looking only.
      let settles = true;
      for (;;) {
        const found = await look();
        if (found) return found;
        if (settles) {
          const left = Math.max(0, Math.min(60_000, deadline - Date.now()));
          settles = await request('POST', '/test_helpers/settle', { timeout_ms: left }).then((r) => r.ok, () => false);
          const after = settles ? await look() : undefined;
          if (after) return after;
        }
        if (Date.now() >= deadline) break;
        await sleep(Math.min(opts.interval ?? 100, Math.max(0, deadline - Date.now())));
      }
      const list = seen.map((m) => `  #${m.id} to ${m.to}: ${JSON.stringify(m.subject)} (${m.status})`).join('\n');
      throw new Error(`no matching email in the outbox after ${timeout} ms; it holds ${seen.length}:\n${list || '  (nothing)'}`);
    },
  };
}
