// @ts-check
// The Webhooks page's deliveries (with Resend for the failed ones; a "Send test event" is listed
// too, marked as a test) and the signing secret: shown
// only on request, copied, rotated (the old one kept for a while if the merchant asks).
import { api, isUnavailable, listOf } from '../api.js';
import { announce, confirmDialog, copy, errorBox, h, statusBox, unavailableSection } from '../dom.js';
import { display, when } from '../format.js';
import { refresh } from '../nav.js';
import { dataTable, statusPill } from '../tables.js';

// The answers' types come from the OpenAPI document (api-types.d.ts; npm run dashboard:types).
/** @typedef {import('../api-types').Item<'/webhooks/deliveries'>} Delivery */
/** @typedef {import('../api-types').Answer<'/webhooks/secret'>} Secret also what POST /webhooks/secret/rotate answers */

/** A test send from the Webhooks page (webhook-test.ts records it with event type and rule `test`). @param {Delivery} d */
const isTest = (d) => d.event_type === 'test';

export async function deliveriesPanel() {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'deliveries-title', 'data-testid': 'deliveries' },
    h('h2', { id: 'deliveries-title' }, 'Latest deliveries'));
  let list;
  try {
    list = listOf(await api('/webhooks/deliveries?limit=20')).list;
  } catch (e) {
    return isUnavailable(e) ? unavailableSection('Latest deliveries', 'webhook delivery') : (panel.append(errorBox(e)), panel);
  }
  if (!list.length) return (panel.append(h('p', { class: 'empty' }, 'No deliveries yet.')), panel);
  panel.append(dataTable(list, [
    { key: 'event_type', label: 'Event', render: (d) => (isTest(d) ? h('span', { class: 'pill', 'data-code': 'test' }, 'test event') : d.event_type) },
    { key: 'target', label: 'Endpoint', render: (d) => h('code', {}, d.target) },
    { key: 'status', label: 'Status', render: (d) => statusPill(d.status) },
    { key: 'attempt_count', label: 'Attempts', num: true },
    { key: 'last_status_code', label: 'Last answer', num: true, render: (d) => display(d.last_status_code ?? d.last_error) },
    { key: 'created_at', label: 'Created' },
    { key: '', label: 'Resend', render: (d) => (d.status === 'failed' ? resendButton(d) : '—') },
  ], { caption: 'Newest first; a “Send test event” is listed as a test event', testid: 'deliveries-table' }));
  return panel;
}

/** @param {Delivery} d */
function resendButton(d) {
  const out = h('span', { 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'small', 'aria-label': `Resend delivery ${d.id} (${d.event_type})` }, 'Resend');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api(`/webhooks/deliveries/${d.id}/retry`, { method: 'POST' });
      announce('Delivery queued again');
      await refresh();
    } catch (e) {
      out.replaceChildren(errorBox(e));
      button.disabled = false;
    }
  });
  return h('span', {}, button, out);
}

/** Draws the deliveries again in place (after a test send), leaving the rest of the page as it is. */
export async function redrawDeliveries() {
  const fresh = await deliveriesPanel();
  document.querySelector('[data-testid="deliveries"]')?.replaceWith(fresh);
}

export async function secretPanel() {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'whsec-title', 'data-testid': 'webhook-secret' },
    h('h2', { id: 'whsec-title' }, 'Signing secret'),
    h('p', { class: 'hint' }, 'Every webhook request and billing callback of this environment is signed with it; verify the signature on your server.'));
  const input = h('input', { type: 'password', id: 'webhook-secret', class: 'mono', readonly: true, value: '', autocomplete: 'off', spellcheck: 'false', placeholder: 'hidden' });
  const since = h('p', { class: 'hint' });
  const out = h('div', { 'aria-live': 'polite' });
  const copyButton = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Copy the signing secret', hidden: true, onclick: () => copy(input.value, input) }, 'Copy');
  /** @param {Secret} s */
  const show = (s) => {
    input.value = s.secret;
    input.type = 'text';
    copyButton.hidden = false;
    toggle.textContent = 'Hide secret';
    since.textContent = `In use since ${when(s.created_at)}.`
      + (s.previous_secret_expires_at ? ` The previous secret also signs until ${when(s.previous_secret_expires_at)}.` : '');
  };
  const toggle = h('button', { type: 'button', class: 'secondary' }, 'Reveal secret');
  toggle.addEventListener('click', async () => {
    if (input.type === 'text') {
      input.value = '';
      input.type = 'password';
      copyButton.hidden = true;
      toggle.textContent = 'Reveal secret';
      return;
    }
    try {
      show(await api('/webhooks/secret')); // fetched only when asked for
    } catch (e) {
      out.replaceChildren(errorBox(e));
    }
  });
  const keep = h('select', { id: 'rotate-keep' },
    h('option', { value: 'now' }, 'no longer (retire it now)'), h('option', { value: '1h' }, 'one more hour'), h('option', { value: '24h' }, '24 more hours'));
  const rotate = h('button', { type: 'button', class: 'danger' }, 'Rotate the secret');
  rotate.addEventListener('click', async () => {
    const overlap = keep.value !== 'now';
    const ok = await confirmDialog('Rotate the signing secret?', h('p', {}, overlap
      ? `A new secret signs from now on; the current one also signs for ${keep.selectedOptions[0].textContent}, so your server can switch.`
      : 'A new secret signs from now on; signatures made with the current one will no longer verify.'), 'Rotate the secret');
    if (!ok) return;
    rotate.disabled = true;
    try {
      show(await api('/webhooks/secret/rotate', { method: 'POST', body: { expire_old: keep.value } }));
      out.replaceChildren(statusBox('ok', 'A new signing secret is in use.'));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      rotate.disabled = false;
    }
  });
  panel.append(
    h('div', { class: 'field' }, h('label', { for: 'webhook-secret' }, 'Signing secret'), h('div', { class: 'copy-row' }, input, toggle, copyButton)),
    since, h('div', { class: 'field' }, h('label', { for: 'rotate-keep' }, 'When rotating, keep the current secret signing for'), keep),
    out, rotate);
  return panel;
}

