// A subscription (spec 2.10, 4.9): a customer billed on a plan's calendar.
import type { SubscriptionView } from '../domain/billing/subscriptions.js';
import { BillingSchema, presentBilling } from './billings.js';
import { Bool, Int, List, Metadata, NullableInt, NullableStr as NStr, NullableTime, Str, Timestamp, Type, type Static } from './common.js';
import { allPageFields, fields } from './fields.js';

const properties = {
  class: Str({ examples: ['subscription'] }),
  id: Int({ examples: [1] }),
  plan_id: Int({ examples: [1] }),
  customer_id: Str({ examples: ['cus_1a2b3c4d'] }),
  method_id: NStr(),
  status: Str({ examples: ['active'] }),
  amount: Int({ examples: [1999] }),
  frequency: Str({ examples: ['monthly'] }),
  day: NullableInt({ examples: [1] }),
  ends_after: NullableInt(),
  billings_count: Int({ examples: [0] }),
  next_billing: NullableTime(),
  bill_immediately: Bool(),
  charge_bank_account: Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] }),
  metadata: Metadata(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  cancelled_at: NullableTime({ examples: [null] }),
  last_billing: Type.Unsafe<Static<typeof BillingSchema> | null>({ ...BillingSchema, type: ['object', 'null'], examples: [null] }),
};
/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Subscriptions. */
export const SubscriptionSchema = Type.Object(properties);
export type SubscriptionOut = Static<typeof SubscriptionSchema>;
export const SubscriptionList = List(SubscriptionSchema);
/** A customer on a plan: the active subscription (else the newest), and the pair's whole history. */
export const SubscriptionPair = Type.Object({ ...properties, subscriptions: Type.Array(SubscriptionSchema) });
export const Unsubscribed = Type.Object({ success: Bool({ examples: [true] }), subscription: SubscriptionSchema });

export function presentSubscription(s: SubscriptionView): SubscriptionOut {
  return {
    class: 'subscription',
    id: s.number,
    plan_id: s.plan_id,
    customer_id: s.customer_id,
    method_id: s.method_id,
    status: s.status,
    amount: s.amount,
    frequency: s.frequency,
    day: s.day,
    ends_after: s.ends_after,
    billings_count: s.billed_count,
    next_billing: s.next_billing,
    bill_immediately: s.bill_immediately,
    charge_bank_account: s.charge_bank_account,
    metadata: s.metadata ?? {},
    created_at: s.created_at,
    updated_at: s.updated_at ?? s.created_at,
    cancelled_at: s.cancelled_at,
    last_billing: s.last_billing ? presentBilling(s.last_billing) : null,
  };
}

/** GET /plans and GET /subscriptions…: the lists the spec calls "all", every row without a limit. */
export const AllQuery = fields(allPageFields);
