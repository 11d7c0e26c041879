// The outbox (ours): every email and SMS Tessera has queued, with its delivery state.
import { invalid } from '../errors.js';
import {
  At, Env, Int, Metadata, NullableAt, NullableStr as NStr, NullableTime, Str, Type, type Static, type TUnsafe, columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { custom, fields, pageFields } from './fields.js';

/** A message's states: pending, then sent, failed or captured (a test-mode message never sent). */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'captured'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
const STATUSES = OUTBOX_STATUSES;
export const MESSAGE_KINDS = ['email', 'sms'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * outbox (004_receipts.sql, 028_outbox_captured.sql): a queued message, its payload (to, subject,
 * text, html, from_name) shown field by field; a column marked `shown` is in the answer as stored.
 */
export const OutboxRowSchema = Type.Object({
  id: shown(Int({ examples: [1] })),
  merchant_id: Str(),
  env: Env(),
  kind: shown(Str({ enum: MESSAGE_KINDS, examples: ['email'] }) as TUnsafe<MessageKind>),
  source: shown(NStr({ examples: ['receipt:1'] })),
  payload: Metadata(),
  status: shown(Str({
    enum: STATUSES, examples: ['pending'],
    description: 'captured: a test-mode message kept here and never sent (TESSERA_TEST_DELIVERY_TO names the test recipients that are sent to).',
  }) as TUnsafe<OutboxStatus>),
  attempts: shown(Int({ examples: [0] })),
  next_attempt_at: At(),
  last_error: shown(NStr()),
  created_at: shown(At()),
  sent_at: shown(NullableAt({ examples: [null] })),
});
export type OutboxRow = Static<typeof OutboxRowSchema>;
export const OUTBOX_COLUMNS = columnsOf(OutboxRowSchema);
const PICK = shownPicker(OutboxRowSchema, { class: 'outbox_message' });

/** A queued email or SMS as the merchant (and QA) may read it: never more than the message itself. */
export const OutboxSchema = Type.Object({
  class: Str({ examples: ['outbox_message'] }),
  ...shownOf(OutboxRowSchema),
  to: Str({ examples: ['ada@example.com'] }),
  subject: NStr({ examples: ['Your receipt'] }),
  text: Str({ examples: ['Thank you for your payment of $19.99.'] }),
  html: NStr(),
  from_name: NStr(),
  next_attempt_at: NullableTime(),
});
export type OutboxOut = Static<typeof OutboxSchema>;

/** Wire form; timestamps as ms + Z like every record but receipts. */
export function presentOutbox(r: OutboxRow): OutboxOut {
  const out = PICK(r) as OutboxOut;
  const p = r.payload as Record<string, string | undefined>;
  out.to = p.to as string;
  out.subject = p.subject ?? null;
  out.text = p.text as string;
  out.html = p.html ?? null;
  out.from_name = p.from_name ?? null;
  out.next_attempt_at = r.status === 'pending' ? r.next_attempt_at : null;
  return out;
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
  kind: exactly('email or sms.', MESSAGE_KINDS),
  source: custom('Only messages about this record, e.g. receipt:1 or invoice:inv_…', { type: 'string' },
    (v) => (typeof v === 'string' && v !== '' ? v : undefined)),
});
