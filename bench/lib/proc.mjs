import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

// Where the CPU of a multi-process scenario goes (Linux /proc; elsewhere every reading is null):
// the gateway processes, every PostgreSQL server process on this machine (other databases'
// work included), and the rest (load generator, bench, neighbours): figures from a quiet machine
// only. Clock ticks are 1/100 s on Linux.
const TICK_MS = 10;

function machineBusyTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = cpu;
  return user + nice + system + irq + softirq; // idle, iowait and steal (the host's other guests) are not our work
}

function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ticks: Number(fields[11]) + Number(fields[12]),
      // Children that ended and were reaped (PostgreSQL's backends, by the postmaster).
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null; // gone
  }
}

function postgresTicks() {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const p = processTicks(pid);
    if (p?.comm === 'postgres') sum += p.ticks + p.reaped; // backends that close move into the postmaster's count
  }
  return sum;
}

/** Starts a CPU reading over `pids` (the gateway nodes); `stop(ops)` gives CPU ms per operation. */
export function cpuReading(pids) {
  let start;
  try {
    start = { machine: machineBusyTicks(), nodes: pids.map((p) => processTicks(p)?.ticks ?? 0), pg: postgresTicks(), t: Date.now() };
  } catch {
    return { stop: () => null };
  }
  return {
    stop(ops) {
      if (!ops) return null; // nothing succeeded: no cost per operation to report
      const wallMs = Date.now() - start.t;
      const machine = (machineBusyTicks() - start.machine) * TICK_MS;
      const nodes = pids.map((p, i) => ((processTicks(p)?.ticks ?? 0) - start.nodes[i]) * TICK_MS);
      const pg = (postgresTicks() - start.pg) * TICK_MS;
      const node = nodes.reduce((a, b) => a + b, 0);
      return {
        cores: os.cpus().length,
        coresBusy: machine / wallMs,
        nodeCores: nodes.map((n) => n / wallMs),
        msPerOp: { nodes: node / ops, postgres: pg / ops, other: Math.max(0, machine - node - pg) / ops, total: machine / ops },
      };
    },
  };
}
