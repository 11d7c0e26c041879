-- When a private key was first seen where only a public key belongs (the browser's JSONP
-- endpoint): the dashboard warns that it is compromised and should be rolled.
ALTER TABLE api_keys ADD COLUMN exposed_at timestamptz;
