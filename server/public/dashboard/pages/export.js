// @ts-check
// "Export CSV" buttons over GET /api/v1/dashboard/export/<kind>.csv (helper E's contract in
// docs/decisions/dashboard.md). The answer is fetched with the key in its header and saved from a Blob.
import { download } from '../api.js';
import { announce, errorBox, h } from '../dom.js';

/**
 * @param {'transactions' | 'customers' | 'invoices'} kind
 * @param {string} what e.g. "transactions", for the button's accessible name
 * @param {URLSearchParams} filters the list's filters, passed on as they are
 */
export function exportButton(kind, what, filters) {
  const out = h('span', { class: 'export-status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'secondary small', 'data-testid': `export-${kind}` }, 'Export CSV');
  button.setAttribute('aria-label', `Export ${what} as CSV`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    out.replaceChildren('Preparing…');
    try {
      const q = [...filters].length ? `?${filters}` : '';
      const file = await download(`/dashboard/export/${kind}.csv${q}`, `${kind}.csv`);
      out.replaceChildren(`Saved ${file.name}`);
      announce(`Saved ${file.name}`);
    } catch (e) {
      out.replaceChildren(errorBox(e));
    } finally {
      button.disabled = false;
    }
  });
  return h('span', { class: 'export' }, button, out);
}
