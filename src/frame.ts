// Hosted fields, the frame's half (GET /fields/frame.js, in the document GET /fields/frame serves
// from the gateway's origin). It holds the card inputs, checks them with the tokenizer's own rules
// (checks.ts: the same codes as generateToken and the server), and tokenizes with a same-origin
// POST /api/v1/tokens. The parent page gets a port, events without a digit of the card, and the
// token response; never the card. Budget with the document and its style: 4,096 B min+gzip.
import { CheckError, detectBrand, validatePaymentData, validatePublicKey } from './checks.js';

type State = { empty: boolean; complete: boolean; brand: string | null; error: CheckError | null };

const doc = document;
const $ = (id: string) => doc.getElementById(id) as HTMLInputElement;
const number = $('n');
const expiry = $('e');
const csc = $('c');
const inputs = [number, expiry, csc];
const message = doc.getElementById('m')!;
// The key as the server read it to choose frame-ancestors: there exactly once, or none.
const keys = new URLSearchParams(location.search).getAll('key');
const key = keys.length == 1 ? keys[0] : '';
const touched: Record<string, boolean> = {};
// Each field is checked alone against values that pass, so its error is the one the whole card
// would get for it.
const GOOD = { card_owner_name: 'x', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2099' };
// The CSS a page may set, per part: text and box properties only; a value never loads anything.
const ALLOWED = /^(color|background-color|caret-color|font-(family|size|style|weight|variant)|letter-spacing|line-height|text-(align|transform|shadow)|padding(-(top|right|bottom|left))?|border(-(top|right|bottom|left))?(-(color|style|width|radius))?|border-radius|outline(-(color|style|width|offset))?|box-shadow|height|margin-bottom|opacity)$/;
let port: MessagePort | null = null;
let parentOrigin = '';
let styles: Record<string, Record<string, string>> = {};
let state = '';

const digits = (s: string) => s.replace(/\D/g, '');
const card = () => {
  const e = digits(expiry.value);
  return { card_number: digits(number.value), card_exp_month: e.slice(0, 2), card_exp_year: e.slice(2), csc: digits(csc.value) };
};

/** The error of one field (none while it is empty): its value checked with the others made good. */
function fieldError(input: HTMLInputElement): CheckError | null {
  const c = card();
  if (!input.value) return null;
  if (input == number) return validatePaymentData({ ...GOOD, card_number: c.card_number });
  if (input == expiry) return c.card_exp_year ? validatePaymentData({ ...GOOD, card_exp_month: c.card_exp_month, card_exp_year: c.card_exp_year }) : { code: '11112', message: 'invalid card_exp_year' };
  const brand = detectBrand(c.card_number);
  return validatePaymentData({ ...GOOD, card_number: brand == 'amex' ? '378282246310005' : GOOD.card_number, csc: c.csc });
}

function paint(input: HTMLInputElement, focused?: boolean) {
  const bad = !!touched[input.id] && !!fieldError(input);
  input.setAttribute('aria-invalid', String(bad));
  const s = Object.assign({}, styles.base, focused ? styles.focus : 0, bad ? styles.invalid : 0);
  input.removeAttribute('style');
  for (const p in s) input.style.setProperty(p, s[p]);
}

function report() {
  const c = card();
  const errors = inputs.map((i) => (touched[i.id] ? fieldError(i) : null)).filter(Boolean);
  const s: State = {
    empty: !inputs.some((i) => i.value),
    complete: inputs.every((i) => i.value && !fieldError(i)),
    brand: detectBrand(c.card_number),
    error: errors[0] || null,
  };
  message.textContent = s.error ? s.error.message : '';
  const json = JSON.stringify(s);
  if (json != state) send('change', s);
  state = json;
  inputs.forEach((i) => paint(i, i == doc.activeElement));
}

const send = (t: string, data?: unknown) => port && port.postMessage({ t, data });

// As a shopper reads them: the number in groups (Amex 4-6-5), the expiry as MM / YY.
function format(input: HTMLInputElement) {
  const d = digits(input.value);
  input.value =
    input == number
      ? (detectBrand(d) == 'amex' ? d.slice(0, 15).replace(/^(\d{4})(\d{1,6})?(\d{1,5})?/, (_, a, b, c) => [a, b, c].filter(Boolean).join(' ')) : d.slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 '))
      : input == expiry
        ? d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2, 6) : d
        : d.slice(0, 4);
}

inputs.forEach((input) => {
  input.addEventListener('input', () => {
    // Deleting the separator must not put it straight back: only format on growth.
    if (!(input == expiry && /\/\s*$/.test(input.value))) format(input);
    report();
  });
  input.addEventListener('focus', () => (paint(input, true), send('focus', input.name)));
  // Enter in a field: the page decides what submitting means.
  input.addEventListener('keydown', (e) => e.key == 'Enter' && (e.preventDefault(), send('submit')));
  input.addEventListener('blur', () => {
    touched[input.id] = true;
    report();
    send('blur', input.name);
  });
});

function tokenize(id: number, extra: unknown) {
  const done = (response: unknown) => port && port.postMessage({ t: 'result', id, response });
  // The card's own fields are assigned last, so extra cannot replace them.
  const data: Record<string, unknown> = Object.assign({}, extra && typeof extra == 'object' ? extra : {}, card(), { token_type: 'credit_card' });
  delete data.cvv;
  const invalid = validatePublicKey(key) || validatePaymentData(data);
  if (invalid) {
    inputs.forEach((i) => (touched[i.id] = true));
    report();
    return done({ errors: [invalid] });
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15e3);
  fetch('../api/v1/tokens', {
    method: 'POST',
    headers: { authorization: 'Basic ' + btoa(key + ':'), 'content-type': 'application/json', 'x-tessera-fields': parentOrigin },
    body: JSON.stringify(data),
    signal: abort.signal,
    credentials: 'omit',
  })
    .then((r) => r.json())
    .then(done, () => done({ errors: [{ code: 'TKN01', message: abort.signal.aborted ? 'token request timed out' : 'token request failed' }] }))
    .then(() => clearTimeout(timer));
}

function receive(e: MessageEvent) {
  const d = e.data || {};
  if (d.t == 'tokenize') tokenize(d.id, d.extra);
  else if (d.t == 'focus') number.focus();
  else if (d.t == 'clear') {
    inputs.forEach((i) => ((i.value = ''), (touched[i.id] = false)));
    report();
  }
}

function clean(style: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (style && typeof style == 'object') {
    for (const [p, v] of Object.entries(style)) {
      const prop = p.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
      if (ALLOWED.test(prop) && typeof v == 'string' && v.length < 100 && !/url|image|expression|[\\;{}<>@]/i.test(v)) out[prop] = v;
      else console.warn('Tessera.fields: style ' + p + ' ignored (not an allowed property, or a value that could load something)');
    }
  }
  return out;
}

// The handshake: hello to the parent only (no secret in it), then the parent's answer from that
// window, carrying the port. Opened on its own (no parent) the frame does nothing.
if (parent != window) {
  addEventListener('message', function handshake(e) {
    if (e.source != parent || !e.data || e.data.t != 'port' || !e.ports[0]) return;
    removeEventListener('message', handshake);
    parentOrigin = e.origin;
    const s = e.data.style || {};
    styles = { base: clean(s.base), focus: clean(s.focus), invalid: clean(s.invalid) };
    const label = clean(s.label);
    doc.querySelectorAll('label').forEach((l) => {
      for (const p in label) l.style.setProperty(p, label[p]);
    });
    port = e.ports[0];
    port.onmessage = receive;
    send('ready');
    report();
    const height = () => port!.postMessage({ t: 'height', h: doc.documentElement.scrollHeight });
    new ResizeObserver(height).observe(doc.body);
  });
  parent.postMessage('tessera:hello', '*');
}
