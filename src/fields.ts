// Hosted fields, the page's half (GET /fields.js): mounts one frame from the gateway's origin that
// holds the card inputs, so the card never passes through the merchant's page (PCI SAQ A). The
// page and the frame meet in an origin-checked handshake (the frame says hello to its parent; the
// page answers only a hello from that frame's window and the gateway's origin, with a
// MessageChannel port), then talk over the port only. Budget: 1,024 B min+gzip (test/src/fields.test.ts).

type Handler = (data: unknown) => void;
type Response = { errors?: { code: string; message: string }[]; [key: string]: unknown };
type Callback = (response: Response) => void;

export type FieldsOptions = {
  /** Allow-listed CSS for the frame's inputs and labels: `{ base, focus, invalid, label }`, each `{ color: '#333', ... }`. */
  style?: Record<string, Record<string, string>>;
  /** Gateway root; by default where fields.js was loaded from. */
  baseUrl?: string;
  /** Milliseconds for the frame to load, then for each tokenize answer; default 15000. */
  timeout?: number;
};

export type Fields = {
  tokenize(extra: Record<string, unknown> | null, callback: Callback): void;
  on(event: 'ready' | 'change' | 'focus' | 'blur' | 'error', handler: Handler): Fields;
  focus(): void;
  clear(): void;
  destroy(): void;
};

const script = ((document.currentScript || {}) as { src?: string }).src || '';

const failure = (message: string): Response => ({ errors: [{ code: 'TKN01', message }] });

export function fields(publicKey: string, container: string | Element, options: FieldsOptions = {}): Fields {
  const base = (options.baseUrl || script.replace(/\/fields[^/]*$/, '')).replace(/\/+$/, '');
  const origin = new URL(base, location.href).origin;
  const timeout = options.timeout || 15e3;
  const host = typeof container == 'string' ? document.querySelector(container) : container;
  if (!host) throw new TypeError('Tessera.fields: no element ' + container);
  const frame = document.createElement('iframe');
  const handlers: Record<string, Handler[]> = {};
  const pending: Record<number, Callback> = {};
  const queue: unknown[] = [];
  let port: MessagePort | null = null;
  let calls = 0;
  let dead = '';

  const emit = (event: string, data?: unknown) => (handlers[event] || []).forEach((h) => h(data));
  const post = (message: unknown) => (port ? port.postMessage(message) : queue.push(message));
  const answer = (id: number, response: Response) => {
    const callback = pending[id];
    delete pending[id];
    if (callback) callback(response);
  };
  const stop = (message: string) => {
    dead = message;
    Object.keys(pending).forEach((id) => answer(+id, failure(message)));
  };
  const fail = (message: string) => {
    stop(message);
    console.error('Tessera.fields: ' + message);
    emit('error', { code: 'TKN01', message });
  };

  // Also a later hello from the same frame: it loaded after the timeout, or it was reloaded (moved
  // in the page); either way it gets a new port, and the fields work again.
  const hello = (e: MessageEvent) => {
    if (e.source != frame.contentWindow || e.origin != origin || e.data != 'tessera:hello') return;
    clearTimeout(loading);
    dead = '';
    if (port) port.close();
    const channel = new MessageChannel();
    port = channel.port1;
    port.onmessage = (m) => {
      const d = m.data || {};
      if (d.t == 'height') frame.height = d.h;
      else if (d.t == 'result') answer(d.id, d.response);
      else emit(d.t, d.data);
    };
    frame.contentWindow!.postMessage({ t: 'port', style: options.style }, origin, [channel.port2]);
    queue.splice(0).forEach(post);
  };
  addEventListener('message', hello);
  // Framed where frame-ancestors refuses it (live mode: an origin not in allowed_origins), the frame never says hello.
  const loading = setTimeout(() => fail('card fields did not load; in live mode this page\'s origin must be in allowed_origins'), timeout);

  frame.src = base + '/fields/frame?key=' + encodeURIComponent(publicKey);
  frame.title = 'Card details';
  frame.setAttribute('data-tessera-fields', '');
  frame.width = '100%';
  frame.frameBorder = '0';
  host.appendChild(frame);

  const api: Fields = {
    tokenize(extra, callback) {
        const id = ++calls;
      pending[id] = callback;
      if (dead) return void setTimeout(() => answer(id, failure(dead)));
      post({ t: 'tokenize', id, extra });
      setTimeout(() => answer(id, failure('token request timed out')), timeout + 5e3);
    },
    on(event, handler) {
      (handlers[event] = handlers[event] || []).push(handler);
      return api;
    },
    focus() {
      frame.focus();
      post({ t: 'focus' });
    },
    clear: () => post({ t: 'clear' }),
    destroy() {
      clearTimeout(loading);
      removeEventListener('message', hello);
      if (port) port.close();
      frame.remove();
      stop('fields destroyed');
    },
  };
  return api;
}
