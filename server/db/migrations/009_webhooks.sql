-- Webhooks: rules (which events), strategies (how to tell the merchant), their relations, and one
-- delivery per event and strategy. Every merchant-owned row carries merchant_id and env; every
-- query filters on both.

CREATE TABLE webhook_rules (
  id              text PRIMARY KEY,                 -- rule_<16 hex>
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  merchant_id     text NOT NULL REFERENCES merchants(id),
  env             text NOT NULL CHECK (env IN ('test', 'live')),
  event_resource  text NOT NULL,                    -- a key of EVENT_TYPES (server/domain/events.ts)
  event_types     jsonb NOT NULL DEFAULT '[]',      -- full type names; [] = every type of the resource
  constraints     jsonb NOT NULL DEFAULT '[]',      -- [{field, operator, value}] (server/domain/constraints.ts)
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX webhook_rules_match ON webhook_rules (merchant_id, env, event_resource);
CREATE INDEX webhook_rules_list ON webhook_rules (merchant_id, env, seq DESC);

CREATE TABLE webhook_strategies (
  id             text PRIMARY KEY,                  -- strat_<16 hex>
  seq            bigint GENERATED ALWAYS AS IDENTITY,
  merchant_id    text NOT NULL REFERENCES merchants(id),
  env            text NOT NULL CHECK (env IN ('test', 'live')),
  mode           text NOT NULL CHECK (mode IN ('webhook', 'email', 'sms')),
  url            text,
  email_address  text,
  phone_number   text,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CHECK ((mode = 'webhook') = (url IS NOT NULL)),
  CHECK ((mode = 'email') = (email_address IS NOT NULL)),
  CHECK ((mode = 'sms') = (phone_number IS NOT NULL))
);
CREATE INDEX webhook_strategies_list ON webhook_strategies (merchant_id, env, seq DESC);

-- A strategy runs for an event when a related rule matches it. Deleting either side drops the relation.
CREATE TABLE webhook_rule_strategies (
  rule_id      text NOT NULL REFERENCES webhook_rules(id) ON DELETE CASCADE,
  strategy_id  text NOT NULL REFERENCES webhook_strategies(id) ON DELETE CASCADE,
  merchant_id  text NOT NULL REFERENCES merchants(id),
  env          text NOT NULL CHECK (env IN ('test', 'live')),
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (rule_id, strategy_id)
);
CREATE INDEX webhook_rule_strategies_strategy ON webhook_rule_strategies (strategy_id);

-- HTTP deliveries go through the billing-callback queue of 007 (one signed-POST mechanism, one
-- worker, one signing secret). Generalised here: a callback is a billing's or an event's, and it
-- may carry its own attempt budget (webhook deliveries retry for about a day).
ALTER TABLE callbacks ALTER COLUMN billing_id DROP NOT NULL;
ALTER TABLE callbacks ADD COLUMN max_attempts integer CHECK (max_attempts > 0);  -- null: the worker's default

-- Every attempt of every callback: when, the HTTP status (null when none came back), the error.
CREATE TABLE callback_attempts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  callback_id  bigint NOT NULL REFERENCES callbacks(id),
  merchant_id  text NOT NULL REFERENCES merchants(id),
  env          text NOT NULL CHECK (env IN ('test', 'live')),
  attempt      integer NOT NULL,
  at           timestamptz NOT NULL,
  status_code  integer,
  error        text,
  duration_ms  integer
);
CREATE INDEX callback_attempts_callback ON callback_attempts (callback_id, id);

-- One delivery per event and strategy (the unique key makes a second dispatch of an event a no-op).
-- A webhook delivery is a callback; an email or SMS delivery is an outbox message. Deliveries are
-- history: they keep the rule and strategy ids and the target even after those are deleted.
CREATE TABLE webhook_deliveries (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id  text NOT NULL REFERENCES merchants(id),
  env          text NOT NULL CHECK (env IN ('test', 'live')),
  event_id     text NOT NULL REFERENCES events(id),
  rule_id      text NOT NULL,
  strategy_id  text NOT NULL,
  mode         text NOT NULL CHECK (mode IN ('webhook', 'email', 'sms')),
  target       text NOT NULL,            -- the url, email address or phone number at dispatch time
  callback_id  bigint REFERENCES callbacks(id),
  outbox_id    bigint REFERENCES outbox(id),
  created_at   timestamptz NOT NULL,
  CHECK ((mode = 'webhook') = (callback_id IS NOT NULL) AND (mode <> 'webhook') = (outbox_id IS NOT NULL)),
  UNIQUE (event_id, strategy_id)
);
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (merchant_id, env, id DESC);
