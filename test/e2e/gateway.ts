// The real gateway as a child process (`node dist/server/main.js serve`) on a fresh data
// directory, and a system Chromium for Playwright. Nothing here is mocked: the browser suite
// exercises what `npm start` runs.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright';
import { ROOT } from '../../server/paths.js';
import { migratedTempDir } from '../helpers/data-template.js';

const MAIN = join(ROOT, 'dist', 'server', 'main.js');

/** Same rule as test/setup/ensure-chromium.mjs, which `npm test` runs first. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run node test/setup/ensure-chromium.mjs`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // No sandbox: CI containers run as root. The rest keeps Chromium off the network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export interface GatewayProcess {
  /** e.g. http://127.0.0.1:41234, no trailing slash. */
  url: string;
  publicKey: string;
  privateKey: string;
  /** Its TESSERA_DATA_DIR (embedded database, control file). */
  dataDir: string;
  /** Everything the process printed so far, for failure reports. */
  output(): string;
  stop(): Promise<void>;
}

const LISTENING = /Tessera listening on (https?:\/\/\S+)/;
const PUBLIC_KEY = /^public key\s+(test_pk_[0-9a-f]+)\s*$/m;
const PRIVATE_KEY = /^private key\s+(test_sk_[0-9a-f]+)\s*$/m;

/**
 * Starts the gateway with PORT=0 and reads the bound address from what it prints, so there
 * is no window between picking a free port and binding it. With --dev the demo keys are printed
 * on first start, which a fresh data directory guarantees; without it (production) nothing is
 * printed and the keys are those `tessera keys create --name` makes for a new merchant.
 */
export async function startGateway(opts: { startTimeoutMs?: number; /** `serve --dev`, as npm start; default true. */ dev?: boolean } = {}): Promise<GatewayProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  // A copy of this run's migrated template (test/helpers/data-template.ts): initdb and the
  // migrations are done once per run; the gateway's first start still makes data.key and, with
  // --dev, the demo merchant whose keys it prints.
  const dataDir = await migratedTempDir('tessera-e2e-');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    TESSERA_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '', // always the embedded database, whatever the developer's shell has
  };
  delete env.TESSERA_DATA_KEY;
  delete env.TESSERA_DATA_KEYS_RETIRED;
  delete env.TESSERA_DEMO;
  // --dev as npm start: development mode serves the demo checkout (production leaves it off).
  const args = opts.dev === false ? [MAIN, 'serve'] : [MAIN, 'serve', '--dev'];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Safety net if the test process dies without running afterAll.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // graceful: closes the app and the database
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = (await waitForListening(child, () => out, exited, opts.startTimeoutMs ?? 60_000)).replace(/\/+$/, '');
    if (opts.dev === false) {
      // Production makes no merchant and prints no key: the operator makes one, as the README says.
      if (PUBLIC_KEY.test(out) || PRIVATE_KEY.test(out)) throw new Error(`tessera serve printed keys:\n${out}`);
      const made = createKeys({ dataDir }, 'test', 'Production shop');
      return { url, publicKey: made.publicKey, privateKey: made.privateKey, dataDir, output: () => out, stop };
    }
    const publicKey = PUBLIC_KEY.exec(out)?.[1];
    const privateKey = PRIVATE_KEY.exec(out)?.[1];
    if (!publicKey || !privateKey) throw new Error(`no demo keys in the gateway's output:\n${out}`);
    return { url, publicKey, privateKey, dataDir, output: () => out, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function waitForListening(child: ChildProcess, out: () => string, exited: Promise<void>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = LISTENING.exec(out());
      if (m) finish(() => resolve(m[1]));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`gateway did not start in ${timeoutMs} ms:\n${out()}`))), timeoutMs);
    const finish = (f: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      f();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check); // the banner is on stderr
    void exited.then(() => finish(() => reject(new Error(`gateway exited (${child.exitCode ?? child.signalCode}) before listening:\n${out()}`))));
    check();
  });
}

/** `tessera keys create --env ENV [--name NAME]` against the running gateway (a new merchant): its keys. */
export function createKeys(gw: Pick<GatewayProcess, 'dataDir'>, env: 'test' | 'live', name?: string): { merchantId: string; publicKey: string; privateKey: string } {
  const out = execFileSync(process.execPath, [MAIN, 'keys', 'create', '--env', env, ...(name ? ['--name', name] : [])], {
    cwd: ROOT, env: { ...process.env, TESSERA_DATA_DIR: gw.dataDir, DATABASE_URL: '' }, encoding: 'utf8',
  });
  const field = (name: string) => new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(out)?.[1];
  const [merchantId, publicKey, privateKey] = [field('merchant'), field('public key'), field('private key')];
  if (!merchantId || !publicKey || !privateKey) throw new Error(`tessera keys create said:\n${out}`);
  return { merchantId, publicKey, privateKey };
}

export function basicAuth(key: string): string {
  return 'Basic ' + Buffer.from(key + ':').toString('base64');
}
