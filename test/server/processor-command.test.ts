import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, vi } from 'vitest';
import { Command, ProcessorCommand, USAGE, UsageError, parseCommand } from '../../server/cli-args.js';
import type { Config } from '../../server/config.js';
import { dataKeyCommand } from '../../server/data-key-command.js';
import { Db, openDatabase } from '../../server/db/index.js';
import { getConnection } from '../../server/domain/merchant/processor-connections.js';
import { CommandError } from '../../server/control-file.js';
import { processorCommand } from '../../server/processor-command.js';
import { ADMIN_PROCESSOR_PATH } from '../../server/routes/admin.js';
import { startTessera } from '../../server/start.js';
import { Vault, keyId } from '../../server/vault.js';
import { processorHome } from '../../server/vault-homes.js';
import { formatReport, reencryptAll } from '../../server/vault-reencrypt.js';
import { migratedDataDir } from '../helpers/data-template.js';
import { DB_KIND } from '../helpers/gateway.js';
import { startAuthnetStandin } from '../helpers/authnet-standin.js';
import { TestGateway, describe, expect, test } from '../fixtures.js';

// `tessera processor set|show|remove|reconcile` (server/processor-command.ts): parsed as the
// command line reads it, run on the database (this project's: PGlite or PostgreSQL), on an
// embedded data directory, and through the admin route of an embedded gateway that holds one.

const KEY = randomBytes(32);
const LOGIN = 'login5KP3u95bQ';
/** A Transaction Key as Authorize.Net issues them: 16 characters. */
const secretKey = () => `tk${randomBytes(7).toString('hex')}`;
const STANDIN_KEY = 'StandinKey123456';

const parse = (...args: string[]) => parseCommand(['processor', ...args]) as ProcessorCommand;
/** `processor set` without its check (these tests reach no processor; the check has tests of its own, against the stand-in). */
const setArgs = (merchant: string, key: string, ...more: string[]) =>
  ['set', '--merchant', merchant, '--env', 'live', '--connector', 'authorizenet', '--login-id', LOGIN, '--transaction-key', key, '--no-check', ...more];

/** The command straight on this file's database (as on PostgreSQL, or an embedded directory no gateway holds). */
function onDatabase(gw: TestGateway, key: Buffer = KEY) {
  const config = {
    databaseUrl: DB_KIND === 'pg' ? process.env.TEST_DATABASE_URL : undefined, dataDir: undefined, dataKey: key.toString('base64'),
  } as Config;
  const open = async (): Promise<Db> => ({ ...gw.db, close: async () => {} });
  return (...args: string[]) => processorCommand(config, parse(...args), open);
}

describe('the command line', () => {
  test('usage: the family in tessera --help, each command its own help with the connector options', () => {
    expect(USAGE).toContain('tessera processor set --merchant ID [--env live] --connector NAME');
    expect(USAGE).toContain('tessera processor reconcile [--merchant ID] [--env test|live]');
    const help = parseCommand(['processor', 'set', '--help']) as Extract<Command, { kind: 'help' }>;
    expect(help.text).toMatch(/--login-id VALUE\s+API Login ID/);
    expect(help.text).toMatch(/--transaction-key SECRET\s+Transaction Key.*, secret$/m);
    expect((parseCommand(['processor', '--help']) as { text: string }).text).toContain('tessera processor show');
  });

  test('read into the command: env live by default, fields by name, sandbox or endpoint', () => {
    expect(parse(...setArgs('mer_1', 'k', '--sandbox'))).toEqual({
      kind: 'processor set', merchant: 'mer_1', env: 'live', connector: 'authorizenet',
      fields: { login_id: LOGIN, transaction_key: 'k' }, sandbox: true, endpoint: null, check: false,
    });
    expect(parse('show', '--merchant', 'mer_1')).toEqual({ kind: 'processor show', merchant: 'mer_1', env: 'live' });
    expect(parse('remove', '--merchant', 'mer_1', '--env', 'live')).toEqual({ kind: 'processor remove', merchant: 'mer_1', env: 'live' });
    expect(parse('reconcile')).toEqual({ kind: 'processor reconcile', merchant: undefined, env: undefined });
  });

  test.for([
    [['set', '--connector', 'authorizenet'], /processor set needs --merchant ID/],
    [['set', '--merchant', 'mer_1'], /processor set needs --connector NAME \(authorizenet\)/],
    [[...setArgs('mer_1', 'k'), '--sandbox', '--endpoint', 'https://x.test/'], /--sandbox and --endpoint exclude each other/],
    [['show'], /processor show needs --merchant ID/],
    [['show', '--merchant', 'mer_1', '--env', 'prod'], /--env must be test or live/],
    [['set', '--merchant', 'mer_1', '--api-key', 'x'], /unknown option --api-key/],
    [['frob'], /unknown command processor frob/],
  ] as [string[], RegExp][])('tessera processor %j is a usage error', ([args, message]) => {
    expect(() => parse(...args)).toThrow(UsageError);
    expect(() => parse(...args)).toThrow(message);
  });
});

