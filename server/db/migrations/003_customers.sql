-- Customers, their stored payment methods, and the minimal recurring tables that method
-- deletion checks against. Every row carries merchant_id and env; every query filters on both.

-- Ids are unique per merchant and environment (custom ids may repeat across merchants).
-- Deletion is soft: the id stays taken, so charges that name it keep meaning one customer.
CREATE TABLE customers (
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  id            text NOT NULL,
  seq           bigint GENERATED ALWAYS AS IDENTITY,   -- newest-first order when created_at ties
  first_name text, last_name text, company text, email text, phone text, fax text, website text,
  address_1 text, address_2 text, city text, state text, zip text,
  country       text NOT NULL DEFAULT 'USA',
  metadata      jsonb NOT NULL DEFAULT '{}',
  default_receipts            boolean NOT NULL DEFAULT false,
  default_receipt_template_id text,
  default_method_id           text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  deleted_at    timestamptz,
  PRIMARY KEY (merchant_id, env, id)
);
CREATE INDEX customers_list ON customers (merchant_id, env, seq DESC) WHERE deleted_at IS NULL;

-- A method without secret_enc is a placeholder with null details (spec 2.4). The card number or
-- account number lives only in secret_enc (vault blob copied from the token); no CVV is kept.
CREATE TABLE payment_methods (
  merchant_id     text NOT NULL,
  env             text NOT NULL CHECK (env IN ('test', 'live')),
  id              text NOT NULL,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  customer_id     text NOT NULL,
  method_type     text NOT NULL CHECK (method_type IN ('credit_card', 'bank_account')),
  token_id        text,                     -- the token the details came from, for audit
  card_type text, card_owner_name text, last_4 text, bin text,
  card_exp_month integer, card_exp_year integer, csc_check text,
  bank_routing_number text, bank_account_holder_first_name text, bank_account_holder_last_name text,
  bank_account_type text,
  company text, address_1 text, address_2 text, city text, state text, zip text, country text,
  secret_enc      text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  deleted_at      timestamptz,
  PRIMARY KEY (merchant_id, env, id),
  FOREIGN KEY (merchant_id, env, customer_id) REFERENCES customers (merchant_id, env, id)
);
CREATE INDEX payment_methods_customer ON payment_methods (merchant_id, env, customer_id, seq);

-- Minimal shapes so that method deletion can refuse methods in use (10208, 17104).
-- The recurring-billing work (plans, subscriptions, scheduled transactions) extends these tables
-- with ALTER TABLE; it keeps the columns below and their meaning.
CREATE TABLE subscriptions (
  merchant_id   text NOT NULL,
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  id            text NOT NULL,
  customer_id   text NOT NULL,
  method_id     text,
  status        text NOT NULL,            -- 'active' until unsubscribed ('cancelled')
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, env, id)
);
CREATE INDEX subscriptions_method ON subscriptions (merchant_id, env, method_id);
CREATE INDEX subscriptions_customer ON subscriptions (merchant_id, env, customer_id);

CREATE TABLE scheduled_transactions (
  merchant_id   text NOT NULL,
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  id            text NOT NULL,
  customer_id   text NOT NULL,
  method_id     text,
  status        text NOT NULL,            -- 'scheduled' until billed, failed or 'cancelled'
  bill_on       date NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, env, id)
);
CREATE INDEX scheduled_transactions_method ON scheduled_transactions (merchant_id, env, method_id);
CREATE INDEX scheduled_transactions_customer ON scheduled_transactions (merchant_id, env, customer_id);
