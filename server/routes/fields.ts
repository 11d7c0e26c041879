import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KeyIdentity } from '../domain/merchant/keys.js';
import { allowedOrigins } from '../domain/merchant/allowed-origins.js';
import { E, GatewayError } from '../errors.js';
import { identify } from '../http/auth.js';
import { loadAsset } from '../lib/assets.js';
import { PUBLIC_DIR, TOKENIZER_DIR } from '../paths.js';

/**
 * Who may frame the card fields of a key's environment (CSP frame-ancestors): its allowed_origins;
 * in test mode with none set, any page (and with some set, this gateway's own pages too: the demo
 * checkout); in live mode with none set, no page. An unknown key's frame may be framed anywhere:
 * it holds nothing, and its tokenize answers AUTH01 as generateToken would.
 */
export function frameAncestors(id: Pick<KeyIdentity, 'env'> | null, allowed: readonly string[]): string {
  // The frame reads the same one key (src/frame.ts): unknown here is unknown there, and its tokenize answers AUTH01.
  if (!id) return '*';
  if (id.env === 'test') return allowed.length ? ["'self'", ...allowed].join(' ') : '*';
  return allowed.length ? allowed.join(' ') : "'none'";
}

/** The frame document's policy: its own script, style and token request only. */
export const frameCsp = (ancestors: string) =>
  ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'",
    "form-action 'none'", `frame-ancestors ${ancestors}`].join('; ');

/**
 * Hosted fields (issue 29): the page's loader at /fields.js (short cache), at a content-versioned
 * URL (immutable, for Subresource Integrity) and described by /fields.json; the frame document at
 * /fields/frame?key=<public key> with its script and style. The loader is fetched cross-origin by
 * merchant pages, so it allows CORS reads: a page pinning it with `integrity` needs
 * `crossorigin="anonymous"`, and SRI needs the CORS answer.
 */
export default async function fieldsRoutes(app: FastifyInstance) {
  const loader = loadAsset(TOKENIZER_DIR, 'fields.js');
  const frameJs = loadAsset(TOKENIZER_DIR, 'frame.js');
  const frameHtml = readFileSync(join(PUBLIC_DIR, 'fields', 'frame.html'));
  const frameCss = readFileSync(join(PUBLIC_DIR, 'fields', 'frame.css'));
  const missing = () => new GatewayError(E.NO_ENDPOINT, 'hosted fields not built; run npm run build');
  const js = 'application/javascript; charset=utf-8';
  const options = { config: { access: 'none' as const } };

  app.get('/fields.js', options, async (_req, reply) => {
    if (!loader) throw missing();
    return reply.type(js).header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').send(loader.body);
  });
  app.get<{ Params: { version: string } }>('/fields-:version.js', options, async (req, reply) => {
    if (!loader || req.params.version !== loader.version) throw missing();
    return reply.type(js).header('cache-control', 'public, max-age=31536000, immutable').header('access-control-allow-origin', '*').send(loader.body);
  });
  app.get('/fields.json', options, async (_req, reply) => {
    if (!loader) throw missing();
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return { url: '/fields.js', versioned_url: `/fields-${loader.version}.js`, integrity: loader.integrity, version: loader.version };
  });

  app.get('/fields/frame.js', options, async (_req, reply) => {
    if (!frameJs) throw missing();
    return reply.type(js).header('cache-control', 'public, max-age=300').send(frameJs.body);
  });
  app.get('/fields/frame.css', options, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(frameCss));

  app.get('/fields/frame', { ...options, exposeHeadRoute: false }, async (req, reply) => {
    // Read as the frame's script reads it (URLSearchParams over the raw query), and only when it
    // is there once: a second `key=` must not give the server one key and the frame another.
    const keys = new URLSearchParams(req.url.split('?')[1] ?? '').getAll('key');
    const { db, clock } = app.services;
    let id: KeyIdentity | null = null;
    try {
      // As the JSONP endpoint: a private key here sits in a page, so it is recorded as exposed and
      // treated as unknown; unknown keys count against the address's authentication ceiling.
      id = await identify(app, req, keys.length === 1 ? keys[0] : null, clock.now(), { browser: true });
    } catch (err) {
      if (!(err instanceof GatewayError) || (err.code !== E.KEY_INVALID && err.code !== E.RATE_LIMITED)) throw err;
    }
    const allowed = id ? await allowedOrigins(db, id, clock.now().getTime()) : [];
    // Set here, so the hardening hook (http/headers.ts) keeps it and sends no X-Frame-Options: DENY.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', frameCsp(frameAncestors(id, allowed)))
      .send(frameHtml);
  });
}
