-- Proof, at every start, that this node's data key reads what is stored (server/vault-canary.ts):
-- a known text encrypted by the vault, one row per data key id. A node whose keys match no row
-- refuses to start instead of answering 500 on every read of card data (and, on PostgreSQL,
-- issuing tokens the other nodes cannot read). Rotation adds the new key's row beside the old.
CREATE TABLE vault_canary (
  key_id     text PRIMARY KEY,
  blob       text NOT NULL,
  created_at timestamptz NOT NULL
);