describe('on the database', () => {
  test('set, then show: the login id and that the key is set, never the key; the charge side reads it decrypted', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const key = secretKey();
    const run = onDatabase(gw);
    const set = await run(...setArgs(m.id, key, '--sandbox'));
    expect(set.join('\n')).not.toContain(key);
    expect(set.at(-1)).toBe(`saved: the next live charge of ${m.id} goes through authorizenet`);
    const shown = (await run('show', '--merchant', m.id, '--env', 'live')).join('\n');
    expect(shown).toMatch(/^connector\s+authorizenet$/m);
    expect(shown).toMatch(new RegExp(`^login_id\\s+${LOGIN}$`, 'm'));
    expect(shown).toMatch(/^transaction_key\s+set \(never shown\)$/m);
    expect(shown).toMatch(/^endpoint\s+the processor's sandbox$/m);
    expect(shown).not.toContain(key);

    const scope = { merchantId: m.id, env: 'live' as const };
    expect(await getConnection(gw.db, new Vault(KEY), scope)).toEqual({
      connector: 'authorizenet', settings: { login_id: LOGIN, sandbox: true, endpoint: null }, secrets: { transaction_key: key },
    });
    const [row] = await gw.db.query('SELECT secrets_enc, created_at, updated_at FROM processor_connections WHERE merchant_id = $1', [m.id]);
    expect(row.secrets_enc).toMatch(new RegExp(`^v2\\.${keyId(KEY)}\\.`));
    expect(row.secrets_enc).not.toContain(key);
    // Sealed to its row: the same blob under another merchant does not decrypt.
    expect(() => new Vault(KEY).decrypt(row.secrets_enc, processorHome({ merchantId: gw.merchant.id, env: 'live' })))
      .toThrow(expect.objectContaining({ code: 'VAULT02' }));
    // The test environment is the simulator, whatever is configured for live.
    expect((await run('show', '--merchant', m.id, '--env', 'test')).join('\n')).toMatch(/^connector\s+simulator \(test mode always/m);
  });

  test('a second set replaces the connection (a local endpoint now) and keeps created_at; remove, then none', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const run = onDatabase(gw);
    await run(...setArgs(m.id, secretKey()));
    const [before] = await gw.db.query('SELECT created_at FROM processor_connections WHERE merchant_id = $1', [m.id]);
    const key = secretKey();
    await run(...setArgs(m.id, key, '--endpoint', 'http://127.0.0.1:9911/xml/v1/request.api'));
    const shown = (await run('show', '--merchant', m.id)).join('\n');
    expect(shown).toMatch(/^endpoint\s+http:\/\/127\.0\.0\.1:9911\/xml\/v1\/request\.api$/m);
    expect((await getConnection(gw.db, new Vault(KEY), { merchantId: m.id, env: 'live' }))!.secrets.transaction_key).toBe(key);
    const [after] = await gw.db.query('SELECT created_at FROM processor_connections WHERE merchant_id = $1', [m.id]);
    expect(new Date(after.created_at)).toEqual(new Date(before.created_at));

    expect(await run('remove', '--merchant', m.id)).toEqual([
      `removed the live processor connection of ${m.id}: its live charges are refused (PROC01) until tessera processor set`,
    ]);
    expect((await run('show', '--merchant', m.id)).join('\n')).toMatch(/^connector\s+none: live charges are refused \(PROC01\)/m);
    expect(await run('remove', '--merchant', m.id)).toEqual([`${m.id} has no live processor connection: nothing removed`]);
    expect(await getConnection(gw.db, new Vault(KEY), { merchantId: m.id, env: 'live' })).toBeNull();
  });

  test('endpoints: https anywhere, http to a loopback host only', async ({ gateway: gw }) => {
    const run = onDatabase(gw);
    for (const ok of ['https://api.example.test/xml/v1/request.api', 'http://localhost:8080/', 'http://127.3.2.1/', 'http://[::1]:9000/api']) {
      await expect(run(...setArgs(gw.merchant.id, secretKey(), '--endpoint', ok)), ok).resolves.toBeDefined();
    }
    const refused: [string, RegExp][] = [
      ['http://api.example.test/', /http is allowed for a loopback host only .* not api\.example\.test/],
      ['http://10.0.0.5/', /loopback host only/],
      ['http://127.0.0.1.example.test/', /loopback host only/],
      ['ftp://127.0.0.1/', /must be an https URL .*got ftp:/],
      ['file:///etc/passwd', /must be an https URL/],
      ['garbage', /must be an absolute URL/],
      ['https://user:pw@api.example.test/', /must not carry a user name or password/],
    ];
    for (const [endpoint, message] of refused) {
      const run2 = run(...setArgs(gw.merchant.id, secretKey(), '--endpoint', endpoint));
      await expect(run2, endpoint).rejects.toThrow(CommandError);
      await expect(run2, endpoint).rejects.toThrow(message);
    }
  });

  test('refusals, each one line naming what to do', async ({ gateway: gw }) => {
    const run = onDatabase(gw);
    const m = gw.merchant.id;
    const refused: [string[], RegExp][] = [
      [['set', '--merchant', m, '--connector', 'authorizenet', '--login-id', LOGIN], /^tessera: processor set: authorizenet needs --transaction-key: Transaction Key\b/],
      [['set', '--merchant', m, '--connector', 'authorizenet', '--transaction-key', 'k'], /authorizenet needs --login-id: API Login ID\b/],
      [['set', '--merchant', m, '--connector', 'stripe', '--login-id', LOGIN], /no connector named "stripe"; this build has authorizenet/],
      [setArgs('mer_nope', 'k'), /^tessera: no merchant mer_nope; tessera keys create without --merchant creates a merchant$/],
      [['show', '--merchant', 'mer_nope'], /^tessera: no merchant mer_nope/],
      [['remove', '--merchant', 'mer_nope'], /^tessera: no merchant mer_nope/],
      [['set', '--merchant', m, '--env', 'test', '--connector', 'authorizenet', '--login-id', LOGIN, '--transaction-key', 'k'], /test environment always charges through the simulator .*use --env live/],
      [setArgs(m, 'k\u0007'), /--transaction-key must be text .* without control characters/],
    ];
    for (const [args, message] of refused) {
      const r = run(...args);
      await expect(r, args.join(' ')).rejects.toThrow(CommandError);
      await expect(r, args.join(' ')).rejects.toThrow(message);
    }
    const [{ n }] = await gw.db.query("SELECT count(*)::int AS n FROM processor_connections WHERE env = 'test' OR merchant_id = 'mer_nope'");
    expect(n).toBe(0);
  });

  test('reconcile prints the summary of reconcilePending', async ({ gateway: gw }) => {
    const lines = await onDatabase(gw)('reconcile', '--merchant', gw.merchant.id, '--env', 'live');
    expect(lines[0]).toBe(`reconciled pending operations (${gw.merchant.id}, live)`);
    expect(lines.slice(1).join('\n')).toMatch(/^examined\s+\d+$/m);
  });

  test('a node whose data key is not the one stored refuses to write, before anything is stored', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    await onDatabase(gw)('show', '--merchant', m.id); // no key needed to show
    await onDatabase(gw)(...setArgs(m.id, 'k1')); // the canary of KEY is in place from here on
    await expect(onDatabase(gw, randomBytes(32))(...setArgs(m.id, 'k2'))).rejects.toThrow(/cannot read the data stored in this database/);
    expect((await getConnection(gw.db, new Vault(KEY), { merchantId: m.id, env: 'live' }))!.secrets.transaction_key).toBe('k1');
  });

  test('data-key reencrypt rewrites the connection under the new key; it still reads', async ({ newGateway }) => {
    const gw = await newGateway();
    const key = secretKey();
    await onDatabase(gw)(...setArgs(gw.merchant.id, key));
    const fresh = randomBytes(32);
    const next = new Vault(fresh, [KEY]);
    const report = await reencryptAll(gw.db, next);
    expect(report.columns.find((c) => c.table === 'processor_connections')).toEqual({
      table: 'processor_connections', column: 'secrets_enc', reencrypted: 1, current: 1, changed: 0, unreadable: 0,
    });
    expect(formatReport(report, next).join('\n')).toMatch(/^processor_connections\.secrets_enc\s+1 re-encrypted/m);
    const [row] = await gw.db.query('SELECT secrets_enc FROM processor_connections WHERE merchant_id = $1', [gw.merchant.id]);
    expect(row.secrets_enc.startsWith(`v2.${keyId(fresh)}.`)).toBe(true);
    expect((await getConnection(gw.db, new Vault(fresh), { merchantId: gw.merchant.id, env: 'live' }))!.secrets.transaction_key).toBe(key);
  });
});

