-- A test-clock advance runs in bounded steps (issue 14): the clock row says whether one is under
-- way, where it goes and how far it has got, and which worker holds it. `advance_state`: 'ready'
-- (none), 'running' (inside the request that asked for it, which answers within a bounded number
-- of runs), 'background' (answered 202; a worker finishes it). The worker holds a lease
-- (`advance_owner`, `advance_lease`, real time): when its node dies, any node takes it over.
-- While an advance is under way, "now" (offset_ms) is the point it has reached.
ALTER TABLE test_clocks
  ADD COLUMN advance_state text NOT NULL DEFAULT 'ready' CHECK (advance_state IN ('ready', 'running', 'background')),
  ADD COLUMN advance_from timestamptz,
  ADD COLUMN advance_to timestamptz,
  ADD COLUMN advance_base timestamptz,
  ADD COLUMN advance_reached timestamptz,
  ADD COLUMN advance_ran jsonb,
  ADD COLUMN advance_owner text,
  ADD COLUMN advance_lease timestamptz,
  ADD COLUMN advance_started_at timestamptz,
  ADD COLUMN advance_finished_at timestamptz;
