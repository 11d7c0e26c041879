-- The origins a merchant's checkout pages are served from, per environment (issue 29): the hosted
-- fields frame may be framed only by them (CSP frame-ancestors; in test mode, with none set, by
-- any origin), and card refusals sent from them are counted apart from refusals sent by other
-- pages, so a page the merchant does not control cannot lock its visitors out of the checkout.
-- Each is an exact origin, scheme://host[:port], as a browser sends it in Origin.
ALTER TABLE merchant_settings ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}';
