import type { CallContext, Connector, ProcessorResult } from '../../connector.js';
import { unknownResult } from '../../connector.js';
import type { Connection, ConnectorFactory, ConnectorRuntime } from '../../registry.js';
import { readTransaction, refused } from './answers.js';
import { post, PRODUCTION_URL, SANDBOX_URL, type Endpoint } from './http.js';
import { lookup, probe } from './reporting.js';
import { LIMITS, Refusal, refundRequest, saleRequest, voidRequest } from './requests.js';

/**
 * The Authorize.Net connector, on its JSON API (createTransactionRequest for sale, void and
 * refund; the Transaction Reporting API for lookup). Decisions: docs/decisions/authorizenet.md.
 *
 * A money-moving call is sent once, never retried: no readable answer (deadline, network, HTTP
 * status not 2xx, a body not JSON, an answer without a transaction result) is `unknown`, and the
 * gateway resolves it with lookup() by our reference, which the sale carries as its invoiceNumber.
 */

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function endpoint(connection: Connection, runtime: ConnectorRuntime): Endpoint {
  const s = connection.settings;
  const url = str(s.endpoint) || (s.sandbox === true || s.sandbox === 'true' ? SANDBOX_URL : PRODUCTION_URL);
  return {
    url,
    fetch: runtime.fetch,
    loginId: str(s.login_id),
    transactionKey: str(connection.secrets.transaction_key),
  };
}

/** Sends one createTransactionRequest built by `build` (a Refusal is answered before any I/O). */
async function transact(ep: Endpoint, build: () => unknown, ctx: CallContext): Promise<ProcessorResult> {
  let payload: unknown;
  try {
    payload = build();
  } catch (e) {
    if (e instanceof Refusal) return refused(e.message);
    throw e;
  }
  const a = await post(ep, payload, ctx.signal);
  if (!a.ok) return unknownResult(a.reason);
  return readTransaction(a.body);
}

export function authorizenetConnector(connection: Connection, runtime: ConnectorRuntime): Connector {
  const ep = endpoint(connection, runtime);
  const creds = { loginId: ep.loginId, transactionKey: ep.transactionKey };
  return {
    name: 'authorizenet',
    local: false,
    sale: (req, ctx) => transact(ep, () => saleRequest(creds, req), ctx),
    void: (req, ctx) => transact(ep, () => voidRequest(creds, req), ctx),
    refund: (req, ctx) => transact(ep, () => refundRequest(creds, req), ctx),
    lookup: (req, ctx) => lookup(ep, req, ctx.signal),
    probe: (ctx) => probe(ep, ctx.signal),
  };
}

/** What the API refuses in merchantAuthentication (XSD: name at most 25, transactionKey at most 16). */
export function checkConnection(connection: Connection): void {
  const login = connection.settings.login_id;
  const key = connection.secrets.transaction_key;
  if (typeof login !== 'string' || login === '') throw new Error('authorizenet needs --login-id (the API Login ID)');
  if (typeof key !== 'string' || key === '') throw new Error('authorizenet needs --transaction-key (the Transaction Key)');
  if (login !== login.trim() || /\s/.test(login)) throw new Error('the API Login ID has white space in it: paste it again');
  if (key !== key.trim() || /\s/.test(key)) throw new Error('the Transaction Key has white space in it: paste it again');
  if (Array.from(login).length > LIMITS.loginId) {
    throw new Error(`the API Login ID is at most ${LIMITS.loginId} characters (this one has ${Array.from(login).length})`);
  }
  if (Array.from(key).length > LIMITS.transactionKey) {
    throw new Error(`the Transaction Key is at most ${LIMITS.transactionKey} characters (Authorize.Net issues 16; this one has ${Array.from(key).length})`);
  }
  const sandbox = connection.settings.sandbox;
  if (sandbox != null && typeof sandbox !== 'boolean' && sandbox !== 'true' && sandbox !== 'false') {
    throw new Error('sandbox is true or false');
  }
}

export const authorizenet: ConnectorFactory = {
  name: 'authorizenet',
  fields: [
    { name: 'login_id', secret: false, required: true, description: 'API Login ID (Merchant Interface: Account > Settings > API Credentials & Keys)' },
    { name: 'transaction_key', secret: true, required: true, description: 'Transaction Key (16 characters; same page)' },
  ],
  check: checkConnection,
  create: authorizenetConnector,
};
