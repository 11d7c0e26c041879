// @ts-check
// Webhooks: endpoints (the API's strategies: a URL, an email address or a phone number), rules
// (which events of which resource, under which constraints) and which rules notify which
// endpoints; a test event to an endpoint; the deliveries and the signing secret
// (webhook-deliveries.js). All over /api/v1/webhooks/*.
import { api, listOf } from '../api.js';
import { announce, confirmDialog, errorBox, field, h, pageHead, showDialog, statusBox } from '../dom.js';
import { refresh } from '../nav.js';
import { dataTable } from '../tables.js';
import { attachChoice, attachNew, unattachedNotice } from './webhook-attach.js';
import { deliveriesPanel, redrawDeliveries, secretPanel } from './webhook-deliveries.js';

// The answers' types come from the OpenAPI document (api-types.d.ts; npm run dashboard:types).
/** @typedef {import('../api-types').Item<'/webhooks/strategies'>} Endpoint */
/** @typedef {import('../api-types').Item<'/webhooks/rules'>} Rule */
/** @typedef {Rule['constraints'][number]} Constraint */
/** @typedef {import('../api-types').Answer<'/webhooks/event_types'>['resources'][number]} Resource */

/** @param {Endpoint} e */
const targetOf = (e) => e.url ?? e.email_address ?? e.phone_number ?? '—';
/** @param {string} id */
const short = (id) => id.slice(0, 12);
const MODES = /** @type {const} */ ([['webhook', 'Webhook (URL)'], ['email', 'Email'], ['sms', 'SMS']]);

/** @type {import('../router.js').Page} */
export async function renderWebhooks(view, _segs, _params, alive) {
  view.append(...pageHead('Webhooks', 'Endpoints receive events; rules choose which events, and each rule notifies the endpoints connected to it.'));
  const [endpoints, rules, catalogue] = await Promise.all([
    api('/webhooks/strategies?limit=100').then((d) => /** @type {Endpoint[]} */ (listOf(d).list)),
    api('/webhooks/rules?limit=100').then((d) => /** @type {Rule[]} */ (listOf(d).list)),
    api('/webhooks/event_types').then((d) => /** @type {Resource[]} */ (d.resources)),
  ]);
  const [deliveries, secret] = await Promise.all([deliveriesPanel(), secretPanel()]);
  if (!alive()) return;
  view.append(endpointsPanel(endpoints, rules, catalogue), rulesPanel(rules, endpoints, catalogue), deliveries, secret);
}

/** @param {Endpoint[]} endpoints @param {Rule[]} rules @param {Resource[]} catalogue */
function endpointsPanel(endpoints, rules, catalogue) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'endpoints-title', 'data-testid': 'endpoints' }, h('h2', { id: 'endpoints-title' }, 'Endpoints'));
  if (!endpoints.length) panel.append(h('p', { class: 'empty' }, 'No endpoints yet.'));
  else {
    panel.append(unattachedNotice(endpoints, rules, catalogue) ?? '', dataTable(endpoints, [
      { key: 'target', label: 'Endpoint', render: (e) => h('code', {}, targetOf(e)) },
      { key: 'mode', label: 'Kind', render: (e) => MODES.find(([m]) => m === e.mode)?.[1] ?? e.mode },
      { key: 'rules', label: 'Rules', render: (e) => (e.rules.length ? e.rules.map(short).join(', ') : 'none: receives no events') },
      { key: '', label: 'Actions', render: (e) => endpointActions(e) },
    ], { caption: `${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}`, testid: 'endpoints-table' }));
  }
  panel.append(h('h3', {}, 'Add an endpoint'), endpointForm(null, rules, catalogue));
  return panel;
}

