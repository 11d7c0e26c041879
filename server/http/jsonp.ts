import { E, GatewayError } from '../errors.js';

/** An identifier or a dotted path of identifiers (`onToken`, `app.cb`, `$jsonp_1`); nothing callable beyond that. */
export const CALLBACK_PATTERN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK = 128;

export function checkCallback(callback: unknown): string {
  if (typeof callback !== 'string' || callback.length > MAX_CALLBACK || !CALLBACK_PATTERN.test(callback)) {
    throw new GatewayError(E.JSONP_CALLBACK_INVALID);
  }
  return callback;
}

/**
 * `/**\/` keeps a response from being read as anything but script (Rosetta Flash defence);
 * U+2028/2029 are escaped for engines that predate JSON superset support.
 */
export function jsonpBody(callback: unknown, json: string): string {
  const safe = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `/**/${checkCallback(callback)}(${safe});`;
}
