import { signCallback } from '../domain/merchant/signing.js';
import { OutboundError, PostResult, post } from '../net/outbound.js';
import type { SmsMessage } from '../domain/events/outbox.js';
import { SendError, Transport } from './outbox.js';

export interface SmsWebhookOptions {
  /** Where each SMS is POSTed as JSON; a bridge to the SMS provider of your choice. */
  url: string;
  /** When set, requests carry `X-Tessera-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
  secret?: string;
  timeoutMs?: number;
}

/**
 * The signature header value for a body sent at unix time `t` (receivers recompute it to verify).
 * The gateway's one signing function: billing callbacks and webhook deliveries use it too.
 */
export const signBody = signCallback;

/**
 * SMS through an HTTP webhook: `POST url` with `{id, to, text, merchant_id, env}`; any 2xx means
 * accepted. `Idempotency-Key: sms-<env>-<id>` is the same on every attempt of one message, so a
 * receiver can drop the duplicates that at-least-once delivery may produce. A 4xx answer (other
 * than 408 and 429) is permanent; network errors, timeouts and 5xx are retried.
 */
export function webhookSmsTransport(opts: SmsWebhookOptions): Transport<SmsMessage> {
  const timeout = opts.timeoutMs ?? 10_000;
  return {
    async send(message, delivery) {
      const body = JSON.stringify({
        id: `sms-${delivery.env}-${delivery.id}`, to: message.to, text: message.text,
        merchant_id: delivery.merchantId, env: delivery.env,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'idempotency-key': `sms-${delivery.env}-${delivery.id}`,
        'user-agent': 'Tessera-SMS/1',
      };
      // The operator's own endpoint, so no address rules (it may well be private); the deadline
      // and the answer cap (4 KiB) still apply. Redirects are not followed.
      let res: PostResult;
      try {
        res = await post(opts.url, {
          caller: 'operator', headers, body, timeoutMs: timeout,
          // Signed when the connection is ready, in real time (the receiver checks freshness against its own clock).
          lateHeaders: (): Record<string, string> => (opts.secret ? { 'x-tessera-signature': signBody(opts.secret, Math.floor(Date.now() / 1000), body) } : {}),
        });
      } catch (err) {
        throw new SendError(`SMS webhook unreachable: ${err instanceof OutboundError ? `${err.kind}: ${err.detail}` : String(err)}`);
      }
      if (res.status >= 200 && res.status < 300) return;
      const detail = res.body.slice(0, 200);
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
      throw new SendError(`SMS webhook answered ${res.status}${detail ? `: ${detail}` : ''}`, permanent);
    },
  };
}
