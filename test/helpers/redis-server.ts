import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

// A redis-server of one test alone, on a free port of 127.0.0.1, that the test may freeze (SIGSTOP:
// the process stops, the kernel still accepts connections and buffers what is sent to it, nothing
// answers) and resume (SIGCONT). Never the machine's own Redis (TEST_REDIS_URL): signals go to this
// child's pid only.

/** True when `redis-server` can be run here (.ci/run's machine has it). */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export interface PrivateRedis {
  url: string;
  /** SIGSTOP: frozen, not down. Resolves once the kernel shows the process stopped. */
  freeze(): Promise<void>;
  /** SIGCONT. */
  resume(): void;
  /** Resumed if frozen, then ended; waits for the exit. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Starts one and resolves once it logs that it accepts connections. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', '', '--daemonize', 'no',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      log += s;
      if (log.includes('Ready to accept connections')) resolve();
    });
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (log += s));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before accepting connections:\n${log}`)));
  });
  const signal = (s: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, s);
  };
  /** The process state letter of /proc/<pid>/stat ('T' once stopped), or null where there is no /proc. */
  const state = () => {
    try {
      return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${child.pid}/stat`, 'utf8'))?.[1] ?? null;
    } catch {
      return null;
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    async freeze() {
      signal('SIGSTOP');
      // Stopped before any command sent after this can be read (a signal is taken on the way back
      // to user space); waiting for the state makes that visible instead of assumed.
      for (let i = 0; i < 10_000 && state() !== null && state() !== 'T'; i++) await new Promise((r) => setImmediate(r));
    },
    resume: () => signal('SIGCONT'),
    async stop() {
      signal('SIGCONT');
      signal('SIGKILL');
      await exited;
    },
  };
}
