-- Invoices (spec 4.11). Every row carries merchant_id and env; every query filters on both.
-- Status: 'unpaid' → 'partially_paid' | 'paid' (mark_as_paid), 'unpaid' → 'deleted' (DELETE),
-- 'partially_paid' → 'partially_paid' | 'paid'. Deletion is soft: a deleted invoice stays readable.
CREATE TABLE invoices (
  merchant_id          text NOT NULL REFERENCES merchants(id),
  env                  text NOT NULL CHECK (env IN ('test', 'live')),
  id                   text NOT NULL,
  seq                  bigint GENERATED ALWAYS AS IDENTITY,   -- newest-first order when created_at ties
  status               text NOT NULL CHECK (status IN ('unpaid', 'partially_paid', 'paid', 'deleted')),
  customer_id          text,                                  -- a stored customer, or null
  customer_first_name text, customer_last_name text, customer_email text, customer_address_1 text,
  customer_address_2 text, customer_city text, customer_state text, customer_zip text,
  customer_company text, customer_phone text, customer_fax text,
  items                jsonb NOT NULL,                        -- [{description, quantity, unit_amount, amount}]
  amount               bigint NOT NULL CHECK (amount > 0),    -- sum of the line amounts, cents
  amount_paid          bigint NOT NULL DEFAULT 0 CHECK (amount_paid >= 0 AND amount_paid <= amount),
  payments             jsonb NOT NULL DEFAULT '[]',           -- [{id, amount, created_at}] from mark_as_paid
  due_date             date,
  memo                 text,
  metadata             jsonb NOT NULL DEFAULT '{}',
  outbox_id            bigint,                                -- the latest email queued for it
  delivered_at         timestamptz,                           -- when that email was queued
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  paid_at              timestamptz,
  deleted_at           timestamptz,
  PRIMARY KEY (merchant_id, env, id),
  FOREIGN KEY (merchant_id, env, customer_id) REFERENCES customers (merchant_id, env, id)
);
CREATE INDEX invoices_list ON invoices (merchant_id, env, seq DESC);
