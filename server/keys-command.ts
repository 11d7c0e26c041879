import { existsSync } from 'node:fs';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import { CommandError, askGateway } from './control-file.js';
import type { Db } from './db/index.js';
import { DataDirLockedError, lockHolder } from './db/lock.js';
import { merchantKeys, newKeySet } from './domain/merchant/key-commands.js';
import type { Env, ExpireOld, KeySet } from './domain/merchant/keys.js';
import { GatewayError } from './errors.js';
import { ADMIN_KEYS_PATH } from './routes/admin.js';


export type KeysCommand =
  | { kind: 'keys create'; merchant?: string; name?: string; env: Env; expireOld: ExpireOld }
  | { kind: 'keys list'; merchant: string };

interface Listing {
  key_set_id: string;
  env: string;
  kind: string;
  redacted: string;
  expires_at: string | Date | null;
}

export function formatKeySet(merchantId: string, set: KeySet): string {
  return `merchant     ${merchantId}
environment  ${set.env}
public key   ${set.public_key}
private key  ${set.private_key}
(the private key is shown only now: keep it on your server)`;
}

function formatListing(k: Listing): string {
  const exp = k.expires_at ? `expires ${new Date(k.expires_at).toISOString()}` : 'active';
  return `${k.key_set_id}  ${k.env}  ${k.kind}  ${k.redacted}  ${exp}`;
}

const unknownMerchant = (id: string) =>
  new CommandError(`tessera: no merchant ${id}; tessera keys create without --merchant creates a merchant`);

/**
 * `tessera keys create|list`. PostgreSQL: on the database (any number of processes may). Embedded:
 * on the data directory when no process holds it, else through the gateway that holds it (its
 * admin route, found in the control file), since PGlite's files take one process.
 */
export async function keysCommand(config: Config, cmd: KeysCommand, open: () => Promise<Db>): Promise<string[]> {
  const dir = config.databaseUrl ? undefined : config.dataDir;
  if (!dir) return direct(cmd, open);
  const holder = lockHolder(dir);
  if (holder) return viaGateway(dir, holder, cmd);
  // No merchant can exist in a directory that does not: say so, and create nothing.
  if (cmd.merchant !== undefined && !existsSync(dir)) {
    throw new CommandError(`tessera: no merchant ${cmd.merchant}: there is no database in ${dir} (TESSERA_DATA_DIR) yet`);
  }
  try {
    return await direct(cmd, open);
  } catch (err) {
    // A gateway took the directory between the look and the open.
    const now = err instanceof DataDirLockedError ? lockHolder(dir) : null;
    if (now) return viaGateway(dir, now, cmd);
    throw err;
  }
}

async function direct(cmd: KeysCommand, open: () => Promise<Db>): Promise<string[]> {
  const db = await open();
  try {
    if (cmd.kind === 'keys create') {
      const input = { merchantId: cmd.merchant, name: cmd.name, env: cmd.env, expireOld: cmd.expireOld };
      const { merchantId, set } = await db.tx((q) => newKeySet(q, input, systemClock.now()));
      return [formatKeySet(merchantId, set)];
    }
    return (await merchantKeys(db, cmd.merchant)).map(formatListing);
  } catch (err) {
    if (err instanceof GatewayError && err.code === 'MERCHANT01') throw unknownMerchant(cmd.merchant!);
    throw err;
  } finally {
    await db.close();
  }
}

async function viaGateway(dir: string, pid: number, cmd: KeysCommand): Promise<string[]> {
  const answer = await askGateway(dir, pid, 'key', cmd.kind === 'keys create'
    ? { method: 'POST', path: ADMIN_KEYS_PATH, body: { merchant: cmd.merchant, name: cmd.name, env: cmd.env, expire_old: cmd.expireOld } }
    : { method: 'GET', path: `${ADMIN_KEYS_PATH}?merchant=${encodeURIComponent(cmd.merchant)}` });
  if (answer.status === 200) {
    if (cmd.kind === 'keys create') return [formatKeySet(answer.body.merchant_id, answer.body.key_set)];
    return (answer.body.list as Listing[]).map(formatListing);
  }
  const code = answer.body?.errors?.[0]?.code;
  if (code === 'MERCHANT01') throw unknownMerchant(cmd.merchant!);
  const message = answer.body?.errors?.[0]?.message ?? `HTTP ${answer.status}`;
  throw new CommandError(`tessera: the gateway (process ${pid}) at ${answer.url} answered ${answer.status} ${code ?? ''}: ${message}`);
}
