-- Recurring billing: plans, subscriptions, billings, scheduled transactions, billing callbacks.
-- Every merchant-owned row carries merchant_id and env; every query filters on both.
-- subscriptions and scheduled_transactions were created minimal by 003_customers.sql (method
-- deletion checks them: 10208, 17104); they are extended here, keeping those columns and meanings.

CREATE TABLE plans (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  name          text NOT NULL,
  frequency     text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly', 'quarterly', 'yearly')),
  day           integer,                  -- weekly 0–6 (0 = Sunday); else day of month 1–31; null = the start's
  amount        bigint NOT NULL CHECK (amount > 0),
  callback_url  text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  deleted_at    timestamptz               -- soft: billings and subscriptions keep naming the plan
);
CREATE INDEX plans_list ON plans (merchant_id, env, id DESC) WHERE deleted_at IS NULL;

-- Subscriptions have integer ids (billings carry an integer subscription_id, spec 2.8). The text
-- primary key of 003 stays; a subscription made here has id = number::text.
CREATE SEQUENCE subscription_numbers;
ALTER TABLE subscriptions
  ADD COLUMN number              bigint UNIQUE,
  ADD COLUMN plan_id             bigint REFERENCES plans(id),
  ADD COLUMN amount              bigint CHECK (amount > 0),
  ADD COLUMN frequency           text,
  ADD COLUMN day                 integer,
  ADD COLUMN anchor_date         date,         -- the start date every billing date is computed from
  ADD COLUMN bill_immediately    boolean NOT NULL DEFAULT false,
  ADD COLUMN charge_bank_account boolean,
  ADD COLUMN ends_after          integer CHECK (ends_after > 0),
  ADD COLUMN billed_count        integer NOT NULL DEFAULT 0,   -- scheduled runs so far (retries excluded)
  ADD COLUMN next_billing        timestamptz,  -- null once cancelled or ended
  ADD COLUMN metadata            jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN updated_at          timestamptz,
  ADD COLUMN cancelled_at        timestamptz;
-- status: 'active' → 'cancelled' (DELETE, or the customer deleted) | 'ended' (ends_after reached)
CREATE INDEX subscriptions_due ON subscriptions (next_billing) WHERE status = 'active';
CREATE INDEX subscriptions_plan ON subscriptions (merchant_id, env, plan_id, number DESC);
CREATE INDEX subscriptions_list ON subscriptions (merchant_id, env, number DESC);
-- One active subscription of a customer to a plan; history (cancelled, ended) may repeat.
CREATE UNIQUE INDEX subscriptions_one_active ON subscriptions (merchant_id, env, plan_id, customer_id)
  WHERE status = 'active' AND plan_id IS NOT NULL;

-- One row per run of a subscription, and one per retry (parent_id = the failed billing).
CREATE TABLE billings (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id           text NOT NULL REFERENCES merchants(id),
  env                   text NOT NULL CHECK (env IN ('test', 'live')),
  plan_id               bigint NOT NULL REFERENCES plans(id),
  subscription_id       bigint NOT NULL REFERENCES subscriptions(number),
  sequence              integer NOT NULL,     -- which run of the subscription (1 = the first)
  customer_id           text NOT NULL,
  transaction_id        text NOT NULL,        -- the charge; or a reserved id when no charge could be made
  transaction_status    text NOT NULL,        -- submitted | declined | returned | error
  amount                bigint NOT NULL,
  customer_display_name text NOT NULL,
  metadata              jsonb NOT NULL DEFAULT '{}',
  status                text NOT NULL CHECK (status IN ('success', 'failed', 'retried')),
  parent_id             bigint REFERENCES billings(id),
  scheduled_for         timestamptz NOT NULL, -- when this run was due
  error_code            text,
  error_message         text,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
-- The database itself refuses a second charge for one run of a subscription.
CREATE UNIQUE INDEX billings_one_per_run ON billings (subscription_id, sequence) WHERE parent_id IS NULL;
CREATE UNIQUE INDEX billings_transaction ON billings (merchant_id, env, transaction_id);
CREATE INDEX billings_list ON billings (merchant_id, env, id DESC);
CREATE INDEX billings_subscription ON billings (subscription_id, id DESC);

-- Scheduled one-off transactions (spec 2.7). Status: 'scheduled' → 'billed' | 'failed' | 'cancelled'.
ALTER TABLE scheduled_transactions
  ADD COLUMN seq                 bigint GENERATED ALWAYS AS IDENTITY,
  ADD COLUMN amount              bigint CHECK (amount > 0),
  ADD COLUMN transaction_id      text,
  ADD COLUMN token               text,
  ADD COLUMN new_record          boolean NOT NULL DEFAULT false,
  ADD COLUMN send_receipt        boolean,
  ADD COLUMN receipt_template_id text,
  ADD COLUMN email_address       text,
  ADD COLUMN charge_bank_account boolean,
  ADD COLUMN description         text,
  ADD COLUMN metadata            jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN ip_address          text,
  ADD COLUMN company text, ADD COLUMN website text, ADD COLUMN address_1 text, ADD COLUMN address_2 text,
  ADD COLUMN city text, ADD COLUMN state text, ADD COLUMN zip text,
  ADD COLUMN phone_number text, ADD COLUMN fax_number text,
  ADD COLUMN card_owner_name text,
  ADD COLUMN bank_account_holder_first_name text,
  ADD COLUMN bank_account_holder_last_name text,
  ADD COLUMN error_code          text,
  ADD COLUMN error_message       text,
  ADD COLUMN updated_at          timestamptz,
  ADD COLUMN billed_at           timestamptz;
CREATE INDEX scheduled_transactions_due ON scheduled_transactions (bill_on) WHERE status = 'scheduled';
CREATE INDEX scheduled_transactions_list ON scheduled_transactions (merchant_id, env, seq DESC);

-- Per merchant and environment: the key that signs billing callbacks (Tessera-Signature).
-- Kept encrypted by the vault. The webhooks work is meant to sign its deliveries with it too.
CREATE TABLE webhook_secrets (
  merchant_id   text NOT NULL REFERENCES merchants(id),
  env           text NOT NULL CHECK (env IN ('test', 'live')),
  secret_enc    text NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, env)
);

-- Billing callbacks: a POST of the billing to the plan's callback_url, queued in the same
-- transaction as the billing and delivered at least once by whichever node claims it (SKIP LOCKED).
CREATE TABLE callbacks (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id      text NOT NULL REFERENCES merchants(id),
  env              text NOT NULL CHECK (env IN ('test', 'live')),
  billing_id       bigint NOT NULL REFERENCES billings(id),
  url              text NOT NULL,
  body             text NOT NULL,           -- the exact bytes signed and sent
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,    -- real time (network retries do not follow test clocks)
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL,
  sent_at          timestamptz
);
CREATE INDEX callbacks_due ON callbacks (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX callbacks_billing ON callbacks (billing_id);