/** @param {Endpoint} e */
function endpointActions(e) {
  const out = h('div', { 'aria-live': 'polite', 'data-testid': 'test-result' });
  const name = targetOf(e);
  const test = h('button', { type: 'button', class: 'small', 'aria-label': `Send a test event to ${name}` }, 'Send test event');
  test.addEventListener('click', async () => {
    test.disabled = true;
    out.replaceChildren(statusBox('busy', 'Sending…'));
    try {
      const r = await api(`/webhooks/strategies/${encodeURIComponent(e.id)}/test`, { method: 'POST' });
      out.replaceChildren(r.status === 'delivered'
        ? statusBox('ok', `Delivered: the endpoint answered ${r.status_code} in ${r.duration_ms} ms.`)
        : statusBox('error', `Not delivered: ${r.error ?? `the endpoint answered ${r.status_code}`}.`));
      await redrawDeliveries(); // the test send is listed there, marked as a test
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      test.disabled = false;
    }
  });
  const edit = h('button', { type: 'button', class: 'small', 'aria-label': `Edit ${name}`,
    onclick: () => showDialog(`Edit endpoint ${short(e.id)}`, endpointForm(e)) }, 'Edit');
  const del = h('button', { type: 'button', class: 'small', 'aria-label': `Delete ${name}` }, 'Delete');
  del.addEventListener('click', async () => {
    if (!(await confirmDialog('Delete this endpoint?', h('p', {}, `${name} will receive no more events.`), 'Delete the endpoint'))) return;
    try {
      await api(`/webhooks/strategies/${encodeURIComponent(e.id)}`, { method: 'DELETE' });
      announce('Endpoint deleted');
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  });
  return h('div', { class: 'actions' }, e.mode === 'webhook' ? test : null, edit, del, out);
}

/**
 * A new endpoint (null: with which events it receives) or an edit of `e`.
 * @param {Endpoint | null} e @param {Rule[]} [rules] @param {Resource[]} [catalogue]
 */
function endpointForm(e, rules = [], catalogue = []) {
  const prefix = e ? `edit-${short(e.id)}` : 'new-endpoint';
  const mode = h('select', { id: `${prefix}-mode`, name: 'mode' }, MODES.map(([m, label]) => h('option', { value: m, selected: e?.mode === m }, label)));
  const target = h('input', { type: 'text', id: `${prefix}-target`, name: 'target', autocomplete: 'off', value: e ? targetOf(e) : '', spellcheck: 'false' });
  const out = h('div', { 'aria-live': 'polite' });
  const attach = e ? null : attachChoice(rules);
  const form = h('form', { 'aria-label': e ? 'Edit the endpoint' : 'Add an endpoint', novalidate: true },
    h('div', { class: 'fields' }, field('Kind', mode), field('URL, email address or phone number', target)), attach?.fieldset ?? null, out,
    h('button', { type: 'submit' }, e ? 'Save the endpoint' : 'Add the endpoint'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const key = mode.value === 'webhook' ? 'url' : mode.value === 'email' ? 'email_address' : 'phone_number';
    /** @type {Endpoint | null} */
    let saved = null;
    try {
      saved = await api(e ? `/webhooks/strategies/${encodeURIComponent(e.id)}` : '/webhooks/strategies',
        { method: e ? 'PUT' : 'POST', body: { mode: mode.value, [key]: target.value.trim() } });
      form.closest('dialog')?.close();
      if (attach && saved) await attachNew(saved.id, attach.chosen(), rules, catalogue);
      else announce('Endpoint saved');
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err)); // (an endpoint made but not attached shows in the notice once the page is drawn again)
    }
  });
  return form;
}

/** @param {Rule[]} rules @param {Endpoint[]} endpoints @param {Resource[]} catalogue */
function rulesPanel(rules, endpoints, catalogue) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'rules-title', 'data-testid': 'rules' }, h('h2', { id: 'rules-title' }, 'Rules'));
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  if (!rules.length) panel.append(h('p', { class: 'empty' }, 'No rules yet: an endpoint receives nothing until a rule is connected to it.'));
  else {
    panel.append(dataTable(rules, [
      { key: 'id', label: 'Rule', render: (r) => h('code', {}, short(r.id)) },
      { key: 'event_resource', label: 'Events', render: (r) => `${r.event_resource}: ${r.event_types.length ? r.event_types.join(', ') : 'all'}` },
      { key: 'constraints', label: 'When', render: (r) => (r.constraints.length ? r.constraints.map((/** @type {Constraint} */ c) => `${c.field} ${c.operator} ${JSON.stringify(c.value)}`).join(' and ') : 'always') },
      { key: 'strategies', label: 'Notifies', render: (r) => relations(r, byId, endpoints) },
      { key: '', label: 'Actions', render: (r) => ruleActions(r, catalogue) },
    ], { caption: `${rules.length} rule${rules.length === 1 ? '' : 's'}`, testid: 'rules-table' }));
  }
  panel.append(h('h3', {}, 'Add a rule'), ruleForm(null, catalogue, endpoints));
  return panel;
}

