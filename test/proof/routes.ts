// The operations of /api/v1/openapi.json, records to point their path ids at, and a way to find
// real ids for any path parameter, so the fuzz and access matrices cover new routes by themselves.
import type { InjectOptions } from 'fastify';
import type { Queryable } from '../../server/db/index.js';
import type { Merchant } from '../helpers/gateway.js';
import { bank, basic, visa } from '../helpers/gateway.js';

export interface Route {
  method: string;
  /** OpenAPI form: /charge/{id} */
  path: string;
  params: string[];
  access: 'none' | 'public' | 'private';
  /** The request body schema, when the operation declares one. */
  body?: any;
}

export function routesOf(doc: any): Route[] {
  const out: Route[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const access = op.security?.length === 0 ? 'none' : /public key/i.test(op.description ?? '') ? 'public' : 'private';
      out.push({
        method: method.toUpperCase(), path, params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]), access,
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

/** The smallest body its schema accepts (required fields only), so a request gets past validation to auth. */
export function minimalBody(schema: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) {
    const p = schema.properties?.[name] ?? {};
    const type = [p.type].flat()[0];
    out[name] = type === 'integer' || type === 'number' ? Math.max(1, p.minimum ?? 1)
      : type === 'boolean' ? true : type === 'object' ? {} : type === 'array' ? [] : 'x'.repeat(Math.max(1, p.minLength ?? 1));
  }
  return out;
}

export type Inject = (opts: InjectOptions) => Promise<{ statusCode: number; body: string; json(): any }>;

export async function postOk(inject: Inject, url: string, key: string, payload: object): Promise<any> {
  const res = await inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(key), payload });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * Records of one merchant in test mode: a charge with a refund and a receipt (email, so an outbox
 * message), a direct-card charge, a customer with a card and a bank method charged once, a template.
 * `label` lands in names and descriptions, so a leak of this data can be searched for.
 */
export async function seedTest(inject: Inject, m: Merchant, label = 'seed'): Promise<{ token: string; charge: string; customer: string; template: string }> {
  const token = async (data: object = visa) => (await postOk(inject, '/tokens', m.test.public_key, data)).id as string;
  const sk = m.test.private_key;
  const charge = await postOk(inject, '/charge', sk, { token: await token(), amount: 5000, description: `${label} charge` });
  await postOk(inject, `/charge/${charge.id}/cancel`, sk, { amount: 100 });
  await postOk(inject, '/charge', sk, { ...visa, amount: 700, description: `${label} card` });
  const customer = await postOk(inject, '/customers', sk, { first_name: label, last_name: `${label} Customer`, email: `${label}@example.com`, token: await token() });
  await postOk(inject, `/customers/${customer.id}/methods`, sk, { token: await token(bank) });
  await postOk(inject, '/charge', sk, { customer_id: customer.id, amount: 900 });
  const template = await postOk(inject, '/receipts/templates', sk, { name: label, subject: `${label} receipt`, receipt_text: 'Paid [Amount]' });
  await postOk(inject, `/charge/${charge.id}/receipt`, sk, { email_address: `${label}@example.com`, receipt_template_id: template.id });
  // The recurring, webhook, invoice and updater resources, where those routes exist (best effort:
  // a route that changed its body only loses its real ids here, and the access test lists it).
  const maybe = async (url: string, body: object) => {
    const res = await inject({ method: 'POST', url: `/api/v1${url}`, headers: basic(sk), payload: body });
    return res.statusCode === 200 ? res.json() : null;
  };
  const plan = await maybe('/plans', { name: `${label} plan`, frequency: 'monthly', amount: 1500 });
  if (plan) await maybe(`/plans/${plan.id}/subscription/${customer.id}`, { bill_immediately: true });
  await maybe('/scheduled_transactions', { customer_id: customer.id, amount: 500, bill_on: '2026-12-01' });
  // A webhook rule and strategy only when either is missing: fuzz seeds before every operation, and
  // a rule more each time had every charge write one delivery per rule (~90 by the end).
  const listed = async (url: string) => {
    const res = await inject({ method: 'GET', url: `/api/v1${url}?limit=1`, headers: basic(sk) });
    return res.statusCode === 200 && res.json().list.length > 0;
  };
  if (!(await listed('/webhooks/rules')) || !(await listed('/webhooks/strategies'))) {
    const rule = await maybe('/webhooks/rules', { event_resource: 'transaction', event_types: ['created'] });
    const strategy = await maybe('/webhooks/strategies', { mode: 'webhook', url: 'http://placeholder.invalid/' });
    if (rule && strategy) await maybe(`/webhooks/rules/${rule.id}/strategies`, { strategy_id: strategy.id });
  }
  await maybe('/invoices', { customer_first_name: label, customer_email: `${label}@example.com`, items: [{ description: 'Widget', quantity: 2, unit_amount: 1050 }] });
  const method = customer.default_method_id;
  if (method) await maybe('/tokens/update', { payment_methods: { 0: { payment_id: method, card_exp_month: 5, card_exp_year: 2034 } } });
  return { token: await token(), charge: charge.id, customer: customer.id, template: String(template.id) };
}

