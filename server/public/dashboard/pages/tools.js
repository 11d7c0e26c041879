// @ts-check
// Test tools: the test clock (hours, days or calendar months, as POST /test_helpers/clock/advance
// takes them), the test cards, and a sample checkout run end to end.
import { api, isUnavailable } from '../api.js';
import { errorBox, field, h, pageHead, statusBox } from '../dom.js';
import { centsFrom, duration, groupNumber, money, plural, when } from '../format.js';
import { hashFor, txnLink } from '../nav.js';
import { overview } from '../state.js';
import { dataTable, statusPill } from '../tables.js';

// The answer's types come from the OpenAPI document (api-types.d.ts; npm run dashboard:types).
/** @typedef {import('../api-types').Answer<'/dashboard/test-cards'>} TestCards */
/** @typedef {TestCards['list'][number]} TestCard */

/** @type {import('../router.js').Page} */
export async function renderTools(view, _segs, _params, alive) {
  const o = overview();
  view.append(...pageHead('Test tools', 'Move the test clock, look up test cards and run a checkout end to end.'));
  if (o.env !== 'test') {
    view.append(statusBox('warn', 'Test tools work in test mode. You are signed in with a live key: sign in with a test private key to use them.'));
  } else {
    view.append(clockPanel(o));
  }
  /** @type {TestCards | null} */
  let cards = null;
  try {
    cards = await api('/dashboard/test-cards');
  } catch (e) {
    view.append(errorBox(e));
  }
  if (!alive()) return;
  if (o.env === 'test' && cards) view.append(checkoutPanel(o, cards));
  if (cards) view.append(cardsPanel(cards));
}

