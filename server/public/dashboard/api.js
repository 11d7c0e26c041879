// @ts-check
// The JSON API as the dashboard calls it: HTTP Basic with the tab's private key, exactly like a
// merchant's server; errors become ApiError with the API's own code and message.
import { state } from './state.js';

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {any} [body]
   */
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** @type {() => void} */
let onExpired = () => {};
/** What to do when the signed-in key answers 401 (session.js signs out). @param {() => void} fn */
export function onSessionExpired(fn) {
  onExpired = fn;
}

/**
 * An endpoint this gateway version does not have: the "not available" state, never an error.
 * @param {unknown} err
 */
export const isUnavailable = (err) => err instanceof ApiError && err.status === 404 && err.code === 'NOTFOUND';

/**
 * @param {string | null} key
 * @param {boolean} json
 */
function headersFor(key, json) {
  /** @type {Record<string, string>} */
  const headers = { authorization: 'Basic ' + btoa(`${key}:`) };
  if (json) headers['content-type'] = 'application/json';
  return headers;
}

/**
 * @param {string} path under /api/v1
 * @param {RequestInit} init
 */
async function send(path, init) {
  try {
    return await fetch('/api/v1' + path, { ...init, cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The gateway did not answer. Is it running?');
  }
}

/**
 * @param {Response} res
 * @param {any} data
 * @param {string | null} key
 */
function failure(res, data, key) {
  const e = (data && data.errors && data.errors[0]) || {};
  if (res.status === 401 && key === state.key && state.key) onExpired();
  return new ApiError(res.status, String(e.code ?? res.status), e.message ?? res.statusText, data);
}

/**
 * @param {string} path under /api/v1, with its query
 * @param {{ method?: string, body?: object, key?: string | null }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = 'GET', body, key = state.key } = {}) {
  const headers = { accept: 'application/json', ...headersFor(key, body !== undefined) };
  const res = await send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw failure(res, data, key);
  return data;
}

/**
 * A file the API answers (CSV export) saved by the browser: the request carries the key in its
 * header like every other call, so the download goes through fetch, a Blob and an object URL (a
 * plain link could not authenticate, and a key in a URL would end up in logs and history).
 * @param {string} path under /api/v1
 * @param {string} fallbackName file name when the answer names none
 * @returns {Promise<{ name: string, size: number }>}
 */
export async function download(path, fallbackName) {
  const key = state.key;
  const res = await send(path, { headers: { accept: 'text/csv', ...headersFor(key, false) } });
  if (!res.ok) {
    let data = null;
    try {
      data = await res.json();
    } catch {
      /* not JSON */
    }
    throw failure(res, data, key);
  }
  const blob = await res.blob();
  const named = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '');
  const name = named ? named[1] : fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000); // after the browser has read it
  return { name, size: blob.size };
}

/**
 * Lists may come as {list, meta}, {data}, or a bare array, depending on the endpoint.
 * @param {any} data
 * @returns {{ list: any[], meta: { limit: number, offset: number, total_results: number } | null }}
 */
export function listOf(data) {
  if (Array.isArray(data)) return { list: data, meta: null };
  if (data && Array.isArray(data.list)) return { list: data.list, meta: data.meta ?? null };
  if (data && Array.isArray(data.data)) return { list: data.data, meta: data.meta ?? null };
  return { list: [], meta: null };
}
