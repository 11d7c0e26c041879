// The outbox (ours): every email and SMS Tessera has queued, with its delivery state.
import type { OutboxRow, OutboxStatus } from '../domain/events/outbox.js';
import { invalid } from '../errors.js';
import { Int, NullableStr as NStr, NullableTime, Str, Timestamp, Type, type Static } from './common.js';
import { custom, fields, pageFields } from './fields.js';

/** domain/events/outbox.ts OUTBOX_STATUSES (schemas import domain types only). */
const STATUSES = ['pending', 'sent', 'failed', 'captured'] satisfies OutboxStatus[];

/** A queued email or SMS as the merchant (and QA) may read it: never more than the message itself. */
export const OutboxSchema = Type.Object({
  class: Str({ examples: ['outbox_message'] }),
  id: Int({ examples: [1] }),
  kind: Str({ enum: ['email', 'sms'], examples: ['email'] }),
  status: Str({
    enum: STATUSES, examples: ['pending'],
    description: 'captured: a test-mode message kept here and never sent (TESSERA_TEST_DELIVERY_TO names the test recipients that are sent to).',
  }),
  source: NStr({ examples: ['receipt:1'] }),
  to: Str({ examples: ['ada@example.com'] }),
  subject: NStr({ examples: ['Your receipt'] }),
  text: Str({ examples: ['Thank you for your payment of $19.99.'] }),
  html: NStr(),
  from_name: NStr(),
  attempts: Int({ examples: [0] }),
  last_error: NStr(),
  next_attempt_at: NullableTime(),
  created_at: Timestamp(),
  sent_at: NullableTime({ examples: [null] }),
});
export type OutboxOut = Static<typeof OutboxSchema>;

/** Wire form; timestamps as ms + Z like every record but receipts. */
export function presentOutbox(r: OutboxRow): OutboxOut {
  const p = r.payload as Record<string, string | undefined>;
  return {
    class: 'outbox_message',
    id: r.id,
    kind: r.kind,
    status: r.status,
    source: r.source,
    to: p.to as string,
    subject: p.subject ?? null,
    text: p.text as string,
    html: p.html ?? null,
    from_name: p.from_name ?? null,
    attempts: r.attempts,
    last_error: r.last_error,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
    created_at: r.created_at,
    sent_at: r.sent_at,
  };
}

/** A filter compared exactly as sent: absent or empty is none; anything else than `values` REQ01 naming them. */
const exactly = <V extends string>(description: string, values: readonly V[]) =>
  custom(description, { type: 'string', enum: values }, (v, name): V | undefined => {
    if (v === undefined || v === '') return undefined;
    if (!(values as readonly unknown[]).includes(v)) throw invalid(name, `must be one of ${values.join(', ')}`);
    return v as V;
  });

/** GET /outbox: the page, then status, kind and source. */
export const OutboxQuery = fields({
  ...pageFields(),
  status: exactly('Only messages in this state.', STATUSES),
  kind: exactly('email or sms.', ['email', 'sms'] as const),
  source: custom('Only messages about this record, e.g. receipt:1 or invoice:inv_…', { type: 'string' },
    (v) => (typeof v === 'string' && v !== '' ? v : undefined)),
});