/** @param {import('../state.js').Overview} o */
function clockPanel(o) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'clock-title', 'data-testid': 'test-clock' }, h('h2', { id: 'clock-title' }, 'Test clock'));
  const now = h('p', { 'data-testid': 'clock-now' });
  /** @param {Pick<import('../state.js').Overview, 'now' | 'clock_offset_ms'>} ov */
  const show = (ov) => {
    now.replaceChildren('Test time: ', h('strong', {}, when(ov.now)),
      ov.clock_offset_ms > 0 ? ` (${duration(ov.clock_offset_ms)} ahead of real time)` : ' (real time)');
  };
  show(o);
  const amount = h('input', { type: 'number', id: 'clock-amount', min: '1', step: '1', value: '1', inputmode: 'numeric' });
  // The API's own units: a month is a calendar month (Jan 31 + 1 month = Feb 28), not 30 days.
  const unit = h('select', { id: 'clock-unit' },
    h('option', { value: 'hours' }, 'hours'), h('option', { value: 'days', selected: true }, 'days'), h('option', { value: 'months' }, 'months'));
  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, 'Advance the clock');
  const form = h('form', { 'aria-label': 'Advance the test clock' },
    h('div', { class: 'fields' }, field('Advance by', amount), field('Unit', unit)), out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const n = Number(amount.value);
    if (!Number.isInteger(n) || n < 1) return out.replaceChildren(statusBox('error', 'Enter a whole number of at least 1.'));
    button.disabled = true;
    out.replaceChildren(statusBox('busy', 'Advancing…'));
    try {
      const res = await api('/test_helpers/clock/advance?wait=true', { method: 'POST', body: { [unit.value]: n } });
      // The answer is the clock itself: no second request, which could meet a key lookup cached a moment earlier.
      const ov = overview();
      ov.now = res.now;
      ov.clock_offset_ms = res.offset_ms;
      show(ov);
      out.replaceChildren(statusBox('ok', `Advanced by ${plural(n, unit.value.replace(/s$/, ''))}. Test time is now ${when(res.now)}.${summariseAdvance(res.ran)}`));
    } catch (err) {
      out.replaceChildren(isUnavailable(err)
        ? statusBox('warn', 'The test clock is not available in this version (POST /api/v1/test_helpers/clock/advance answered 404).')
        : errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  panel.append(now, form);
  return panel;
}

/**
 * What the advance ran meanwhile ({billings: 2, failed_billings: 0, …}), in words; nothing when nothing ran.
 * @param {Record<string, unknown> | undefined} ran
 */
function summariseAdvance(ran) {
  if (!ran || typeof ran !== 'object') return '';
  const parts = Object.entries(ran).filter(([, v]) => typeof v === 'number' && v > 0).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`);
  return parts.length ? ` Ran meanwhile: ${parts.join(', ')}.` : ' Nothing fell due meanwhile.';
}

/** @type {Record<string, string>} */
const OUTCOMES = { approve: 'approved', decline: 'declined (99820)', cvv_fail: 'CVV fails (CPCVV2)', cvv_unsupported: 'CVV unsupported (CPCVV1)', zip_fail: 'ZIP fails (82004)' };
/** @type {Record<string, string>} */
const OUTCOME_TONE = { approve: 'approved', decline: 'declined', cvv_fail: 'declined', zip_fail: 'declined', cvv_unsupported: 'pending' };

/** @param {TestCards} cards */
function cardsPanel(cards) {
  return h('section', { class: 'panel', 'aria-labelledby': 'cards-title', 'data-testid': 'test-cards' },
    h('h2', { id: 'cards-title' }, 'Test cards'),
    h('p', { class: 'hint' }, 'Test keys accept only these numbers. Any future expiry; any 3-digit CVV (4 for American Express). '
      + 'Card charges of 73 to 100 cents are declined (99820).'),
    dataTable(cards.list, [
      { key: 'number', label: 'Number', render: (c) => h('code', { class: 'nowrap' }, groupNumber(c.number)) },
      { key: 'brand', label: 'Brand' },
      { key: 'bin_type', label: 'Type', render: (c) => `${c.bin_type.toLowerCase()} · ${c.bin_level.toLowerCase()}` },
      { key: 'outcome', label: 'Outcome', render: (c) => statusPill(OUTCOME_TONE[c.outcome] ?? c.outcome, OUTCOMES[c.outcome] ?? c.outcome) },
      { key: 'note', label: 'Note' },
    ], { caption: `${cards.list.length} test cards` }),
    h('p', {}, 'Sample bank account: routing ', h('code', {}, cards.bank_account.routing_number), ', account ',
      h('code', {}, cards.bank_account.account_number), ' (a charge of 12 cents is returned: R01).'));
}

/** @param {import('../state.js').Overview} o @param {TestCards} cards */
function checkoutPanel(o, cards) {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'checkout-title', 'data-testid': 'sample-checkout' },
    h('h2', { id: 'checkout-title' }, 'Sample checkout'),
    h('p', { class: 'hint' }, 'Tokenizes a test card with your test public key (POST /api/v1/tokens), then charges the token '
      + 'with the private key you signed in with (POST /api/v1/charge), like a checkout page and your server would.'));
  const publicKey = o.test_public_key;
  if (!publicKey) {
    panel.append(statusBox('warn', 'This merchant has no usable test public key: generate test keys on the Keys page first.'));
    return panel;
  }
  const card = h('select', { id: 'checkout-card' }, cards.list.map((c) => h('option', { value: c.number }, `${groupNumber(c.number)} · ${c.note}`)));
  const amount = h('input', { type: 'text', id: 'checkout-amount', inputmode: 'decimal', value: '19.99', autocomplete: 'off' });
  const description = h('input', { type: 'text', id: 'checkout-description', value: 'Sample checkout from the dashboard', autocomplete: 'off' });
  const out = h('div', { 'aria-live': 'polite', 'data-testid': 'checkout-result' });
  const button = h('button', { type: 'submit' }, 'Run a sample checkout');
  const form = h('form', { 'aria-label': 'Run a sample checkout' },
    h('div', { class: 'fields' }, field('Test card', card), field('Amount', amount, 'e.g. 19.99; 0.73 to 1.00 is declined')),
    field('Description', description), out, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const cents = centsFrom(amount.value);
    if (!cents) return out.replaceChildren(statusBox('error', 'The amount is a number such as 19.99.'));
    const number = card.value;
    const amex = /^3[47]/.test(number);
    const steps = h('ol', { class: 'steps' });
    out.replaceChildren(steps);
    button.disabled = true;
    try {
      steps.append(h('li', {}, `Tokenizing ${groupNumber(number)} with ${publicKey.slice(0, 8)}…${publicKey.slice(-4)}`));
      const token = await api('/tokens', {
        method: 'POST', key: publicKey,
        body: {
          card_owner_name: 'Sample Shopper', card_number: number, card_exp_month: 12,
          card_exp_year: new Date().getUTCFullYear() + 3, csc: amex ? '1234' : '123', zip: '94107',
        },
      });
      steps.append(h('li', {}, 'Token ', h('code', { 'data-testid': 'checkout-token' }, token.id), ' created'));
      let txn;
      try {
        txn = await api('/charge', { method: 'POST', body: { token: token.id, amount: cents, description: description.value || undefined } });
      } catch (/** @type {any} */ err) {
        const tid = err.body && err.body.errors && err.body.errors[0] && err.body.errors[0].transaction_id;
        steps.append(h('li', {}, `Charge refused: ${err.code} ${err.message}`, tid ? [' · ', txnLink(tid)] : ''));
        out.append(statusBox(tid ? 'warn' : 'error', tid ? 'The processor declined the charge; it is recorded in Activity.' : 'Nothing was charged.'));
        return;
      }
      steps.append(h('li', {}, `Charged ${money(cents)}: `, statusPill(txn.status), ' · ',
        h('a', { href: hashFor(['activity', 'transactions', txn.id]), 'data-testid': 'checkout-transaction' }, `transaction ${txn.id}`)));
      out.append(statusBox(txn.successful ? 'ok' : 'warn', txn.successful ? 'The charge settled. It is listed under Activity.' : `The charge was recorded as ${txn.status.toLowerCase()}.`));
    } catch (err) {
      out.append(errorBox(err));
    } finally {
      button.disabled = false;
    }
  });
  panel.append(form);
  return panel;
}
