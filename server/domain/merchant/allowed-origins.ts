import type { IncomingHttpHeaders } from 'node:http';
import type { Queryable } from '../../db/index.js';
import { remember } from '../../lib/remember.js';
import type { Scope } from './keys.js';
import { getSettings } from './settings.js';

// The page a token request comes from, and whether it is one of the merchant's checkout pages
// (allowed_origins): the card-testing defence counts refusals per side (http/ratelimit.ts,
// docs/decisions/card-testing.md).

/**
 * `checkout`: the request's page origin is one of the environment's allowed_origins. `other`:
 * any other origin, or none (a client that is not a browser, a page that sends no Referer, or an
 * environment with no allowed_origins).
 */
export type Side = 'checkout' | 'other';

/** The header the hosted-fields frame (served from the gateway's own origin) names its parent page's origin in. */
export const FIELDS_HEADER = 'x-tessera-fields';

/** An origin as a browser sends it (`https://shop.example`), or null for anything else. */
function originOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string' || value.length > 4096) return null;
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    return null;
  }
  return /^https?:\/\//.test(origin) ? origin : null; // opaque origins ("null": data:, file:, sandboxed) are none
}

/**
 * The origin of the page behind a request: the hosted-fields frame's X-Tessera-Fields (a page
 * of another origin cannot send a custom header here: the gateway answers no CORS preflight), else
 * Origin (not "null"), else the origin of Referer, else null. The first header that holds an
 * origin wins; one that holds garbage counts as absent.
 */
export function pageOrigin(headers: IncomingHttpHeaders): string | null {
  return originOf(headers[FIELDS_HEADER]) ?? originOf(headers.origin) ?? originOf(headers.referer);
}

/** How long a node answers from its copy of an environment's allowed_origins: a settings change shows within it. */
export const ALLOWED_ORIGINS_TTL_MS = 5_000;
const CACHED_MAX = 10_000;
const cached = new Map<string, { at: number; origins: Promise<readonly string[]> }>();

/**
 * The allowed_origins of a merchant environment, read at most once per ALLOWED_ORIGINS_TTL_MS per
 * node (every token request with a page origin asks; requests that arrive together share one
 * read). `nowMs` is the gateway clock's. A failed read is not kept.
 */
export function allowedOrigins(q: Queryable, scope: Scope, nowMs: number): Promise<readonly string[]> {
  const key = `${scope.merchantId}:${scope.env}`;
  const hit = cached.get(key);
  if (hit && nowMs >= hit.at && nowMs - hit.at < ALLOWED_ORIGINS_TTL_MS) return hit.origins;
  const origins = getSettings(q, scope).then((s) => s.allowed_origins ?? []);
  remember(cached, key, { at: nowMs, origins }, CACHED_MAX);
  origins.catch(() => {
    if (cached.get(key)?.origins === origins) cached.delete(key);
  });
  return origins;
}

/** Drops this node's copy of an environment's allowed_origins (the settings route, after a save): the node that saved sees the change at once, the others within ALLOWED_ORIGINS_TTL_MS. */
export function forgetAllowedOrigins(scope: Scope): void {
  cached.delete(`${scope.merchantId}:${scope.env}`);
}

/** The side of a token request: no page origin is `other` without a read. */
export async function sideOf(q: Queryable, scope: Scope, headers: IncomingHttpHeaders, nowMs: number): Promise<Side> {
  const origin = pageOrigin(headers);
  if (!origin) return 'other';
  return (await allowedOrigins(q, scope, nowMs)).includes(origin) ? 'checkout' : 'other';
}
