-- A merchant's test environment can run ahead of real time (test clock). "Now" for a test-mode
-- request is the real time plus this offset; live mode never has one. Time only moves forward.
CREATE TABLE test_clocks (
  merchant_id  text PRIMARY KEY REFERENCES merchants(id),
  offset_ms    bigint NOT NULL CHECK (offset_ms >= 0),
  updated_at   timestamptz NOT NULL
);