/** The endpoints a rule notifies, each with a Disconnect button, and a way to connect another. @param {Rule} r @param {Map<string, Endpoint>} byId @param {Endpoint[]} endpoints */
function relations(r, byId, endpoints) {
  const out = h('div', { 'aria-live': 'polite' });
  /** @param {string} path @param {string} method @param {object} [body] */
  const change = async (path, method, body) => {
    try {
      await api(path, { method, body });
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  const list = h('ul', { class: 'plain' }, r.strategies.map((id) => {
    const name = byId.get(id) ? targetOf(/** @type {Endpoint} */ (byId.get(id))) : short(id);
    return h('li', {}, h('code', {}, name), ' ', h('button', { type: 'button', class: 'small', 'aria-label': `Disconnect ${name} from rule ${short(r.id)}`,
      onclick: () => change(`/webhooks/rules/${encodeURIComponent(r.id)}/strategies/${encodeURIComponent(id)}`, 'DELETE') }, 'Disconnect'));
  }));
  const others = endpoints.filter((e) => !r.strategies.includes(e.id));
  if (!others.length) return h('div', {}, r.strategies.length ? list : 'no endpoint', out);
  const pick = h('select', { 'aria-label': `Endpoint to connect to rule ${short(r.id)}` }, others.map((e) => h('option', { value: e.id }, targetOf(e))));
  const connect = h('button', { type: 'button', class: 'small', 'aria-label': `Connect to rule ${short(r.id)}`,
    onclick: () => change(`/webhooks/rules/${encodeURIComponent(r.id)}/strategies`, 'POST', { strategy_id: pick.value }) }, 'Connect');
  return h('div', {}, r.strategies.length ? list : null, h('div', { class: 'copy-row' }, pick, connect), out);
}

/** @param {Rule} r @param {Resource[]} catalogue */
function ruleActions(r, catalogue) {
  const out = h('div', { 'aria-live': 'polite' });
  const edit = h('button', { type: 'button', class: 'small', 'aria-label': `Edit rule ${short(r.id)}`,
    onclick: () => showDialog(`Edit rule ${short(r.id)}`, ruleForm(r, catalogue, [])) }, 'Edit');
  const del = h('button', { type: 'button', class: 'small', 'aria-label': `Delete rule ${short(r.id)}` }, 'Delete');
  del.addEventListener('click', async () => {
    if (!(await confirmDialog('Delete this rule?', h('p', {}, `Its events (${r.event_resource}) will notify no endpoint through it.`), 'Delete the rule'))) return;
    try {
      await api(`/webhooks/rules/${encodeURIComponent(r.id)}`, { method: 'DELETE' });
      announce('Rule deleted');
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  });
  return h('div', { class: 'actions' }, edit, del, out);
}

/**
 * A new rule (null: with the endpoints to connect it to) or an edit of `r`.
 * @param {Rule | null} r @param {Resource[]} catalogue @param {Endpoint[]} endpoints
 */
function ruleForm(r, catalogue, endpoints) {
  const prefix = r ? `rule-${short(r.id)}` : 'new-rule';
  const resource = h('select', { id: `${prefix}-resource` }, catalogue.map((c) => h('option', { value: c.resource, selected: r?.event_resource === c.resource }, c.resource)));
  const types = h('fieldset', { class: 'choice' });
  const drawTypes = () => {
    const c = catalogue.find((x) => x.resource === resource.value);
    types.replaceChildren(h('legend', {}, 'Event types (none ticked: all of them)'), ...(c?.event_types ?? []).map((t) =>
      h('label', {}, h('input', { type: 'checkbox', name: 'event_types', value: t, checked: !!r && r.event_resource === c?.resource && r.event_types.includes(t) }), t)));
  };
  drawTypes();
  resource.addEventListener('change', drawTypes);
  const constraints = h('textarea', { id: `${prefix}-constraints`, rows: 2, spellcheck: 'false', class: 'mono' });
  constraints.value = r && r.constraints.length ? JSON.stringify(r.constraints) : '';
  const connect = endpoints.length ? h('fieldset', { class: 'choice' }, h('legend', {}, 'Notify these endpoints'),
    endpoints.map((e) => h('label', {}, h('input', { type: 'checkbox', name: 'connect', value: e.id }), targetOf(e)))) : null;
  const out = h('div', { 'aria-live': 'polite' });
  const form = h('form', { 'aria-label': r ? 'Edit the rule' : 'Add a rule', novalidate: true },
    field('Resource', resource), types,
    field('Constraints (optional)', constraints, 'A JSON list, e.g. [{"field":"amount","operator":"gte","value":1000}]'),
    connect, out, h('button', { type: 'submit' }, r ? 'Save the rule' : 'Add the rule'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const ticked = (/** @type {string} */ name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => /** @type {HTMLInputElement} */ (i).value);
    /** @type {Record<string, unknown>} */
    const body = { event_resource: resource.value, event_types: ticked('event_types') };
    if (constraints.value.trim()) {
      try {
        body.constraints = JSON.parse(constraints.value);
      } catch {
        return out.replaceChildren(statusBox('error', 'The constraints are not valid JSON.'));
      }
    } else {
      body.constraints = [];
    }
    try {
      const saved = await api(r ? `/webhooks/rules/${encodeURIComponent(r.id)}` : '/webhooks/rules', { method: r ? 'PUT' : 'POST', body });
      for (const id of ticked('connect')) await api(`/webhooks/rules/${encodeURIComponent(saved.id)}/strategies`, { method: 'POST', body: { strategy_id: id } });
      form.closest('dialog')?.close();
      announce(r ? 'Rule saved' : 'Rule added');
      await refresh();
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  });
  return form;
}
