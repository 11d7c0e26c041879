-- Merchants, their key sets, and one-time payment tokens.
-- Every merchant-owned row carries merchant_id and env; every query filters on both.

CREATE TABLE merchants (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  live_enabled  boolean NOT NULL DEFAULT false,
  demo          boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL
);

-- Per merchant and environment: verification switches and receipt defaults.
CREATE TABLE merchant_settings (
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  cvv_check     boolean NOT NULL DEFAULT false,
  zip_check     boolean NOT NULL DEFAULT false,
  PRIMARY KEY (merchant_id, env)
);

-- Private keys are kept only as SHA-256 hashes; public keys are not secret and kept whole.
CREATE TABLE api_keys (
  key_hash      text PRIMARY KEY,
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  kind          text NOT NULL CHECK (kind IN ('pk', 'sk')),
  key_set_id    text NOT NULL,
  redacted      text NOT NULL,
  public_key    text,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz
);
CREATE INDEX api_keys_set ON api_keys (merchant_id, env, key_set_id);

CREATE TABLE tokens (
  id              text PRIMARY KEY,
  merchant_id     text NOT NULL REFERENCES merchants(id),
  env             text NOT NULL CHECK (env IN ('test', 'live')),
  token_type      text NOT NULL CHECK (token_type IN ('credit_card', 'bank_account')),
  -- card
  card_type       text,
  card_owner_name text,
  last_4          text,
  bin             text,
  card_exp_month  integer,
  card_exp_year   integer,
  bin_brand       text,
  bin_type        text,
  bin_level       text,
  -- bank account (the routing number identifies a bank, not a person: kept in clear)
  bank_routing_number            text,
  bank_account_holder_first_name text,
  bank_account_holder_last_name  text,
  bank_account_type              text,
  -- billing address
  address_1 text, address_2 text, city text, state text, zip text, country text,
  -- vault: PAN or account number (AES-256-GCM, key id inside); CVV apart so it can be wiped on use
  secret_enc      text NOT NULL,
  csc_enc         text,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX tokens_merchant ON tokens (merchant_id, env, created_at);
