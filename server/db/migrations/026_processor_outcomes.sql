-- Live processing in three steps (issue 28): a live charge or refund is recorded before its
-- processor is called (transaction 1), and its outcome after (transaction 2). Between the two, and
-- whenever the outcome is not known (a timeout, a dropped connection, a node that died), the row
-- is unresolved: `pending_since` is set, and the reconciler asks the processor about it, one node
-- at a time (`reconcile_after` is both its next look and the claim of the node looking now).
-- `processor` is what the processor said: {connector, amount, id, auth_code, avs, cvv, reason_code, message}.
ALTER TABLE transactions ADD COLUMN processor jsonb;
ALTER TABLE transactions ADD COLUMN pending_since timestamptz;
ALTER TABLE transactions ADD COLUMN reconcile_after timestamptz;
CREATE INDEX transactions_unresolved ON transactions (reconcile_after) WHERE pending_since IS NOT NULL;

-- A refund is `succeeded` as before; a live one is `pending` until its processor answers, and
-- `failed` when it refused it. `kind` says how the money went back: a refund, or a void of a sale
-- the processor had not settled.
ALTER TABLE refunds ADD COLUMN status text NOT NULL DEFAULT 'succeeded' CHECK (status IN ('pending', 'succeeded', 'failed'));
ALTER TABLE refunds ADD COLUMN kind text NOT NULL DEFAULT 'refund' CHECK (kind IN ('refund', 'void'));
ALTER TABLE refunds ADD COLUMN processor jsonb;
ALTER TABLE refunds ADD COLUMN pending_since timestamptz;
ALTER TABLE refunds ADD COLUMN reconcile_after timestamptz;
CREATE INDEX refunds_unresolved ON refunds (reconcile_after) WHERE pending_since IS NOT NULL;

-- A live subscription's billing, or a scheduled transaction, is `pending` / `processing` from its
-- run until its charge's outcome is recorded (charge-finish.ts).
ALTER TABLE billings DROP CONSTRAINT billings_status_check;
ALTER TABLE billings ADD CONSTRAINT billings_status_check CHECK (status IN ('pending', 'success', 'failed', 'retried'));
