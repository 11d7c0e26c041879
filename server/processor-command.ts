import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessorCommand } from './cli-args.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import { CommandError, GatewayRequest, askGateway } from './control-file.js';
import type { Db } from './db/index.js';
import { DataDirLockedError, lockHolder } from './db/lock.js';
import type { Env } from './domain/merchant/keys.js';
import {
  ConnectionView, describeConnection, readConnection, removeConnection, setConnection,
} from './domain/merchant/processor-connections.js';
import { reconcilePending } from './domain/payments/reconcile.js';
import { sendChargeReceipt } from './domain/documents/receipts.js';
import { resolveRuns } from './domain/billing/run-outcome.js';
import { GatewayError } from './errors.js';
import { ProcessorRegistry, builtInRegistry } from './processor/registry.js';
import { ADMIN_PROCESSOR_PATH, ADMIN_RECONCILE_PATH } from './routes/admin.js';
import { Vault, loadVault } from './vault.js';
import { checkDataKey } from './vault-canary.js';
import { clusterKeys, leftBehind } from './vault-cluster.js';

// `tessera processor set|show|remove|reconcile`: a merchant environment's processor connection
// (server/domain/merchant/processor-connections.ts). As `tessera keys`: on PostgreSQL straight on the
// database (any number of processes may); embedded, on the data directory when no process holds
// it, else through the gateway that holds it (its admin route, found in the control file).

export interface ProcessorCommandOptions {
  /** Where a secret given as `-` is read from (default: standard input). */
  stdin?: NodeJS.ReadableStream;
  /** The connectors (default: every connector of this build). */
  registry?: ProcessorRegistry;
  /** Who holds an embedded data directory (default: its lock's live owner other than this process). */
  holder?: (dir: string) => number | null;
}

/** A connection or a reconciliation as the command prints it: lines of `label  value`. */
type Answer = { kind: 'connection'; merchant: string; view: ConnectionView; saved?: boolean }
  | { kind: 'removed'; merchant: string; env: Env; removed: boolean }
  | { kind: 'reconciled'; summary: Record<string, number> };

export async function processorCommand(config: Config, cmd: ProcessorCommand, open: () => Promise<Db>, opts: ProcessorCommandOptions = {}): Promise<string[]> {
  const registry = opts.registry ?? builtInRegistry();
  if (cmd.kind === 'processor set') cmd = { ...cmd, fields: await secretsFromStdin(registry, cmd, opts.stdin ?? process.stdin) };
  const lines = await run(config, cmd, open, opts, registry);
  return cmd.kind === 'processor set' && cmd.check ? [...lines, ...(await probed(registry, cmd))] : lines;
}

/**
 * A secret given as `-` (`--transaction-key -`) is read from standard input, its first line, so it
 * never shows in the process list or the shell's history. Only one secret may be read so.
 */
async function secretsFromStdin(
  registry: ProcessorRegistry, cmd: Extract<ProcessorCommand, { kind: 'processor set' }>, stdin: NodeJS.ReadableStream,
): Promise<Record<string, string>> {
  const secret = new Set(registry.factory(cmd.connector)?.fields.filter((f) => f.secret).map((f) => f.name) ?? []);
  const dashed = Object.keys(cmd.fields).filter((k) => cmd.fields[k] === '-' && secret.has(k));
  if (dashed.length === 0) return cmd.fields;
  if (dashed.length > 1) throw new CommandError('tessera: processor set: only one secret can be read from standard input (-)');
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 4096) break;
  }
  const value = text.split(/\r?\n/)[0];
  if (!value) throw new CommandError(`tessera: processor set: --${dashed[0].replace(/_/g, '-')} - reads the secret from standard input, which gave none`);
  return { ...cmd.fields, [dashed[0]]: value };
}

/** How long `processor set` waits for the processor's answer to its check. */
const PROBE_MS = 10_000;

/**
 * After a set: the processor asked whether the connection works for the gateway (credentials, the
 * reporting reconciliation needs), as warnings; the connection is saved either way.
 */
