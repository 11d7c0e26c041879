import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_DIR } from '../paths.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The OpenAPI document and a plain page listing it (no CDN assets: gateways run offline too). */
export default async function docsRoutes(app: FastifyInstance, opts: { openapi: () => any }) {
  const options = { config: { access: 'none' as const } };
  app.get('/api/v1/openapi.json', options, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return opts.openapi();
  });
  // The page's style is a file: the pages' CSP (http/headers.ts) allows no inline style.
  const css = readFileSync(join(PUBLIC_DIR, 'docs.css'));
  app.get('/docs.css', options, async (_req, reply) => {
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache');
    return css;
  });
  app.get('/docs', options, async (_req, reply) => {
    const doc = opts.openapi();
    const rows = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => {
          const key = op.security.length === 0 ? 'none' : op.description ? 'public or private' : 'private';
          return `<tr><td><code>${method.toUpperCase()}</code></td><td><code>/api/v1${escape(path)}</code></td><td>${key}</td></tr>`;
        }),
      )
      .join('\n');
    const codes = Object.entries(doc['x-error-codes'] as Record<string, { status: number; message: string }>)
      .map(([code, e]) => `<tr><td><code>${escape(code)}</code></td><td>${e.status}</td><td>${escape(e.message)}</td></tr>`)
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Tessera API</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/docs.css">
<h1>Tessera API</h1><p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
Authentication: HTTP Basic, the API key as username and an empty password.</p>
<h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>Key</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Error codes</h2><table><thead><tr><th>Code</th><th>HTTP</th><th>Meaning</th></tr></thead><tbody>${codes}</tbody></table></html>`;
  });
}
