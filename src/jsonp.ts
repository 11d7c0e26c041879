// One JSONP request: a <script> tag, a one-off global callback, a timeout, and a
// cleanup that runs exactly once whichever of them finishes first.

type Globals = Record<string, unknown>;

let counter = 0;

const failure = (message: string) => ({ errors: [{ code: 'TKN01', message }] });

// The gateway serves the bundle at /tokenizer.js, /tokenizer-<version>.js and
// /tokenizer.mjs from its root, so what precedes that file name is the gateway root,
// path prefix included.
// Under any other name (a copy on a CDN, or bundled into someone's app) only the
// script's origin is a guess worth making; with no script at all, the page's origin.
export function scriptBase(src: string | undefined): string {
  const m = /^(.*)\/tokenizer[^/?#]*\.m?js(?:[?#]|$)/.exec(src || '') || /^[\w+.-]+:\/\/[^/?#]+/.exec(src || '');
  return m ? (m[1] === undefined ? m[0] : m[1]) : '';
}

export function jsonp(url: (callbackName: string) => string, timeout: number, done: (response: unknown) => void): void {
  const w = window as unknown as Globals;
  // The random part keeps two copies of the bundle on one page (each counting from 1)
  // from claiming the same global.
  const name = '__tessera_cb_' + ++counter + '_' + Math.random().toString(36).slice(2, 8);
  const script = document.createElement('script');
  let open = true;

  const finish = (response: unknown, late?: boolean) => {
    if (!open) return;
    open = false;
    clearTimeout(timer);
    script.remove();
    // A detached script that is still downloading will run anyway: after a timeout a
    // no-op stays behind (and removes itself) so a late reply neither throws a
    // ReferenceError into the page nor reaches the caller a second time.
    if (late) w[name] = () => delete w[name];
    else delete w[name];
    done(response);
  };

  w[name] = (response: unknown) => finish(response);
  // `load` without the callback having run means the reply was not our JSONP call
  // (e.g. a proxy's error page): fail now instead of waiting for the timeout.
  script.onload = () => finish(failure('no token response'));
  script.onerror = () => finish(failure('token request failed'));
  const timer = setTimeout(() => finish(failure('token request timed out'), true), timeout);
  script.async = true;
  script.src = url(name);
  (document.head || document.documentElement).appendChild(script);
}
