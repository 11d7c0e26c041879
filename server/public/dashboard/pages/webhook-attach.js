// @ts-check
// Which events a webhook endpoint receives, decided where it is made: an endpoint (a strategy)
// receives only the events of the rules connected to it, so a new one is attached at once — to
// every event (one rule per resource, all its types, no constraints: an existing such rule is
// reused), to the rules the merchant ticks, or to none for now. An endpoint attached to no rule is
// named in a notice above the endpoints with a one-click "Send it every event".
import { api } from '../api.js';
import { announce, errorBox, h, statusBox } from '../dom.js';
import { refresh } from '../nav.js';

/** @typedef {import('./webhooks.js').Endpoint} Endpoint */
/** @typedef {import('./webhooks.js').Rule} Rule */
/** @typedef {import('./webhooks.js').Resource} Resource */

/** @param {Endpoint} e */
const targetOf = (e) => e.url ?? e.email_address ?? e.phone_number ?? '—';
/** @param {Rule} r */
const ruleText = (r) => `${r.event_resource}: ${r.event_types.length ? r.event_types.join(', ') : 'all'}${r.constraints.length ? ' (with conditions)' : ''}`;

/**
 * The new-endpoint form's choice: every event (the default), the rules ticked, or none.
 * @param {Rule[]} rules
 * @returns {{ fieldset: HTMLFieldSetElement, chosen: () => { mode: string, rules: string[] } }}
 */
export function attachChoice(rules) {
  /** @param {string} value @param {string} label @param {boolean} [checked] */
  const radio = (value, label, checked = false) => h('label', {}, h('input', { type: 'radio', name: 'attach', value, checked }), label);
  const picks = h('div', { class: 'choice nested' }, rules.map((r) =>
    h('label', {}, h('input', { type: 'checkbox', name: 'attach-rule', value: r.id }), ruleText(r))));
  const fieldset = h('fieldset', { class: 'choice', 'data-testid': 'attach-choice' },
    h('legend', {}, 'Which events it receives'),
    radio('all', 'Every event (a rule for each resource, made if missing)', true),
    rules.length ? radio('rules', 'Only the events of these rules:') : null, rules.length ? picks : null,
    radio('none', 'None for now (it receives nothing until a rule is connected to it)'));
  const chosen = () => {
    const mode = /** @type {HTMLInputElement | null} */ (fieldset.querySelector('input[name="attach"]:checked'))?.value ?? 'all';
    const ticked = [...fieldset.querySelectorAll('input[name="attach-rule"]:checked')].map((i) => /** @type {HTMLInputElement} */ (i).value);
    return { mode, rules: mode === 'rules' ? ticked : [] };
  };
  return { fieldset, chosen };
}

/**
 * Connects the endpoint to a rule of every resource of the catalogue that takes all its event
 * types with no constraints, making the missing ones; returns how many rules it is connected to.
 * @param {string} endpointId @param {Rule[]} rules @param {Resource[]} catalogue
 */
export async function attachToEveryEvent(endpointId, rules, catalogue) {
  let n = 0;
  for (const c of catalogue) {
    let rule = rules.find((r) => r.event_resource === c.resource && !r.event_types.length && !r.constraints.length);
    rule ??= /** @type {Rule} */ (await api('/webhooks/rules', { method: 'POST', body: { event_resource: c.resource, event_types: [], constraints: [] } }));
    if (!(rule.strategies ?? []).includes(endpointId)) {
      await api(`/webhooks/rules/${encodeURIComponent(rule.id)}/strategies`, { method: 'POST', body: { strategy_id: endpointId } });
    }
    n++;
  }
  return n;
}

/**
 * After a new endpoint is saved: attaches it as chosen and says (aloud too) what it will receive.
 * @param {string} endpointId @param {{ mode: string, rules: string[] }} choice @param {Rule[]} rules @param {Resource[]} catalogue
 */
export async function attachNew(endpointId, choice, rules, catalogue) {
  if (choice.mode === 'all') {
    const n = await attachToEveryEvent(endpointId, rules, catalogue);
    return announce(`Endpoint added: it receives every event (${n} rules).`);
  }
  for (const id of choice.rules) await api(`/webhooks/rules/${encodeURIComponent(id)}/strategies`, { method: 'POST', body: { strategy_id: endpointId } });
  announce(choice.rules.length
    ? `Endpoint added: it receives the events of ${choice.rules.length} rule${choice.rules.length === 1 ? '' : 's'}.`
    : 'Endpoint added. It is attached to no rule, so it receives no events until you connect it to one.');
}

/**
 * The endpoints attached to no rule, each with a one-click "Send it every event"; null when none.
 * @param {Endpoint[]} endpoints @param {Rule[]} rules @param {Resource[]} catalogue
 */
export function unattachedNotice(endpoints, rules, catalogue) {
  const alone = endpoints.filter((e) => !e.rules.length);
  if (!alone.length) return null;
  const out = h('div', { 'aria-live': 'polite' });
  return h('div', { class: 'notice', 'data-testid': 'unattached' },
    statusBox('warn', alone.length === 1
      ? 'This endpoint is attached to no rule, so it receives no events:'
      : `These ${alone.length} endpoints are attached to no rule, so they receive no events:`),
    h('ul', { class: 'plain' }, alone.map((e) => {
      const button = h('button', { type: 'button', class: 'small', 'aria-label': `Send every event to ${targetOf(e)}` }, 'Send it every event');
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          const n = await attachToEveryEvent(e.id, rules, catalogue);
          announce(`${targetOf(e)} receives every event (${n} rules).`);
          await refresh();
        } catch (err) {
          out.replaceChildren(errorBox(err));
          button.disabled = false;
        }
      });
      return h('li', {}, h('code', {}, targetOf(e)), ' ', button);
    })),
    h('p', { class: 'hint' }, 'Or connect it to a rule in the Rules list below.'), out);
}