/** Every file under dir (recursively) whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle, 'utf8');
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile() && readFileSync(path).includes(bytes)) found.push(name);
  }
  return found;
}

describe.runIf(DB_KIND === 'pglite')('an embedded data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'tessera-processor-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('through the running gateway (its admin route), then on the directory; no key in clear on disk; data-key reencrypt rewrites it', async () => {
    const dir = await migratedDataDir(join(root, 'data')); // the first start is not what this tests
    const gw = await startTessera({ storage: 'disk', dataDir: dir, port: 0, host: '127.0.0.1', warn: () => {}, schedulerIntervalMs: 60_000 });
    const merchant = gw.merchantId!;
    const config = { dataDir: dir } as Config;
    const open = () => openDatabase({ dataDir: dir });
    // This process holds the directory: the command is told so, as another process would see it.
    const held = (...args: string[]) => processorCommand(config, parse(...args), open, { holder: () => process.pid });
    const key1 = secretKey();
    let closed = false;
    try {
      const set = await held(...setArgs(merchant, key1, '--sandbox'));
      expect(set.join('\n')).toMatch(/^login_id\s+login5KP3u95bQ$/m);
      expect(set.join('\n')).not.toContain(key1);
      const shown = (await held('show', '--merchant', merchant)).join('\n');
      expect(shown).toMatch(/^transaction_key\s+set \(never shown\)$/m);
      expect(shown).not.toContain(key1);
      // The gateway's own vault reads what it stored.
      expect((await getConnection(gw.db, gw.app.services.vault, { merchantId: merchant, env: 'live' }))!.secrets.transaction_key).toBe(key1);
      // Its refusals are the database path's.
      await expect(held(...setArgs('mer_nope', 'k'))).rejects.toThrow(/^tessera: no merchant mer_nope/);
      await expect(held(...setArgs(merchant, 'k', '--endpoint', 'http://api.example.test/'))).rejects.toThrow(/loopback host only/);
      await expect(held('set', '--merchant', merchant, '--connector', 'authorizenet', '--login-id', 'x')).rejects.toThrow(/needs --transaction-key/);
      const reconciled = await held('reconcile');
      expect(reconciled[0]).toBe('reconciled pending operations (every merchant, both environments)');
      // Only with the control file's token.
      const url = `${gw.url}${ADMIN_PROCESSOR_PATH}?merchant=${merchant}&env=live`;
      const wrong = await fetch(url, { headers: { authorization: `Bearer ${'0'.repeat(64)}` } });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).errors[0].code).toBe('ADMIN01');
      // Not under the API: the OpenAPI document does not know it.
      expect(JSON.stringify(await (await fetch(`${gw.url}/api/v1/openapi.json`)).json())).not.toContain('/_tessera/');

      await gw.close();
      closed = true;
      // No gateway: straight on the directory.
      const direct = (...args: string[]) => processorCommand(config, parse(...args), open);
      expect((await direct('show', '--merchant', merchant)).join('\n')).toMatch(/^login_id\s+login5KP3u95bQ$/m);
      const key2 = secretKey();
      await direct(...setArgs(merchant, key2));
      // Neither key is anywhere in the directory in clear; the login id (a plain setting) is.
      expect(filesContaining(dir, key1)).toEqual([]);
      expect(filesContaining(dir, key2)).toEqual([]);
      expect(filesContaining(dir, LOGIN).length).toBeGreaterThan(0);

      // tessera data-key reencrypt, the embedded key retired for a new one.
      const old = readFileSync(join(dir, 'data.key'), 'utf8').trim();
      const fresh = randomBytes(32);
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((line) => void printed.push(String(line)));
      let status: number;
      try {
        status = await dataKeyCommand({ dataDir: dir, dataKey: fresh.toString('base64'), retiredDataKeys: old } as Config, ['reencrypt'], open);
      } finally {
        log.mockRestore();
      }
      expect(printed.join('\n')).toMatch(/^processor_connections\.secrets_enc\s+1 re-encrypted, 1 current/m);
      expect(status).toBe(0);
      const db = await open();
      try {
        const [row] = await db.query('SELECT secrets_enc FROM processor_connections WHERE merchant_id = $1', [merchant]);
        expect(row.secrets_enc.startsWith(`v2.${keyId(fresh)}.`)).toBe(true);
        expect((await getConnection(db, new Vault(fresh), { merchantId: merchant, env: 'live' }))!.secrets.transaction_key).toBe(key2);
      } finally {
        await db.close();
      }
    } finally {
      if (!closed) await gw.close();
    }
  }, 120_000); // a gateway on disk, its admin route, the directory itself, a re-encryption: ~20 s idle, more on a loaded box
});

describe('processor set asks the processor whether the connection works (against the Authorize.Net stand-in)', () => {
  test('accepted: a checked line; the reporting off: a warning naming the Transaction Details API; a wrong key: a warning; saved each time', async ({ gateway: gw }) => {
    const standin = await startAuthnetStandin({ loginId: LOGIN, transactionKey: STANDIN_KEY });
    try {
      const m = await gw.newMerchant();
      const run = onDatabase(gw);
      const set = (key: string) => run('set', '--merchant', m.id, '--connector', 'authorizenet', '--login-id', LOGIN, '--transaction-key', key, '--endpoint', standin.url);
      const ok = await set(STANDIN_KEY);
      expect(ok).toContain(`saved: the next live charge of ${m.id} goes through authorizenet`);
      expect(ok.at(-1)).toMatch(/^checked\s+the processor accepts these credentials, and its reporting answers/);
      standin.setTransactionDetailsApi(false);
      const off = await set(STANDIN_KEY);
      expect(off).toContain(`saved: the next live charge of ${m.id} goes through authorizenet`);
      expect(off.at(-1)).toMatch(/^warning\s+.*E00011.*Transaction Details API/);
      standin.setTransactionDetailsApi(true);
      const wrong = await set('WrongKey12345678');
      expect(wrong.at(-1)).toMatch(/^warning\s+.*E00007/);
      expect(wrong.join('\n')).not.toContain('WrongKey12345678');
      expect(standin.requests.filter((r) => JSON.stringify(r).includes('authCaptureTransaction'))).toEqual([]);
    } finally {
      await standin.close();
    }
  });
});

describe('a secret from standard input', () => {
  test('--transaction-key - reads the first line of standard input: stored, never printed; nothing given is one line', async ({ gateway: gw }) => {
    const m = await gw.newMerchant();
    const key = secretKey();
    const config = {
      databaseUrl: DB_KIND === 'pg' ? process.env.TEST_DATABASE_URL : undefined, dataDir: undefined, dataKey: KEY.toString('base64'),
    } as Config;
    const open = async (): Promise<Db> => ({ ...gw.db, close: async () => {} });
    const cmd = parse('set', '--merchant', m.id, '--connector', 'authorizenet', '--login-id', LOGIN, '--transaction-key', '-', '--sandbox', '--no-check');
    expect(cmd).toMatchObject({ fields: { transaction_key: '-' } });
    const out = await processorCommand(config, cmd, open, { stdin: Readable.from([`${key}\nignored\n`]) });
    expect(out.join('\n')).not.toContain(key);
    const stored = await getConnection(gw.db, new Vault(KEY), { merchantId: m.id, env: 'live' });
    expect(stored?.secrets).toEqual({ transaction_key: key });
    await expect(processorCommand(config, cmd, open, { stdin: Readable.from(['']) })).rejects.toThrow(/--transaction-key - reads the secret from standard input, which gave none/);
  });
});
