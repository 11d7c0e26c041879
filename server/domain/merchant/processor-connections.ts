import type { Queryable } from '../../db/index.js';
import { E, GatewayError, badRequest } from '../../errors.js';
import type { Connection, ConnectorFactory, ProcessorRegistry } from '../../processor/registry.js';
import type { Vault } from '../../vault.js';
import { processorHome } from '../../vault-homes.js';
import type { Env, Scope } from './keys.js';

// A merchant environment's processor connection (table processor_connections, migration 025): the
// connector its live charges go through, that connector's plain settings and its secrets, encrypted
// in one vault blob sealed to the row. The operator sets it (`tessera processor set`, straight on
// the database or through a running embedded gateway's admin route); charges read it with
// getConnection. Test mode always charges through the simulator: no connection is kept for it.
//
// Every connection's settings hold the connector's non-secret fields plus `sandbox` (boolean: the
// processor's sandbox instead of its production endpoint) and `endpoint` (a URL, or null: another
// endpoint, e.g. a local fake processor). A `set` replaces the whole connection.

export interface ConnectionInput {
  merchantId: string;
  env: Env;
  connector: string;
  /** The connector's fields (ConnectorFactory.fields) by name, as given: `{ login_id, transaction_key }`. */
  fields: Record<string, string>;
  sandbox?: boolean;
  endpoint?: string | null;
}

/** A connection as it may be shown: never a secret, only which secrets are set. */
export interface ConnectionView {
  env: Env;
  /** The configured connector; 'simulator' for the test environment (always); null when none is configured. */
  connector: string | null;
  configured: boolean;
  settings: Record<string, string | boolean | null>;
  /** Each secret the connection holds, as 'set'. */
  secrets: Record<string, 'set'>;
  created_at: Date | null;
  updated_at: Date | null;
}

/** The flag of a field on the command line: `login_id` is `--login-id`. */
export const flagOf = (name: string) => `--${name.replace(/_/g, '-')}`;

const MAX_VALUE = 1000;

export const TEST_ENV_REFUSED =
  'the test environment always charges through the simulator and takes no processor connection; use --env live';

/**
 * Why `endpoint` cannot be a connection's endpoint, or null when it can: an absolute https URL, or
 * http to a loopback host only (127.0.0.0/8, ::1, localhost: a fake processor on this machine);
 * no user name or password in it (settings are shown in clear).
 */
export function endpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `--endpoint must be an absolute URL (https://…), got ${JSON.stringify(endpoint)}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `--endpoint must be an https URL (http only for a loopback host), got ${url.protocol.slice(0, -1)}:`;
  }
  if (url.username || url.password) return '--endpoint must not carry a user name or password (it is shown by tessera processor show)';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `--endpoint must be https: http is allowed for a loopback host only (127.0.0.0/8, ::1, localhost), not ${url.hostname}`;
  }
  return null;
}

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

async function merchantExists(q: Queryable, merchantId: string): Promise<void> {
  const [m] = await q.query('SELECT 1 AS one FROM merchants WHERE id = $1', [merchantId]);
  if (!m) throw new GatewayError(E.MERCHANT_NOT_FOUND, `merchant ${merchantId} not found`);
}

/** The connection the input describes, checked: REQ01 with the operator's message when it is not usable. */
export function readConnection(registry: ProcessorRegistry, input: ConnectionInput): Connection {
  if (input.env === 'test') throw badRequest(TEST_ENV_REFUSED);
  const factory = registry.factory(input.connector);
  if (!factory) {
    throw badRequest(`no connector named ${JSON.stringify(input.connector)}; this build has ${registry.names().join(', ') || 'none'}`);
  }
  const endpoint = input.endpoint ?? null;
  if (input.sandbox && endpoint !== null) throw badRequest('--sandbox and --endpoint exclude each other: give one or neither');
  const problem = endpoint === null ? null : endpointProblem(endpoint);
  if (problem) throw badRequest(problem);
  const connection: Connection = {
    connector: factory.name,
    settings: { sandbox: input.sandbox === true, endpoint: endpoint === null ? null : new URL(endpoint).href },
    secrets: {},
  };
  readFields(factory, input.fields, connection);
  try {
    factory.check(connection);
  } catch (err) {
    throw badRequest(`${factory.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return connection;
}

