import type { FastifyInstance } from 'fastify';

/**
 * The policy of every page Tessera serves (demo checkout, landing page, /docs, /dashboard): scripts,
 * styles, fetches and images from this origin only, no inline script or style, no plugins, no
 * <base> rewriting, no form posting anywhere (the pages submit through script), and no framing.
 * The dashboard holds a private key in this origin, so one injected script would be one too many.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The demo checkout frames the hosted card fields from this origin.
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Hardening headers on every answer, as one hook rather than per route:
 * - `Cache-Control: no-store` unless the route chose its own cache policy (the tokenizer bundles,
 *   /api/v1/openapi.json); an error never keeps a route's public cache.
 * - CSP, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, `X-Content-Type-Options: nosniff`
 *   on everything, whatever its type: browsers apply them to documents and ignore them on scripts,
 *   so a page added later, or JSON opened in a tab, is covered without anyone remembering to.
 */
export function registerHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control') || reply.statusCode >= 400) reply.header('cache-control', 'no-store');
    // A route that sets its own policy (the hosted fields' frame: frame-ancestors from the
    // merchant's allowed_origins) keeps it, and is framed by what it names, not refused by DENY.
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', PAGE_CSP);
      reply.header('x-frame-options', 'DENY');
    }
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
}
