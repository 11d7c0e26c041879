import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { E, GatewayError } from '../errors.js';
import { loadAsset } from '../lib/assets.js';
import { PUBLIC_DIR, TOKENIZER_DIR } from '../paths.js';

const load = (file: string) => loadAsset(TOKENIZER_DIR, file);

/**
 * The tokenizer at a stable URL (short cache, so fixes reach pages) and at a content-versioned URL
 * (immutable, for pages pinning it with Subresource Integrity), and the pages' shared palette.
 * The demo checkout is routes/demo.ts; nosniff and the other hardening headers are http/headers.ts.
 */
export default async function staticRoutes(app: FastifyInstance) {
  const iife = load('tessera.js');
  const esm = load('tessera.mjs');
  const missing = () => new GatewayError(E.NO_ENDPOINT, 'tokenizer bundle not built; run npm run build');
  const js = 'application/javascript; charset=utf-8';
  const options = { config: { access: 'none' as const } };

  app.get('/tokenizer.js', options, async (_req, reply) => {
    if (!iife) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=300');
    return iife.body;
  });
  app.get<{ Params: { version: string } }>('/tokenizer-:version.js', options, async (req, reply) => {
    if (!iife || req.params.version !== iife.version) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=31536000, immutable');
    return iife.body;
  });
  app.get('/tokenizer.mjs', options, async (_req, reply) => {
    if (!esm) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=300');
    return esm.body;
  });
  app.get('/tokenizer.json', options, async (_req, reply) => {
    if (!iife) throw missing();
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return { url: '/tokenizer.js', versioned_url: `/tokenizer-${iife.version}.js`, integrity: iife.integrity, version: iife.version };
  });

  // palette.css holds the colours the demo page and the dashboard share.
  const palette = readFileSync(join(PUBLIC_DIR, 'palette.css'));
  app.get('/palette.css', options, async (_req, reply) => {
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache');
    return palette;
  });
}
