-- Receipts, receipt templates, and the outbox that delivers email and SMS.
-- Every merchant-owned row carries merchant_id and env; every query filters on both.

-- Spec 2.6 gives a template an integer merchant_id: merchants get a number beside their text id.
ALTER TABLE merchants ADD COLUMN number bigint GENERATED ALWAYS AS IDENTITY;

-- Merchant-wide receipt defaults, per environment (a customer's own defaults come first).
ALTER TABLE merchant_settings
  ADD COLUMN default_receipts            boolean NOT NULL DEFAULT false,
  ADD COLUMN default_receipt_template_id text;

CREATE TABLE receipt_templates (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  name          text,
  subject       text,
  receipt_text  text NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX receipt_templates_list ON receipt_templates (merchant_id, env, id DESC);

-- Durable messages. A worker claims due rows with FOR UPDATE SKIP LOCKED (safe on several nodes),
-- pushes next_attempt_at forward as a lease while it sends, and records the outcome. Nothing is
-- ever deleted: 'failed' rows stay for inspection and can be queued again.
CREATE TABLE outbox (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id      text NOT NULL REFERENCES merchants(id),
  env              text NOT NULL CHECK (env IN ('test', 'live')),
  kind             text NOT NULL CHECK (kind IN ('email', 'sms')),
  source           text,                    -- what produced it, e.g. 'receipt:12'
  payload          jsonb NOT NULL,          -- {to, subject, text, html, from_name} | {to, text}
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  last_error       text,
  created_at       timestamptz NOT NULL,
  sent_at          timestamptz
);
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX outbox_list ON outbox (merchant_id, env, id DESC);

CREATE TABLE receipts (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id          text NOT NULL REFERENCES merchants(id),
  env                  text NOT NULL CHECK (env IN ('test', 'live')),
  transaction_id       text NOT NULL REFERENCES transactions(id),
  receipt_type         text NOT NULL CHECK (receipt_type IN ('email', 'sms')),
  email_address        text,
  phone_number         text,
  receipt_template_id  text,                -- null: the built-in default template
  subject              text,
  receipt_text         text NOT NULL,       -- the rendered plain text
  outbox_id            bigint REFERENCES outbox(id),
  created_at           timestamptz NOT NULL
);
CREATE INDEX receipts_transaction ON receipts (merchant_id, env, transaction_id, id);

-- The receipt a charge asked for (send_receipt or a default). It is created after the charge
-- commits; a sweep finds due receipts that a crash left unsent.
ALTER TABLE transactions ADD COLUMN receipt_id bigint;
CREATE INDEX transactions_receipt_unsent ON transactions (created_at)
  WHERE receipt_due AND successful AND receipt_id IS NULL;
