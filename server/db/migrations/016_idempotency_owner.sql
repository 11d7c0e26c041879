-- Idempotency keys: which process holds an in-progress claim (a retry can tell a dead owner from a
-- busy one), and no unkeyed fingerprint left behind. Until now request_hash was SHA-256 of the
-- whole body, card number and CVV included; fingerprints are now HMAC-keyed from the data key
-- (h2.<key id>.<hex>) and leave card fields out. The old ones are erased here: for the rest of their
-- 24 hours those keys replay on the key alone (server/http/idempotency.ts).
ALTER TABLE idempotency_keys ADD COLUMN owner text;
UPDATE idempotency_keys SET request_hash = 'legacy' WHERE request_hash NOT LIKE 'h2.%';
