// A plan (spec 2.10, 4.8): what a subscription bills, and how often.
import type { PlanRow } from '../domain/billing/plans.js';
import { Int, NullableInt, NullableStr as NStr, Str, Timestamp, Type, loose, type Static } from './common.js';

/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Plans. */
export const PlanSchema = Type.Object({
  class: Str({ examples: ['plan'] }),
  id: Int({ examples: [1] }),
  name: Str({ examples: ['Gold monthly'] }),
  frequency: Str({ examples: ['monthly'] }),
  day: NullableInt({ examples: [1] }),
  amount: Int({ examples: [1999] }),
  callback_url: NStr({ examples: ['https://shop.example.com/billing'] }),
  active_subscriptions: Int({ examples: [0] }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type PlanOut = Static<typeof PlanSchema>;

/** Spec 2.10 leaves the record open: docs/decisions/recurring-billing.md, Plans. */
export function presentPlan(p: PlanRow): PlanOut {
  return {
    class: 'plan',
    id: p.id,
    name: p.name,
    frequency: p.frequency,
    day: p.day,
    amount: p.amount,
    callback_url: p.callback_url,
    active_subscriptions: p.active_subscriptions ?? 0,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

const cents = Type.Union([Int(), Str()], { description: 'Cents, above zero.', examples: [1999] });
export const PlanBody = loose({
  name: Str({ examples: ['Gold monthly'] }),
  frequency: Str({ description: 'daily, weekly, monthly, quarterly or yearly…', examples: ['monthly'] }),
  day: Type.Union([Int(), Str()], { description: 'Day of the week or month billed, by frequency.' }),
  amount: cents,
  callback_url: Str({ description: 'Told of each billing (public https URL), signed as webhooks are.' }),
}, { examples: [{ name: 'Gold monthly', frequency: 'monthly', day: 1, amount: 1999 }] });

/** POST /plans/{id}/subscription/{customer_id} and POST /subscriptions/{id}. */
export const SubscribeBody = loose({
  amount: Type.Union([cents, Type.Null()], { description: "Overrides the plan's amount." }),
  method_id: Str({ description: "Which of the customer's methods pays (default: the customer's default)." }),
  charge_bank_account: Type.Union([Type.Boolean(), Str()], { description: "true: the customer's default bank account." }),
  ends_after: Type.Union([Int(), Str()], { description: 'Billings before the subscription ends.' }),
  bill_immediately: Type.Union([Type.Boolean(), Str()], { description: 'Make the first billing now (create only).' }),
  metadata: Type.Union([Type.Record(Str(), Type.Unknown()), Str()], { description: 'Your own keys, as an object or a JSON-encoded string.' }),
}, { examples: [{ bill_immediately: true }] });
