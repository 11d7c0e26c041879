-- The dashboard's summary (domain/reports.ts) groups one merchant environment's charges, refunds
-- and new customers by UTC day over the last days (at most 90). Each index serves its part of the
-- one statement by a range scan on (merchant_id, env, created_at); INCLUDE carries the columns
-- summed, so PostgreSQL can answer from the index alone.
CREATE INDEX transactions_by_day ON transactions (merchant_id, env, created_at) INCLUDE (successful, amount_settled);
CREATE INDEX refunds_by_day ON refunds (merchant_id, env, created_at) INCLUDE (amount);
CREATE INDEX customers_by_day ON customers (merchant_id, env, created_at);
