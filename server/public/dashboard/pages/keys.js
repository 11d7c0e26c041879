// @ts-check
// Keys: key sets of both environments, and generating a new set (its private key shown once).
import { api } from '../api.js';
import { announce, copy, errorBox, h, nextId, pageHead, statusBox } from '../dom.js';
import { when } from '../format.js';
import { overview, setSession } from '../state.js';
import { dataTable, statusPill } from '../tables.js';

// The answers' types come from the OpenAPI document (api-types.d.ts; npm run dashboard:types).
/** @typedef {import('../api-types').Answer<'/dashboard/keys'>} Keys */
/** @typedef {Keys['test'][number]} KeySet */
/** @typedef {import('../api-types').Answer<'/dashboard/keys', 'post'>} NewKeySet the new set, its private key in full */

/** @type {import('../router.js').Page} */
export async function renderKeys(view) {
  /** @type {Keys} */
  const data = await api('/dashboard/keys');
  view.append(...pageHead('Keys', 'Key sets of both environments. A private key is shown once, when its set is generated; '
    + 'afterwards only its first and last characters. Generating a set expires the current keys of that environment now or in one hour.'));
  // A private key seen in a browser (the JSONP endpoint) is compromised: say so until its set expires.
  for (const s of [...data.test, ...data.live].filter((k) => k.private_key_exposed_at && k.status !== 'expired')) {
    view.append(h('div', { 'data-testid': 'key-exposed' }, statusBox('error', `The ${s.env} private key of ${s.key_set_id} was sent from a web page on `
      + `${when(s.private_key_exposed_at)}: treat it as compromised. Generate new ${s.env} keys expiring the old ones now, and keep private keys on your server.`)));
  }
  const reveal = h('div', { id: 'new-key-set' });
  view.append(reveal, h('div', { class: 'columns' }, keyColumn('test', data, reveal), keyColumn('live', data, reveal)));
}

/** @param {'test' | 'live'} env @param {Keys} data @param {HTMLElement} reveal */
function keyColumn(env, data, reveal) {
  const o = overview();
  const title = env === 'test' ? 'Test keys' : 'Live keys';
  const titleId = `keys-${env}-title`;
  const sets = data[env];
  const col = h('section', { class: 'panel', 'aria-labelledby': titleId, 'data-testid': `keys-${env}` }, h('h2', { id: titleId }, title));
  if (sets.length) {
    col.append(dataTable(sets, [
      { key: 'key_set_id', label: 'Key set', render: (s) => [h('code', { class: 'nowrap' }, s.key_set_id), h('div', { class: 'hint' }, when(s.created_at))] },
      { key: 'keys', label: 'Keys', render: (s) => h('div', {},
        h('div', {}, h('span', { class: 'visually-hidden' }, 'public '), h('code', { class: 'nowrap' }, s.public_key ?? '—')),
        h('div', {}, h('span', { class: 'visually-hidden' }, 'private '), h('code', { class: 'nowrap' }, s.private_key ?? '—'),
          s.private_key_exposed_at ? [' ', statusPill('exposed')] : null)) },
      { key: 'status', label: 'Status', render: (s) => [statusPill(s.status), s.expires_at ? h('div', { class: 'hint' }, `${s.status === 'expired' ? 'expired' : 'until'} ${when(s.expires_at)}`) : null] },
    ], { caption: `${sets.length} key set${sets.length === 1 ? '' : 's'}, newest first` }));
  } else {
    col.append(h('p', { class: 'empty' }, env === 'live' ? 'No live keys.' : 'No test keys.'));
  }

  if (env === 'live' && o.env === 'test') {
    col.append(h('p', { class: 'hint' }, data.live_enabled
      ? 'Live keys can be generated only when you are signed in with a live private key.'
      : ['Live mode is not activated for this merchant. The operator activates it by creating its first live keys: ',
        h('code', {}, `tessera keys create --merchant ${o.merchant_id} --env live`)]));
    return col;
  }

  const name = `expire-${env}`;
  const button = h('button', { type: 'submit' }, `Generate new ${env} keys`);
  const out = h('div');
  const form = h('form', { 'aria-label': `Generate new ${env} keys` },
    h('fieldset', { class: 'choice' },
      h('legend', {}, `When should the current ${env} keys expire?`),
      h('label', {}, h('input', { type: 'radio', name, value: '1h', checked: true }), 'In one hour'),
      h('label', {}, h('input', { type: 'radio', name, value: 'now' }), 'Now')),
    out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const expire = /** @type {HTMLInputElement} */ (form.querySelector(`input[name="${name}"]:checked`)).value;
    button.disabled = true;
    out.replaceChildren(statusBox('busy', 'Generating…'));
    try {
      const set = await api('/dashboard/keys', { method: 'POST', body: { env, expire_old: expire } });
      out.replaceChildren();
      // The key this tab signed in with is now the old one: continue with the new private key.
      const switched = env === o.env;
      if (switched) setSession(set.private_key);
      showNewKeySet(reveal, set, switched);
      // Refresh the lists underneath, keeping the one-time panel.
      const fresh = await api('/dashboard/keys');
      const columns = /** @type {Element} */ (reveal.nextElementSibling);
      columns.replaceWith(h('div', { class: 'columns' }, keyColumn('test', fresh, reveal), keyColumn('live', fresh, reveal)));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  col.append(form);
  return col;
}

/** @param {HTMLElement} reveal @param {NewKeySet} set @param {boolean} switched */
function showNewKeySet(reveal, set, switched) {
  const titleId = nextId('reveal');
  /** @param {string} label @param {string} value @param {string} testid */
  const keyRow = (label, value, testid) => {
    const input = h('input', { type: 'text', class: 'mono', readonly: true, value, 'data-testid': testid, spellcheck: 'false', autocomplete: 'off' });
    const id = nextId('k');
    input.id = id;
    return h('div', { class: 'field' }, h('label', { for: id }, label),
      h('div', { class: 'copy-row' }, input,
        h('button', { type: 'button', class: 'secondary', 'aria-label': `Copy the ${label.toLowerCase()}`, onclick: () => copy(value, input) }, 'Copy')));
  };
  const panel = h('section', { class: 'panel reveal', 'aria-labelledby': titleId, tabindex: '-1', 'data-testid': 'new-key-set' },
    h('h2', { id: titleId }, `New ${set.env} key set ${set.key_set_id}`),
    statusBox('warn', 'Copy the private key now: it is shown only this once and cannot be displayed again.'),
    keyRow('New public key', set.public_key, 'new-public-key'),
    keyRow('New private key', set.private_key, 'new-private-key'),
    h('p', { class: 'hint' }, `The previous ${set.env} keys ${Date.parse(set.old_keys_expire_at) - Date.parse(set.created_at) > 0
      ? `stay valid until ${when(set.old_keys_expire_at)}` : 'have expired'}.`
      + (switched ? ' This dashboard now uses the new private key.' : '')),
    h('button', { type: 'button', class: 'secondary', onclick: () => { reveal.replaceChildren(); announce('The new keys are hidden'); } }, 'Done: hide the keys'));
  reveal.replaceChildren(panel);
  panel.focus();
}
