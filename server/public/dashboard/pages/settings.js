// @ts-check
// Settings of the signed-in environment: card verification and receipts, and the allowed origins of
// the merchant's checkout pages (pages/origins.js); each environment's processor connection,
// read-only (the operator sets it with `tessera processor set`). The webhook signing secret is on
// the Webhooks page.
import { api, isUnavailable, listOf } from '../api.js';
import { checkbox, errorBox, fact, field, h, pageHead, statusBox, unavailableSection } from '../dom.js';
import { when } from '../format.js';
import { hashFor } from '../nav.js';
import { overview } from '../state.js';
import { originsForm } from './origins.js';

/** @type {import('../router.js').Page} */
export async function renderSettings(view) {
  const env = overview().env;
  view.append(...pageHead('Settings', `Settings of the ${env} environment (the key you signed in with).`));
  const s = await api('/settings');
  /** @type {any[] | null} */
  let templates = null;
  try {
    templates = listOf(await api('/receipts/templates?limit=100')).list;
  } catch (e) {
    if (!isUnavailable(e)) throw e;
  }

  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, 'Save settings');
  const form = h('form', { class: 'panel', 'aria-labelledby': 'verify-title', 'data-testid': 'settings-form' },
    h('h2', { id: 'verify-title' }, 'Card verification'),
    checkbox('Require the card security code (CVV)', 'cvv_check', s.cvv_check,
      'Charges and saved cards without a CVV are refused (CPCVV2); wrong codes are declined.'),
    checkbox('Verify the billing ZIP code', 'zip_check', s.zip_check, 'Card charges need a ZIP (AVSZIP404) and a mismatch is declined (82004).'));
  const hasReceipts = 'default_receipts' in s;
  if (hasReceipts) {
    form.append(h('h2', { id: 'receipts-title' }, 'Receipts'),
      checkbox('Send a receipt for every charge by default', 'default_receipts', s.default_receipts,
        'A charge can still say otherwise with send_receipt.'));
    if (templates) {
      form.append(field('Default receipt template', h('select', { id: 'default-template', name: 'default_receipt_template_id' },
        h('option', { value: '' }, 'Built-in receipt'),
        templates.map((t) => h('option', { value: String(t.id), selected: String(t.id) === String(s.default_receipt_template_id) }, `${t.name || 'Template'} (#${t.id})`)))));
    } else {
      form.append(h('p', { class: 'hint' }, 'Receipt templates are not available in this version.'));
    }
  } else {
    form.append(unavailableSection('Receipts', 'receipt settings'));
  }
  form.append(out, button);
  /** @param {string} name */
  const control = (name) => /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    /** @type {Record<string, unknown>} */
    const body = { cvv_check: control('cvv_check')?.checked, zip_check: control('zip_check')?.checked };
    if (hasReceipts) body.default_receipts = control('default_receipts')?.checked;
    const template = control('default_receipt_template_id');
    if (template) body.default_receipt_template_id = template.value || null;
    button.disabled = true;
    try {
      await api('/settings', { method: 'POST', body });
      out.replaceChildren(statusBox('ok', 'Settings saved.'));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  const origins = 'allowed_origins' in s ? originsForm(env, s.allowed_origins ?? []) : unavailableSection('Allowed origins', 'allowed origins setting');
  view.append(form, origins, await processorPanel(), h('p', { class: 'hint' }, 'The webhook signing secret and its rotation are on the ',
    h('a', { href: hashFor(['webhooks']) }, 'Webhooks'), ' page.'));
}

/** @typedef {import('../api-types').Answer<'/dashboard/processor'>} Connections GET /dashboard/processor (api-types.d.ts: from the OpenAPI document) */
/** @typedef {Connections['live']} Connection */

/** Each environment's processor connection: what it is, never a secret (only that it is set). */
async function processorPanel() {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'processor-title', 'data-testid': 'processor' },
    h('h2', { id: 'processor-title' }, 'Payment processor'));
  /** @type {Connections} */
  let data;
  try {
    data = await api('/dashboard/processor');
  } catch (e) {
    // The settings above stay usable whatever happens here.
    panel.append(isUnavailable(e) ? h('p', { class: 'hint' }, 'The processor connection is not shown by this version.') : errorBox(e));
    return panel;
  }
  panel.append(h('dl', { class: 'facts' },
    ...fact('Test', 'Simulator: test mode never moves money.'),
    ...fact('Live', liveConnection(data.live))));
  panel.append(h('p', { class: 'hint' }, 'The operator sets the live connection on the server with ', h('code', {}, 'tessera processor set'), '.'));
  return panel;
}

/** @param {Connection} c */
function liveConnection(c) {
  if (!c.configured) return 'Not configured: live charges are refused until the operator sets one.';
  const { sandbox, endpoint, ...fields } = c.settings;
  return h('dl', { class: 'facts' },
    ...fact('Connector', h('code', {}, c.connector ?? '')),
    ...Object.entries(fields).flatMap(([k, v]) => fact(label(k), v === null ? '—' : h('code', {}, String(v)))),
    ...Object.keys(c.secrets).flatMap((k) => fact(label(k), 'set (never shown)')),
    ...fact('Endpoint', endpoint ? h('code', {}, String(endpoint)) : sandbox ? 'the processor’s sandbox' : 'the processor’s production endpoint'),
    ...fact('Updated', when(c.updated_at)));
}

/** `login_id` as a label: "Login id". @param {string} name */
const label = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
