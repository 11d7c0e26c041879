-- POST /test_helpers/settle reads one merchant environment's callbacks (webhook deliveries and
-- billing callbacks) by state several times per call; the table keeps every delivery ever made,
-- so without this index each read would scan all merchants' rows.
CREATE INDEX callbacks_scope ON callbacks (merchant_id, env, status);
