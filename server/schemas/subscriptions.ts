// A subscription (spec 2.10, 4.9): a customer billed on a plan's calendar.
import { BillingSchema, type BillingRow, presentBilling } from './billings.js';
import {
  At, Bool, Env, Int, List, Metadata, NullableAt, NullableInt, NullableStr as NStr, Str, Type, type Static, type TUnsafe,
  columnsOf, shown, shownOf, shownPicker,
} from './common.js';
import { FREQUENCIES, type Frequency } from './plans.js';
import { allPageFields, fields } from './fields.js';

export type SubscriptionStatus = 'active' | 'cancelled' | 'ended';

/**
 * The stored row (003_customers.sql, extended by 007_recurring.sql), its columns in order: its type
 * (SubscriptionRow), its column list (SUBSCRIPTION_COLUMNS: every statement reading a whole
 * subscription names them, domain/billing/subscriptions.ts) and, marked `shown`, the columns the
 * answer shows as stored. The answer's id is the number; the text id, anchor_date, merchant_id and
 * env stay inside the gateway. 007's columns are typed as a plan's subscription has them: only
 * those are read (by number, or plan_id not null), never 003's minimal rows.
 */
export const SubscriptionRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  /** The text key of 003; a plan's subscription has its number as text. */
  id: Str(),
  customer_id: shown(Str({ examples: ['cus_1a2b3c4d'] })),
  method_id: shown(NStr()),
  status: shown(Str({ enum: ['active', 'cancelled', 'ended'], examples: ['active'] }) as TUnsafe<SubscriptionStatus>),
  created_at: shown(At()),
  /** The integer id the API shows (billings carry it as subscription_id). */
  number: Int(),
  plan_id: shown(Int({ examples: [1] })),
  amount: shown(Int({ examples: [1999] })),
  frequency: shown(Str({ enum: [...FREQUENCIES], examples: ['monthly'] }) as TUnsafe<Frequency>),
  day: shown(NullableInt({ examples: [1] })),
  /** 'YYYY-MM-DD', read as text (pg and PGlite parse `date` into different Dates): see subscriptionColumns. */
  anchor_date: Str({ format: 'date' }),
  bill_immediately: shown(Bool()),
  charge_bank_account: shown(Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] })),
  ends_after: shown(NullableInt()),
  billed_count: Int(),
  next_billing: shown(NullableAt()),
  metadata: shown(Metadata()),
  updated_at: NullableAt(),
  cancelled_at: shown(NullableAt({ examples: [null] })),
});
export type SubscriptionRow = Static<typeof SubscriptionRowSchema>;
export const SUBSCRIPTION_COLUMNS = columnsOf(SubscriptionRowSchema);
/** A subscription as its answer reads it: the row and its newest billing. */
export type SubscriptionView = SubscriptionRow & { last_billing: BillingRow | null };

const properties = {
  class: Str({ examples: ['subscription'] }),
  id: Int({ examples: [1] }),
  ...shownOf(SubscriptionRowSchema),
  billings_count: Int({ examples: [0] }),
  updated_at: At(),
  last_billing: Type.Unsafe<Static<typeof BillingSchema> | null>({ ...BillingSchema, type: ['object', 'null'], examples: [null] }),
};
const PICK = shownPicker(SubscriptionRowSchema);
/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Subscriptions. */
export const SubscriptionSchema = Type.Object(properties);
export type SubscriptionOut = Static<typeof SubscriptionSchema>;
export const SubscriptionList = List(SubscriptionSchema);
/** A customer on a plan: the active subscription (else the newest), and the pair's whole history. */
export const SubscriptionPair = Type.Object({ ...properties, subscriptions: Type.Array(SubscriptionSchema) });
export const Unsubscribed = Type.Object({ success: Bool({ examples: [true] }), subscription: SubscriptionSchema });

export function presentSubscription(s: SubscriptionView): SubscriptionOut {
  return {
    class: 'subscription', id: s.number, ...PICK(s),
    billings_count: s.billed_count,
    updated_at: s.updated_at ?? s.created_at,
    last_billing: s.last_billing ? presentBilling(s.last_billing) : null,
  };
}

/** GET /plans and GET /subscriptions…: the lists the spec calls "all", every row without a limit. */
export const AllQuery = fields(allPageFields);