async function probed(registry: ProcessorRegistry, cmd: Extract<ProcessorCommand, { kind: 'processor set' }>): Promise<string[]> {
  const input = { merchantId: cmd.merchant, env: cmd.env, connector: cmd.connector, fields: cmd.fields, sandbox: cmd.sandbox, endpoint: cmd.endpoint };
  const connector = registry.connect(readConnection(registry, input));
  if (!connector.probe) return [];
  const problems = await connector.probe({ signal: AbortSignal.timeout(PROBE_MS) })
    .catch((err: unknown) => [`could not check the connection: ${err instanceof Error ? err.message : String(err)}`]);
  return problems.length === 0
    ? ['checked           the processor accepts these credentials, and its reporting answers (reconciliation can look operations up)']
    : problems.map((p) => `warning           ${p}`);
}

async function run(
  config: Config, cmd: ProcessorCommand, open: () => Promise<Db>, opts: ProcessorCommandOptions, registry: ProcessorRegistry,
): Promise<string[]> {
  const dir = config.databaseUrl ? undefined : config.dataDir;
  if (!dir) return format(cmd, await direct(config, cmd, open, registry));
  const holder = (opts.holder ?? lockHolder)(dir);
  if (holder) return format(cmd, await viaGateway(dir, holder, cmd));
  if (cmd.merchant !== undefined && !existsSync(dir)) {
    throw new CommandError(`tessera: no merchant ${cmd.merchant}: there is no database in ${dir} (TESSERA_DATA_DIR) yet`);
  }
  try {
    return format(cmd, await direct(config, cmd, open, registry));
  } catch (err) {
    // A gateway took the directory between the look and the open.
    const now = err instanceof DataDirLockedError ? (opts.holder ?? lockHolder)(dir) : null;
    if (now) return format(cmd, await viaGateway(dir, now, cmd));
    throw err;
  }
}

/** The data key the gateways use: never a generated one (it would encrypt what no gateway can read). */
function commandVault(config: Config): Vault {
  const dataDir = config.databaseUrl ? undefined : config.dataDir;
  if (!config.dataKey && (!dataDir || !existsSync(join(dataDir, 'data.key')))) {
    throw new CommandError(
      `tessera: TESSERA_DATA_KEY is required: processor secrets are stored encrypted with the gateways' data key` +
        (dataDir ? ` (or start the gateway once on ${dataDir}, which keeps its key there)` : ''),
    );
  }
  return loadVault({ dataKey: config.dataKey, retiredKeys: config.retiredDataKeys, dataDir });
}

/** The key reads what is stored (the canary) and is the one the cluster writes under: else nothing is written. */
async function checkedVault(config: Config, db: Db): Promise<Vault> {
  const vault = commandVault(config);
  await checkDataKey(db, vault, systemClock.now());
  const problem = leftBehind(vault, await clusterKeys(db));
  if (problem) throw new CommandError(`tessera: ${problem}; run this command with the cluster's data key in TESSERA_DATA_KEY`);
  return vault;
}

async function direct(config: Config, cmd: ProcessorCommand, open: () => Promise<Db>, registry: ProcessorRegistry): Promise<Answer> {
  const db = await open();
  try {
    switch (cmd.kind) {
      case 'processor set': {
        const vault = await checkedVault(config, db);
        const input = { merchantId: cmd.merchant, env: cmd.env, connector: cmd.connector, fields: cmd.fields, sandbox: cmd.sandbox, endpoint: cmd.endpoint };
        const view = await db.tx((q) => setConnection(q, vault, registry, input, systemClock.now()));
        return { kind: 'connection', merchant: cmd.merchant, view, saved: true };
      }
      case 'processor show':
        return { kind: 'connection', merchant: cmd.merchant, view: await describeConnection(db, { merchantId: cmd.merchant, env: cmd.env }) };
      case 'processor remove': {
        const removed = await db.tx((q) => removeConnection(q, { merchantId: cmd.merchant, env: cmd.env }));
        return { kind: 'removed', merchant: cmd.merchant, env: cmd.env, removed };
      }
      case 'processor reconcile': {
        const vault = await checkedVault(config, db);
        const deps = {
          vault, processors: registry, clock: systemClock, notFoundAfterMs: config.reconcileNotFoundMs, resolveRuns, sendReceipt: sendChargeReceipt,
        };
        const summary = await reconcilePending(db, deps, { merchantId: cmd.merchant, env: cmd.env, all: true });
        return { kind: 'reconciled', summary: { ...summary } };
      }
    }
  } catch (err) {
    if (err instanceof GatewayError) throw refusal(cmd, err.code, err.message);
    throw err;
  } finally {
    await db.close();
  }
}

