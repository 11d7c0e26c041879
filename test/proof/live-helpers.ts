// Machinery of test/proof/live-processing.test.ts: a private build of the committed tree (never the
// shared dist/ of a working copy others edit, unless that dist/ is the committed tree's: see
// privateBuild), gateway nodes and `tessera` commands run from it, and a scan of a directory's files
// for a secret's bytes.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../server/paths.js';
import { builtFromClean, headCommit } from '../helpers/built.js';

const run = promisify(execFile);

/**
 * `git archive HEAD` of the gateway's sources into a directory of its own, compiled there with
 * tsc (node_modules linked): the `tessera` of the committed tree. Kept per commit in the system's
 * temporary directory, so a second run of the same commit starts at once. Returns dist/server/main.js.
 */
export async function privateBuild(): Promise<{ main: string; commit: string; built: boolean }> {
  const commit = headCommit();
  // A checkout with no tracked file changed whose dist/ says it was built from this very commit with
  // no tracked file changed (dist/build-info.json, written last by npm run build: a fresh clone's
  // `npm test`, as CI runs it) holds the committed tree's build already: compiling it again cost
  // 8-19 s of CPU in the proof lane (docs/decisions/test-suite-time.md).
  const shared = join(ROOT, 'dist', 'server', 'main.js');
  if (existsSync(shared) && builtFromClean(commit)) return { main: shared, commit, built: false };
  const dir = join(tmpdir(), `tessera-live-build-${commit.slice(0, 12)}`);
  const main = join(dir, 'dist', 'server', 'main.js');
  if (existsSync(join(dir, '.built'))) return { main, commit, built: false };
  // Builds of other commits left more than a day ago: nobody runs them any more.
  for (const old of readdirSync(tmpdir()).filter((n) => /^tessera-live-build-[0-9a-f]{12}$/.test(n))) {
    const p = join(tmpdir(), old);
    if (Date.now() - statSync(p).mtimeMs > 86_400_000) rmSync(p, { recursive: true, force: true });
  }
  const work = `${dir}.${randomBytes(4).toString('hex')}`;
  mkdirSync(work);
  try {
    await run('sh', ['-c', `git archive HEAD server src package.json tsconfig.json tsconfig.build.json | tar -x -C "${work}"`], { cwd: ROOT });
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: work, timeout: 300_000 })
      .catch((err) => { throw new Error(`tsc in ${work} failed: ${err.stdout ?? ''}${err.stderr ?? err.message}`); });
    writeFileSync(join(work, '.built'), `${commit}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { main, commit, built: true };
}

/** The environment of every process of the build: nothing of this process's database settings leaks in. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', TESSERA_RATE_LIMITS: 'off', OUTBOX_INTERVAL_MS: '60000' };
  for (const k of ['DATABASE_URL', 'TESSERA_DATA_DIR', 'TESSERA_DATA_KEY', 'TESSERA_DATA_KEYS_RETIRED', 'REDIS_URL']) delete env[k];
  return { ...env, ...extra };
}

/** `tessera <args>` until it exits (killed after `timeoutMs`). */
export function cli(main: string, args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [main, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stdout, stderr });
  }));
}

export interface LiveNode {
  name: string;
  url: string;
  pid: number;
  /** Set once the process exited: how. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const LISTENING = /Tessera listening on (https?:\/\/\S+)/;

/** `tessera serve` of the build on `env` (DATABASE_URL, TESSERA_DATA_KEY...), once it listens. */
export async function startNode(main: string, name: string, env: Record<string, string>): Promise<LiveNode> {
  const child: ChildProcess = spawn(process.execPath, [main, 'serve'], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const node: LiveNode = {
    name, url: '', pid: child.pid!, exit: null, output: () => out,
    async kill(signal) {
      process.removeListener('exit', killOnExit);
      if (!node.exit) child.kill(signal);
      await exited;
    },
  };
  const exited = new Promise<void>((resolve) => child.once('exit', (code, signal) => {
    node.exit = { code, signal };
    resolve();
  }));
  const deadline = Date.now() + 90_000;
  while (!LISTENING.test(out)) {
    if (node.exit || Date.now() > deadline) {
      await node.kill('SIGKILL');
      throw new Error(`node ${name} did not start (${node.exit ? `exited ${node.exit.code ?? node.exit.signal}` : 'no banner in 90 s'}):\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  node.url = LISTENING.exec(out)![1].replace(/\/+$/, '');
  return node;
}

/** Files under `dir` (recursively) whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: Buffer): { scanned: number; found: string[] } {
  const found: string[] = [];
  let scanned = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size > 0) {
        scanned++;
        if (readFileSync(p).includes(needle)) found.push(p);
      }
    }
  };
  walk(dir);
  return { scanned, found };
}
