-- Tokens are only ever looked up by id (issue, consume, show); the (merchant_id, env, created_at)
-- index served no query but the test reset, and cost every token insert an index update. Worse,
-- with stale planner statistics (a table filled faster than autovacuum analyses it) PostgreSQL
-- chose it for `id = $1 AND merchant_id = $2 AND env = $3` and walked all of a merchant's tokens
-- to consume one: about 1 ms per 1,000 tokens, measured in the two-node bench. Without it the
-- primary key is the only way in.
DROP INDEX IF EXISTS tokens_merchant;
