-- A rotated signing secret may stay valid a while (POST /webhooks/secret/rotate, expire_old 1h or
-- 24h): deliveries then carry a signature with each secret, so receivers can deploy the new one
-- without refusing anything meanwhile (as Stripe's "roll secret" does).
ALTER TABLE webhook_secrets
  ADD COLUMN previous_secret_enc text,
  ADD COLUMN previous_expires_at timestamptz;