/**
 * Real ids for the index-th path parameter of a route, as the key `key` sees them: list the
 * collection above it (GET), else the collections its name suggests; tokens, receipts and events
 * (which have no list of their own here) from the database.
 */
export async function idsFor(
  inject: Inject, db: Queryable, m: { id: string; key: string; env: 'test' | 'live'; publicKey: string },
  route: Route, index: number, chosen: string[],
): Promise<string[]> {
  const name = route.params[index];
  const segments = route.path.split('/');
  const at = segments.indexOf(`{${name}}`);
  let prefix = segments.slice(0, at).join('/');
  route.params.slice(0, index).forEach((p, i) => (prefix = prefix.replace(`{${p}}`, encodeURIComponent(chosen[i] ?? 'x'))));
  const base = name.replace(/_id$/, '');
  // The collection above the parameter; its plural; the name's collection; the path without the
  // parents (/webhooks/rules/{rule_id}/strategies -> /webhooks/strategies).
  const withoutParents = segments.slice(0, at).join('/').replace(/\/[^/]+\/\{\w+\}/g, '');
  const candidates = [prefix, `${prefix}s`, withoutParents, `/${base}s`, `/${base}`, prefix === '/charge' ? '/transactions' : '', prefix.replace(/\/[^/]+$/, '')];
  const ids = new Set<string>();
  for (const c of candidates.filter(Boolean)) {
    const res = await inject({ url: `/api/v1${c}?limit=100`, headers: basic(m.key) });
    if (res.statusCode !== 200) continue;
    const body = res.json();
    const list = Array.isArray(body) ? body : Array.isArray(body?.list) ? body.list : [];
    for (const item of list) {
      if (item && (typeof item.id === 'string' || typeof item.id === 'number')) ids.add(String(item.id));
      for (const meth of item?.methods ?? []) if (name === 'method_id') ids.add(String(meth.id));
    }
    if (ids.size) break;
  }
  const rows = async (sql: string) => (await db.query(sql, [m.id, m.env])).map((r) => String(r.id));
  if (name === 'token_id' || prefix === '/tokens') for (const id of await rows('SELECT id FROM tokens WHERE merchant_id = $1 AND env = $2 ORDER BY created_at DESC LIMIT 5')) ids.add(id);
  if (prefix === '/receipts') for (const id of await rows('SELECT id FROM receipts WHERE merchant_id = $1 AND env = $2 LIMIT 5')) ids.add(id);
  if (prefix === '/tokens/update') for (const id of await rows('SELECT id FROM account_updates WHERE merchant_id = $1 AND env = $2 LIMIT 5').catch(() => [])) ids.add(id);
  if (prefix === '/events' || name === 'event_id') for (const id of await rows('SELECT id FROM events WHERE merchant_id = $1 AND env = $2 LIMIT 5')) ids.add(id);
  return [...ids].slice(0, 20);
}

/** An id of the same shape as `id` that names nothing: same prefix, same character classes, same length. */
export function lookalike(id: string): string {
  const hex = '0123456789abcdef';
  const m = /^([a-z]+_)?(.*)$/.exec(id)!;
  const rnd = (chars: string) => chars[Math.floor(Math.random() * chars.length)];
  const body = /^\d+$/.test(m[2]) ? String(900_000_000 + Math.floor(Math.random() * 99_999_999))
    : [...m[2]].map((ch) => (/[0-9a-f]/.test(ch) ? rnd(hex) : /[A-Za-z]/.test(ch) ? rnd('abcdefghijklmnopqrstuvwxyz') : ch)).join('');
  return (m[1] ?? '') + body;
}
