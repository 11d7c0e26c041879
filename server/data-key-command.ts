import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from './clock.js';
import { DATA_KEY_USAGE } from './cli-args.js';
import { Config, ConfigError } from './config.js';
import type { Db } from './db/index.js';
import { loadVault } from './vault.js';
import { checkDataKey } from './vault-canary.js';
import { formatReport, reencryptAll } from './vault-reencrypt.js';
import { DATA_KEY_SETTLE_MS } from './vault-cluster.js';

/** `tessera data-key reencrypt`: prints one line per encrypted column; exit status 1 while blobs remain. */
export async function dataKeyCommand(config: Config, args: string[], open: () => Promise<Db>): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch {
    throw new ConfigError(`usage:\n${DATA_KEY_USAGE}`);
  }
  const batch = Number(parsed.values.batch);
  if (parsed.positionals.join(' ') !== 'reencrypt' || !Number.isInteger(batch) || batch < 1 || batch > 10_000) {
    throw new ConfigError(`usage:\n${DATA_KEY_USAGE}\n(--batch is 1 to 10000)`);
  }
  // Never a generated key here: that would be a key nothing was encrypted with.
  const dataDir = config.databaseUrl ? undefined : config.dataDir;
  if (!config.dataKey && (!dataDir || !existsSync(join(dataDir, 'data.key')))) {
    throw new ConfigError('TESSERA_DATA_KEY is required: the key to re-encrypt under (openssl rand -base64 32), with the old ones in TESSERA_DATA_KEYS_RETIRED');
  }
  const vault = loadVault({ dataKey: config.dataKey, retiredKeys: config.retiredDataKeys, dataDir });
  const db = await open();
  try {
    await checkDataKey(db, vault, systemClock.now()); // a wrong key stops here, before any row is read
    // Nodes still on another key are told by the record it makes first; the verdict waits until
    // they have had time to notice (PostgreSQL: at most DATA_KEY_SETTLE_MS, once per rotation).
    const report = await reencryptAll(db, vault, { batchSize: batch, settleMs: DATA_KEY_SETTLE_MS });
    for (const line of formatReport(report, vault)) console.log(line);
    return report.remaining === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}

function parse(args: string[]) {
  return parseArgs({ args, allowPositionals: true, options: { batch: { type: 'string', default: '500' } } });
}
