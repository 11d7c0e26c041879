-- Account updater (spec 2.9, 4.7): batches of stored cards with new expiry dates. A batch is
-- kept with every entry as it was answered; the review later writes the accepted dates to the
-- payment methods. Every row carries merchant_id and env; every query filters on both.
CREATE TABLE account_updates (
  merchant_id     text NOT NULL REFERENCES merchants(id),
  env             text NOT NULL CHECK (env IN ('test', 'live')),
  id              text NOT NULL,
  status          text NOT NULL CHECK (status IN ('received', 'completed')),
  accepted_count  integer NOT NULL,
  rejected_count  integer NOT NULL,
  applied_count   integer,                  -- set by the review
  unapplied       jsonb,                    -- set by the review: keys of accepted entries whose dates were not written
  created_at      timestamptz NOT NULL,
  review_at       timestamptz NOT NULL,     -- on the merchant's clock (test clock in test mode)
  completed_at    timestamptz,
  PRIMARY KEY (merchant_id, env, id)
);
CREATE INDEX account_updates_due ON account_updates (review_at) WHERE status = 'received';

CREATE TABLE account_update_entries (
  merchant_id     text NOT NULL,
  env             text NOT NULL CHECK (env IN ('test', 'live')),
  update_id       text NOT NULL,
  idx             integer NOT NULL,         -- the request's key: "0", "1", …
  payment_id      text,                     -- as sent (trimmed, at most 64 characters)
  card_exp_month  jsonb,                    -- as sent: an integer, or the unreadable value as a string
  card_exp_year   jsonb,
  accepted        boolean NOT NULL,
  errors          jsonb,                    -- [{code, message}] of a rejected entry
  token_id        text,                     -- the card the method held when accepted (a new card is not overwritten)
  PRIMARY KEY (merchant_id, env, update_id, idx),
  FOREIGN KEY (merchant_id, env, update_id) REFERENCES account_updates (merchant_id, env, id)
);
