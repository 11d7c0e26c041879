-- Charges (transactions), their refunds, and idempotency keys.

CREATE TABLE transactions (
  id                  text PRIMARY KEY,
  seq                 bigint GENERATED ALWAYS AS IDENTITY,
  merchant_id         text NOT NULL REFERENCES merchants(id),
  env                 text NOT NULL CHECK (env IN ('test', 'live')),
  source              text NOT NULL,            -- token | customer | card (later: subscription, scheduled)
  payment_method      text NOT NULL CHECK (payment_method IN ('credit_card', 'bank_account')),
  transaction_type    text NOT NULL DEFAULT 'sale',
  status              text NOT NULL,            -- SETTLED | DECLINED | RETURNED
  successful          boolean NOT NULL,
  reference_number    text NOT NULL,
  system_trace        text,
  amount_authorized   bigint NOT NULL DEFAULT 0,
  amount_settled      bigint NOT NULL DEFAULT 0,
  amount_failed       bigint NOT NULL DEFAULT 0,
  amount_refunded     bigint NOT NULL DEFAULT 0,
  authorized          boolean NOT NULL DEFAULT false,
  settled             boolean NOT NULL DEFAULT false,
  refunded            boolean NOT NULL DEFAULT false,
  voided              boolean NOT NULL DEFAULT false,
  error_code          text,
  error_message       text,
  token_id            text,
  customer_id         text,
  method_id           text,
  card_type           text,
  card_number         text,                     -- masked: only the last four digits
  card_exp_month      text,
  card_exp_year       text,
  card_owner_name     text,
  account_holder_name text,
  csc_check           text NOT NULL,
  avs_address_check   text,
  company text, website text, email text, first_name text, last_name text,
  address_1 text, address_2 text, city text, state text, zip text, country text, phone text, fax text,
  description         text,
  metadata            jsonb NOT NULL DEFAULT '{}',
  recurring           boolean NOT NULL DEFAULT false,
  receipt_due         boolean NOT NULL DEFAULT false,
  receipt_email       text,
  receipt_template_id text,
  created_at          timestamptz NOT NULL,
  processed_at        timestamptz
);
CREATE INDEX transactions_list ON transactions (merchant_id, env, seq DESC);

CREATE TABLE refunds (
  id              text PRIMARY KEY,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  transaction_id  text NOT NULL REFERENCES transactions(id),
  merchant_id     text NOT NULL,
  env             text NOT NULL,
  amount          bigint NOT NULL CHECK (amount > 0),
  created_at      timestamptz NOT NULL
);
CREATE INDEX refunds_transaction ON refunds (transaction_id, seq);

-- A POST with an Idempotency-Key runs once per (merchant, env, endpoint, key) for 24 hours.
-- status_code NULL means in progress; resource_id is written in the same transaction as the
-- record the request created, so a crash after commit replays it instead of charging again.
CREATE TABLE idempotency_keys (
  merchant_id   text NOT NULL,
  env           text NOT NULL,
  endpoint      text NOT NULL,
  key           text NOT NULL,
  request_hash  text NOT NULL,
  status_code   integer,
  response      text,
  resource_id   text,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, env, endpoint, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);
