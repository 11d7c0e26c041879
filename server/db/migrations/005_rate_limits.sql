-- Fixed-window counters for the card-testing defence when several nodes share PostgreSQL.
-- (Embedded PGlite is single-process by its lock and counts in memory instead.)
CREATE TABLE rate_counters (
  bucket        text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_counters_age ON rate_counters (window_start);
