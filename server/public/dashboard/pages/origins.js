// @ts-check
// The Settings page's "Allowed origins" form: the origins of the merchant's checkout pages in the
// signed-in environment (allowed_origins of POST /settings). They are the hosted card fields'
// frame-ancestors, and card refusals sent from them are counted apart from any other page's.
import { api } from '../api.js';
import { errorBox, field, h, nextId, statusBox } from '../dom.js';

/** As many as the gateway keeps (POST /settings refuses more). */
const MAX_ORIGINS = 20;

/**
 * The origins as typed: one a line (commas and spaces separate too, as the API reads one string).
 * @param {string} text
 */
const originsIn = (text) => text.split(/[\s,]+/).filter(Boolean);

/**
 * @param {'test' | 'live'} env
 * @param {string[]} saved the list GET /settings answered
 */
export function originsForm(env, saved) {
  const listBox = h('div', { class: 'origins-saved', 'data-testid': 'origins-saved' });
  const textarea = h('textarea', {
    id: nextId('origins'), name: 'allowed_origins', rows: 4, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
    class: 'mono', 'data-testid': 'origins-input',
  });
  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, 'Save allowed origins');
  const form = h('form', { class: 'panel', 'aria-labelledby': 'origins-title', 'data-testid': 'origins-form' },
    h('h2', { id: 'origins-title' }, 'Allowed origins'),
    h('p', { class: 'hint' }, 'The origins of your checkout pages. Only these pages may show the hosted card fields (',
      h('code', {}, 'fields.js'), '): the browser is told so with the CSP ', h('code', {}, 'frame-ancestors'),
      ' directive. Card refusals sent from these pages are counted apart from those sent by any other page, so a hostile page cannot get your shoppers’ cards refused.'),
    h('p', { class: 'hint' }, 'Live mode needs them: while the list is empty, no page can frame the live card fields. In test mode an empty list lets any page frame them.'),
    h('h3', {}, 'Saved origins'),
    listBox,
    field('Origins of your checkout pages', textarea,
      `One origin a line: scheme, host and a port if not the default, no path; for example https://shop.example or http://localhost:3000.${
        env === 'live' ? ' In live mode http is for localhost only.' : ''} At most ${MAX_ORIGINS}; an empty box clears the list.`),
    out, button);

  /** @param {string[]} list */
  const show = (list) => {
    listBox.replaceChildren(list.length
      ? h('ul', { class: 'plain' }, list.map((o) => h('li', {}, h('code', {}, o))))
      : env === 'live'
        // A warning's look without role=status: it is the page's state, not news to announce.
        ? h('p', { class: 'status is-warn' }, 'None: no page can frame the live card fields. Add the origins of your checkout pages.')
        : h('p', {}, 'None: any page may frame the test card fields.'));
    textarea.value = list.join('\n');
  };
  show(saved);

  const hintId = textarea.getAttribute('aria-describedby') ?? '';
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    button.disabled = true;
    try {
      const s = await api('/settings', { method: 'POST', body: { allowed_origins: originsIn(textarea.value) } });
      const list = /** @type {string[]} */ (s.allowed_origins ?? []);
      show(list);
      textarea.removeAttribute('aria-invalid');
      textarea.setAttribute('aria-describedby', hintId);
      out.replaceChildren(statusBox('ok', list.length
        ? `Allowed origins saved: ${list.length === 1 ? 'one origin' : `${list.length} origins`}, as the gateway wrote them.`
        : 'Allowed origins cleared.'));
    } catch (err) {
      // The saved list stays as it was; the box keeps what was typed, to correct it.
      const box = errorBox(err);
      box.id = `${textarea.id}-error`;
      textarea.setAttribute('aria-invalid', 'true');
      textarea.setAttribute('aria-describedby', `${hintId} ${box.id}`);
      out.replaceChildren(box);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}
