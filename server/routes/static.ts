import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { demoPublicKey } from '../domain/keys.js';
import { GatewayError } from '../errors.js';
import { PUBLIC_DIR, TOKENIZER_DIR } from '../paths.js';

interface Asset {
  body: Buffer;
  version: string;
  integrity: string;
}

function load(file: string): Asset | null {
  const path = join(TOKENIZER_DIR, file);
  if (!existsSync(path)) return null;
  const body = readFileSync(path);
  return {
    body,
    version: createHash('sha256').update(body).digest('hex').slice(0, 12),
    integrity: 'sha384-' + createHash('sha384').update(body).digest('base64'),
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The tokenizer at a stable URL (short cache, so fixes reach pages) and at a content-versioned URL
 * (immutable, for pages pinning it with Subresource Integrity), plus the demo checkout page.
 */
export default async function staticRoutes(app: FastifyInstance) {
  const iife = load('tessera.js');
  const esm = load('tessera.mjs');
  const missing = () => new GatewayError('NOTFOUND', 'tokenizer bundle not built; run npm run build');
  const js = 'application/javascript; charset=utf-8';
  const options = { config: { access: 'none' as const } };

  app.get('/tokenizer.js', options, async (_req, reply) => {
    if (!iife) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return iife.body;
  });
  app.get<{ Params: { version: string } }>('/tokenizer-:version.js', options, async (req, reply) => {
    if (!iife || req.params.version !== iife.version) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff');
    return iife.body;
  });
  app.get('/tokenizer.mjs', options, async (_req, reply) => {
    if (!esm) throw missing();
    reply.type(js).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    return esm.body;
  });
  app.get('/tokenizer.json', options, async (_req, reply) => {
    if (!iife) throw missing();
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return { url: '/tokenizer.js', versioned_url: `/tokenizer-${iife.version}.js`, integrity: iife.integrity, version: iife.version };
  });

  // The pages' own assets: a fixed list, so nothing else under public/ is served by accident.
  // palette.css holds the colours the demo page and the dashboard share.
  const css = 'text/css; charset=utf-8';
  for (const [file, type] of [['palette.css', css], ['demo.css', css], ['demo.js', js]] as const) {
    const body = readFileSync(join(PUBLIC_DIR, file));
    app.get(`/${file}`, options, async (_req, reply) => {
      reply.type(type).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
      return body;
    });
  }

  const page = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8');
  app.get('/', options, async (_req, reply) => {
    const key = (await demoPublicKey(app.services.db, app.services.clock.now())) ?? '';
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page.replaceAll('{{PUBLIC_KEY}}', escapeHtml(key));
  });
}
