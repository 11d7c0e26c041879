// @ts-check
// Settings of the signed-in environment: card verification and receipts. The webhook signing
// secret is on the Webhooks page.
import { api, isUnavailable, listOf } from '../api.js';
import { checkbox, errorBox, field, h, pageHead, statusBox, unavailableSection } from '../dom.js';
import { hashFor } from '../nav.js';
import { overview } from '../state.js';

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
  view.append(form, h('p', { class: 'hint' }, 'The webhook signing secret and its rotation are on the ',
    h('a', { href: hashFor(['webhooks']) }, 'Webhooks'), ' page.'));
}
