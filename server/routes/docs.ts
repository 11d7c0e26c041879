import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_DIR } from '../paths.js';

/** Swagger UI's files, from the package itself: no CDN, gateways run offline too. */
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: join(SWAGGER_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: join(SWAGGER_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'docs.js': { file: join(PUBLIC_DIR, 'docs.js'), type: 'text/javascript; charset=utf-8' },
};

// No inline script or style: the pages' CSP (http/headers.ts) allows none, and Swagger UI needs none.
const PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Tessera API</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/docs/swagger-ui.css">
<div id="swagger-ui"><p>The API reference needs JavaScript; the document itself is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p></div>
<script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/docs.js"></script></html>`;

/** The OpenAPI document, and /docs rendering it with Swagger UI. */
export default async function docsRoutes(app: FastifyInstance, opts: { openapi: () => object }) {
  const options = { config: { access: 'none' as const } };
  const described = { summary: 'This document (OpenAPI 3.1)', produces: { 'application/json': { schema: { type: 'object' }, example: { openapi: '3.1.0' } } } };
  app.get('/api/v1/openapi.json', { ...options, schema: described }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return opts.openapi();
  });
  // The landing page's style (home.html) when the demo checkout is off.
  const css = readFileSync(join(PUBLIC_DIR, 'docs.css'));
  app.get('/docs.css', options, async (_req, reply) => {
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache');
    return css;
  });
  app.get('/docs', options, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  // Read on first use: most gateways (tests, workers) never serve the 1.7 MB bundle.
  const loaded = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/docs/:file', options, async (req, reply) => {
    if (!Object.hasOwn(ASSETS, req.params.file)) return reply.callNotFound();
    const asset = ASSETS[req.params.file];
    if (!loaded.has(req.params.file)) loaded.set(req.params.file, readFileSync(asset.file));
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(loaded.get(req.params.file));
  });
}
