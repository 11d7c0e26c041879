-- Every event a merchant can subscribe to, written in the same transaction as the change it
-- describes. The webhook dispatcher claims undispatched rows with FOR UPDATE SKIP LOCKED.
CREATE TABLE events (
  id             text PRIMARY KEY,
  seq            bigint GENERATED ALWAYS AS IDENTITY,
  merchant_id    text NOT NULL REFERENCES merchants(id),
  env            text NOT NULL CHECK (env IN ('test', 'live')),
  resource       text NOT NULL,
  type           text NOT NULL,
  data           jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  dispatched_at  timestamptz
);
CREATE INDEX events_undispatched ON events (seq) WHERE dispatched_at IS NULL;
CREATE INDEX events_merchant ON events (merchant_id, env, seq DESC);
