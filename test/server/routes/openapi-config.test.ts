import { expect, test as base } from '../../fixtures.js';

// The field tables of webhooks, receipts and templates, settings, the outbox, the test helpers and
// the dashboard (issue 31 item 1): each request body is documented closed, with the fields the
// server reads and `required` only where a request without them is refused; query tables become
// query parameters.
const test = base.extend<{ doc: any }>({
  doc: [async ({ gateway }, use) => use((await gateway.app.inject({ url: '/api/v1/openapi.json' })).json()), { scope: 'file' }],
});

const bodyOf = (doc: any, path: string, method: string) => doc.paths[path][method].requestBody;
const schemaOf = (doc: any, path: string, method: string) => bodyOf(doc, path, method).content['application/json'].schema;
const queryOf = (doc: any, path: string) => (doc.paths[path].get.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);

test('bodies are closed, list what the server reads, and require only what a request cannot do without', ({ doc }) => {
  const cases: [string, string, string[], string[]][] = [
    ['/webhooks/rules', 'post', ['event_resource', 'event_types', 'constraints'], ['event_resource']],
    ['/webhooks/rules/{id}', 'put', ['event_resource', 'event_types', 'constraints'], []],
    ['/webhooks/strategies', 'post', ['mode', 'url', 'email_address', 'email', 'phone_number', 'phone'], ['mode']],
    ['/webhooks/strategies/{id}', 'put', ['mode', 'url', 'email_address', 'email', 'phone_number', 'phone'], []],
    ['/webhooks/rules/{rule_id}/strategies', 'post', ['strategy_id'], ['strategy_id']],
    ['/receipts/templates', 'post', ['receipt_text', 'name', 'subject'], ['receipt_text']],
    ['/receipts/templates/{id}', 'post', ['receipt_text', 'name', 'subject'], []],
    ['/charge/{id}/receipt', 'post', ['receipt_type', 'email_address', 'phone_number', 'receipt_template_id'], []],
    ['/settings', 'post', ['cvv_check', 'zip_check', 'default_receipts', 'default_receipt_template_id', 'allowed_origins'], []],
    ['/test_helpers/settle', 'post', ['timeout_ms'], []],
    ['/test_helpers/clock/advance', 'post', ['to', 'months', 'days', 'hours', 'minutes', 'seconds', 'wait'], []],
  ];
  for (const [path, method, fields, required] of cases) {
    const schema = schemaOf(doc, path, method);
    expect(schema.additionalProperties, `${method} ${path}`).toBe(false);
    expect(Object.keys(schema.properties), `${method} ${path}`).toEqual(fields);
    expect(schema.required ?? [], `${method} ${path}`).toEqual(required);
    expect(bodyOf(doc, path, method).required, `${method} ${path} requestBody.required`).toBe(required.length > 0);
  }
  expect(schemaOf(doc, '/receipts/templates', 'post').properties.receipt_text.maxLength).toBe(20_000);
  expect(schemaOf(doc, '/settings', 'post').properties.allowed_origins.anyOf[0].maxItems).toBe(20);
});

test('list and export query strings are documented from their tables', ({ doc }) => {
  expect(queryOf(doc, '/events')).toEqual(['limit', 'offset', 'type', 'resource']);
  expect(queryOf(doc, '/webhooks/deliveries')).toEqual(['limit', 'offset', 'event_id', 'rule_id', 'strategy_id', 'mode', 'status']);
  expect(queryOf(doc, '/outbox')).toEqual(['limit', 'offset', 'status', 'kind', 'source']);
  expect(queryOf(doc, '/receipts/templates')).toEqual(['limit', 'offset']);
});

test('a route reading both its body and its query string documents both: the advance\'s wait, the settle\'s timeout_ms', async ({ doc, gateway }) => {
  const queryNames = (path: string) => doc.paths[path].post.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
  expect(queryNames('/test_helpers/clock/advance')).toEqual(['wait']);
  expect(queryNames('/test_helpers/settle')).toEqual(['timeout_ms']);
  const auth = { authorization: `Basic ${Buffer.from(`${gateway.merchant.test.private_key}:`).toString('base64')}` };
  const settle = (url: string, payload: object) => gateway.app.inject({ method: 'POST', url, headers: auth, payload });
  const bad = await settle('/api/v1/test_helpers/settle?timeout_ms=70000', {});
  expect(bad.statusCode).toBe(400);
  expect(bad.json().errors[0]).toEqual({ code: 'REQ01', message: 'timeout_ms must be at most 60000' });
  // The body's wins over the query string's.
  expect((await settle('/api/v1/test_helpers/settle?timeout_ms=70000', { timeout_ms: 0 })).statusCode).toBe(200);
});
