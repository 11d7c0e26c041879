// A billing as stored and as the API shows it; billings.ts makes them, subscriptions.ts shows the last one.

export type BillingStatus = 'success' | 'failed' | 'retried';

export interface BillingRow {
  id: number;
  merchant_id: string;
  env: 'test' | 'live';
  plan_id: number;
  subscription_id: number;
  sequence: number;
  customer_id: string;
  transaction_id: string;
  transaction_status: string;
  amount: number;
  customer_display_name: string;
  metadata: Record<string, unknown>;
  status: BillingStatus;
  parent_id: number | null;
  scheduled_for: Date;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Spec 2.1: billing timestamps are space-separated, `YYYY-MM-DD HH:MM:SS` (UTC). */
export function billingTime(d: Date): string {
  return new Date(d).toISOString().slice(0, 19).replace('T', ' ');
}

/** Spec 2.8, plus class, sequence, scheduled_for and the error of a failed run. */
export function presentBilling(b: BillingRow) {
  return {
    class: 'billing',
    id: b.id,
    plan_id: b.plan_id,
    subscription_id: b.subscription_id,
    merchant_id: b.merchant_id,
    customer_id: b.customer_id,
    transaction_id: b.transaction_id,
    transaction_status: b.transaction_status,
    amount: b.amount,
    customer_display_name: b.customer_display_name,
    metadata: JSON.stringify(b.metadata ?? {}),
    created_at: billingTime(b.created_at),
    updated_at: billingTime(b.updated_at),
    status: b.status,
    parent_id: b.parent_id,
    sequence: b.sequence,
    scheduled_for: billingTime(b.scheduled_for),
    error_code: b.error_code,
    error_message: b.error_message,
  };
}
