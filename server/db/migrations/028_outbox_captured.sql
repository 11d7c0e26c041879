-- Test-mode email and SMS are captured, not sent (issue 30, docs/decisions/test-messages.md): the
-- outbox worker gives such a message the status 'captured' where it would have handed it to SMTP
-- or the SMS bridge. The check widens; every row the old one allowed still passes.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check CHECK (status IN ('pending', 'sent', 'failed', 'captured'));
