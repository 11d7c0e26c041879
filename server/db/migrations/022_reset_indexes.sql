-- The test reset (server/domain/reset.ts) in time linear in what it deletes (issue 27, item 8).
--
-- 1. Every foreign key into a table the reset wipes gets an index on its referencing columns.
--    Deleting a referenced row makes PostgreSQL look for referencing rows (the key's check, once
--    per deleted row); without an index that look is a scan of the whole referencing table, dead
--    rows of the same transaction included, so a reset of N deliveries took N x N row visits
--    (32,000 deliveries: 36 s; 200,000: about 23 minutes). The nullable keys are mostly null:
--    partial indexes, which the check (`col = $1`, never true for a null) can use.
CREATE INDEX webhook_deliveries_callback ON webhook_deliveries (callback_id) WHERE callback_id IS NOT NULL;
CREATE INDEX webhook_deliveries_outbox ON webhook_deliveries (outbox_id) WHERE outbox_id IS NOT NULL;
CREATE INDEX receipts_outbox ON receipts (outbox_id) WHERE outbox_id IS NOT NULL;
-- receipts_transaction leads with merchant_id: no use to a look-up by transaction_id alone.
CREATE INDEX receipts_transaction_id ON receipts (transaction_id);
CREATE INDEX billings_parent ON billings (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX billings_plan ON billings (plan_id);
-- subscriptions_plan leads with merchant_id, env (the key is plan_id alone).
CREATE INDEX subscriptions_plan_id ON subscriptions (plan_id);
-- invoices_list has merchant_id, env but then seq: every invoice of the environment per customer.
CREATE INDEX invoices_customer ON invoices (merchant_id, env, customer_id) WHERE customer_id IS NOT NULL;

-- 2. Every table the reset wipes can be reached by its merchant and environment through an index,
--    so a reset reads its own rows, not every merchant's.
CREATE INDEX callback_attempts_scope ON callback_attempts (merchant_id, env);
CREATE INDEX webhook_rule_strategies_scope ON webhook_rule_strategies (merchant_id, env);
-- plans_list covers the plans not deleted only.
CREATE INDEX plans_scope ON plans (merchant_id, env);
-- Tokens: 012 dropped (merchant_id, env, created_at) because the planner, on stale statistics,
-- chose it over the primary key to consume one token. This index is on an expression no other
-- statement writes ((merchant_id || '')), so only the reset's DELETE, which names it, can use it;
-- and on test tokens only, so a live token's insert never updates it.
CREATE INDEX tokens_test_reset ON tokens ((merchant_id || '')) WHERE env = 'test';