function readFields(factory: ConnectorFactory, given: Record<string, string>, into: Connection): void {
  const known = new Map(factory.fields.map((f) => [f.name, f]));
  const takes = factory.fields.map((f) => flagOf(f.name)).join(', ');
  for (const name of Object.keys(given)) {
    if (!known.has(name)) throw badRequest(`${factory.name} takes no ${flagOf(name)} (it takes ${takes})`);
  }
  for (const f of factory.fields) {
    const value = Object.hasOwn(given, f.name) ? given[f.name] : undefined;
    if (value === undefined || value === '') {
      if (f.required) throw badRequest(`${factory.name} needs ${flagOf(f.name)}: ${f.description}`);
      if (!f.secret) into.settings[f.name] = null;
      continue;
    }
    if (typeof value !== 'string' || value.length > MAX_VALUE || /[\u0000-\u001f\u007f]/.test(value)) {
      throw badRequest(`${flagOf(f.name)} must be text of at most ${MAX_VALUE} characters without control characters`);
    }
    if (f.secret) into.secrets[f.name] = value;
    else into.settings[f.name] = value;
  }
}

const COLUMNS = 'env, connector, settings, secret_names, created_at, updated_at';

/**
 * Stores (or replaces) a merchant environment's connection, its secrets encrypted; answers what
 * may be shown of it. REQ01 for a connection that cannot be used, MERCHANT01 for an unknown merchant.
 */
export async function setConnection(q: Queryable, vault: Vault, registry: ProcessorRegistry, input: ConnectionInput, now: Date): Promise<ConnectionView> {
  const connection = readConnection(registry, input);
  await merchantExists(q, input.merchantId);
  const scope: Scope = { merchantId: input.merchantId, env: input.env };
  const blob = vault.encrypt(JSON.stringify(connection.secrets), processorHome(scope));
  const [row] = await q.query(
    `INSERT INTO processor_connections (merchant_id, env, connector, settings, secrets_enc, secret_names, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (merchant_id, env) DO UPDATE SET connector = excluded.connector, settings = excluded.settings,
       secrets_enc = excluded.secrets_enc, secret_names = excluded.secret_names, updated_at = excluded.updated_at
     RETURNING ${COLUMNS}`,
    [scope.merchantId, scope.env, connection.connector, connection.settings, blob, Object.keys(connection.secrets).sort(), now],
  );
  return present(scope.env, row);
}

/**
 * The connection of a merchant environment with its secrets decrypted (for this call only), or
 * null when none is configured. VAULT01/VAULT02 when the blob cannot be read.
 */
export async function getConnection(q: Queryable, vault: Vault, scope: Scope): Promise<Connection | null> {
  const [row] = await q.query<{ connector: string; settings: Connection['settings']; secrets_enc: string }>(
    'SELECT connector, settings, secrets_enc FROM processor_connections WHERE merchant_id = $1 AND env = $2',
    [scope.merchantId, scope.env],
  );
  if (!row) return null;
  const secrets = JSON.parse(vault.decrypt(row.secrets_enc, processorHome(scope))) as Record<string, string>;
  return { connector: row.connector, settings: row.settings, secrets };
}

/** What may be shown of a merchant environment's connection (no secret; nothing decrypted). MERCHANT01 for an unknown merchant. */
export async function describeConnection(q: Queryable, scope: Scope): Promise<ConnectionView> {
  await merchantExists(q, scope.merchantId);
  return (await describeConnections(q, scope.merchantId)).find((v) => v.env === scope.env)!;
}

/** Both environments of a merchant: test (the simulator, always), then live. */
export async function describeConnections(q: Queryable, merchantId: string): Promise<ConnectionView[]> {
  const [row] = await q.query(`SELECT ${COLUMNS} FROM processor_connections WHERE merchant_id = $1 AND env = 'live'`, [merchantId]);
  const simulator: ConnectionView = {
    env: 'test', connector: 'simulator', configured: true, settings: {}, secrets: {}, created_at: null, updated_at: null,
  };
  return [simulator, present('live', row)];
}

function present(env: Env, row: Record<string, any> | undefined): ConnectionView {
  if (!row) return { env, connector: null, configured: false, settings: {}, secrets: {}, created_at: null, updated_at: null };
  return {
    env,
    connector: row.connector,
    configured: true,
    settings: row.settings ?? {},
    secrets: Object.fromEntries((row.secret_names as string[]).map((n) => [n, 'set' as const])),
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  };
}

/** Removes a merchant environment's connection; false when there was none. MERCHANT01 for an unknown merchant. */
export async function removeConnection(q: Queryable, scope: Scope): Promise<boolean> {
  await merchantExists(q, scope.merchantId);
  const rows = await q.query('DELETE FROM processor_connections WHERE merchant_id = $1 AND env = $2 RETURNING env', [scope.merchantId, scope.env]);
  return rows.length === 1;
}
