-- The callback deliverer (jobs/callbacks.ts) takes the first few due callbacks of each merchant
-- environment: it walks the environments with pending callbacks, then reads each one's oldest
-- through this index, instead of ranking every pending callback of every merchant per batch (a
-- merchant's backlog of N made each batch a sort of N rows, and draining it quadratic).
CREATE INDEX callbacks_pending_scope ON callbacks (merchant_id, env, next_attempt_at, id) WHERE status = 'pending';
