-- Idempotency claims fenced by the database, not by node clocks. `claim` names the one request that
-- holds the key: every transaction that request commits checks it still does (and marks the key
-- `committed`) in the same transaction, so a retry that took an abandoned claim over can never run
-- beside a first request that is still committing: whichever comes second finds the claim changed
-- (or waits for the other's row lock and then sees its commit). `claimed_at` is the database's
-- own time of the claim, so how long a claim has been held never depends on a node's clock.
ALTER TABLE idempotency_keys ADD COLUMN claim text;
ALTER TABLE idempotency_keys ADD COLUMN claimed_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE idempotency_keys ADD COLUMN committed boolean NOT NULL DEFAULT false;
UPDATE idempotency_keys SET committed = true WHERE resource_id IS NOT NULL OR status_code IS NOT NULL;