/** A refusal of the domain (the same on both paths) as the operator's one line. */
function refusal(cmd: ProcessorCommand, code: string, message: string): CommandError {
  if (code === 'MERCHANT01') return new CommandError(`tessera: no merchant ${cmd.merchant}; tessera keys create without --merchant creates a merchant`);
  if (code === 'REQ01') return new CommandError(`tessera: ${cmd.kind}: ${message}`);
  return new CommandError(`tessera: ${cmd.kind} refused (${code}): ${message}`);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const row = (label: string, value: string) => `${label.padEnd(17)} ${value}`;

function format(cmd: ProcessorCommand, a: Answer): string[] {
  if (a.kind === 'reconciled') {
    const scope = `${cmd.merchant ?? 'every merchant'}, ${cmd.env ?? 'both environments'}`;
    return [`reconciled pending operations (${scope})`, ...Object.entries(a.summary).map(([k, v]) => row(k.replace(/_/g, ' '), String(v)))];
  }
  if (a.kind === 'removed') {
    return [a.removed
      ? `removed the ${a.env} processor connection of ${a.merchant}: its ${a.env} charges are refused (PROC01) until tessera processor set`
      : `${a.merchant} has no ${a.env} processor connection: nothing removed`];
  }
  const v = a.view;
  const lines = [row('merchant', a.merchant), row('environment', v.env)];
  if (v.env === 'test') return [...lines, row('connector', 'simulator (test mode always charges through the simulator)')];
  if (!v.configured) return [...lines, row('connector', `none: ${v.env} charges are refused (PROC01) until tessera processor set`)];
  const { sandbox, endpoint, ...fields } = v.settings;
  lines.push(row('connector', v.connector ?? ''));
  for (const [k, value] of Object.entries(fields)) lines.push(row(k, value === null ? '(not set)' : String(value)));
  for (const k of Object.keys(v.secrets)) lines.push(row(k, 'set (never shown)'));
  lines.push(row('endpoint', endpoint ? String(endpoint) : sandbox ? "the processor's sandbox" : "the processor's production endpoint"));
  lines.push(row('updated', iso(v.updated_at) ?? ''));
  if (a.saved) lines.push(`saved: the next ${v.env} charge of ${a.merchant} goes through ${v.connector}`);
  return lines;
}

/** How long the command waits for a reconciliation through the gateway: it asks processors and may take long. */
export const RECONCILE_ANSWER_MS = 15 * 60_000;

async function viaGateway(dir: string, pid: number, cmd: ProcessorCommand): Promise<Answer> {
  const scope = (m: string, env: Env) => `?merchant=${encodeURIComponent(m)}&env=${env}`;
  const request: GatewayRequest = cmd.kind === 'processor set'
    ? {
      method: 'POST', path: ADMIN_PROCESSOR_PATH,
      body: { merchant: cmd.merchant, env: cmd.env, connector: cmd.connector, fields: cmd.fields, sandbox: cmd.sandbox, endpoint: cmd.endpoint },
    }
    : cmd.kind === 'processor show' ? { method: 'GET', path: ADMIN_PROCESSOR_PATH + scope(cmd.merchant, cmd.env) }
      : cmd.kind === 'processor remove' ? { method: 'DELETE', path: ADMIN_PROCESSOR_PATH + scope(cmd.merchant, cmd.env) }
        : { method: 'POST', path: ADMIN_RECONCILE_PATH, body: { merchant: cmd.merchant, env: cmd.env }, waitMs: RECONCILE_ANSWER_MS };
  const { url, status, body: answer } = await askGateway(dir, pid, 'processor', request);
  if (status === 200 && answer) {
    if (cmd.kind === 'processor reconcile') return { kind: 'reconciled', summary: answer.summary };
    if (cmd.kind === 'processor remove') return { kind: 'removed', merchant: cmd.merchant, env: cmd.env, removed: answer.removed };
    return { kind: 'connection', merchant: cmd.merchant, view: answer.connection, saved: cmd.kind === 'processor set' };
  }
  const code = answer?.errors?.[0]?.code;
  const message = answer?.errors?.[0]?.message ?? `HTTP ${status}`;
  if (code) throw refusal(cmd, code, message);
  throw new CommandError(`tessera: the gateway (process ${pid}) at ${url} answered ${status}: ${message}`);
}
