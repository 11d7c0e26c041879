-- Which data key the cluster writes under (server/vault-cluster.ts). `tessera data-key reencrypt`
-- makes its key 'current' and every other key that has written here (a canary row, the previous
-- current key) 'retired': nothing may be written under a retired key again. A running node whose
-- key is retired, or that does not hold the current one, reports /readyz 503 and refuses to write
-- payment data (VAULT03) until it is restarted with the right key; a node started with a retired
-- key refuses to start. The first start on a database records its key as current.
CREATE TABLE data_keys (
  key_id text PRIMARY KEY,
  state  text NOT NULL CHECK (state IN ('current', 'retired')),
  since  timestamptz NOT NULL
);
CREATE UNIQUE INDEX data_keys_one_current ON data_keys (state) WHERE state = 'current';
