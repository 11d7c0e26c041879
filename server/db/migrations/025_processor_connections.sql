-- A merchant environment's processor connection, as the operator set it (`tessera processor set`,
-- server/domain/processor-connections.ts): which connector its live charges go through, its plain
-- settings (a login id, an endpoint, sandbox or not: shown by `tessera processor show` and the
-- dashboard) and its secrets, one vault blob of their JSON sealed to this row (vault-homes.ts,
-- processorHome; `tessera data-key reencrypt` rewrites it). secret_names lists which secrets the blob
-- holds, so showing a connection never decrypts it. Test mode always charges through the
-- simulator: the command refuses env 'test', the column keeps the usual check.
CREATE TABLE processor_connections (
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  connector     text NOT NULL,
  settings      jsonb NOT NULL DEFAULT '{}',
  secrets_enc   text NOT NULL,
  secret_names  jsonb NOT NULL DEFAULT '[]',
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, env)
);
