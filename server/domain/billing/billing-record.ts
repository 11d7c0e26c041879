// A billing as stored and as the API shows it; billings.ts makes them, subscriptions.ts shows the last one.

export type BillingStatus = 'pending' | 'success' | 'failed' | 'retried';

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
