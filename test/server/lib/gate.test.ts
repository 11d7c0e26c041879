import { describe, expect, test } from 'vitest';
import { Gate } from '../../../server/lib/gate.js';

// The test reset's gate (server/lib/gate.ts, domain/merchant/reset.ts resetGate): at most `slots` at once,
// one per key, the rest waiting in order without holding anything; a waiter whose client leaves
// goes. Driven by promises the test resolves: nothing is timed.

const busy = () => new Error('busy');

/** A task that runs until finish() is called; `started` resolves when the gate lets it run. */
function task() {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  let ran = false;
  return {
    run: async () => {
      ran = true;
      started();
      await done;
      return 'ok';
    },
    running,
    finish,
    get ran() {
      return ran;
    },
  };
}

describe('Gate', () => {
  test('a second task of a running key is refused at once; other keys are not', async () => {
    const gate = new Gate(2);
    const a = task();
    const first = gate.run('m1', a.run, { busy });
    await a.running;
    await expect(gate.run('m1', async () => 'never', { busy })).rejects.toThrow('busy');
    const b = task();
    const other = gate.run('m2', b.run, { busy });
    await b.running;
    a.finish();
    b.finish();
    await expect(first).resolves.toBe('ok');
    await expect(other).resolves.toBe('ok');
    // The key is free again once its task is over, failed or not.
    await expect(gate.run('m1', async () => { throw new Error('boom'); }, { busy })).rejects.toThrow('boom');
    await expect(gate.run('m1', async () => 'again', { busy })).resolves.toBe('again');
  });

  test('past its slots, tasks wait in order and start as slots free; a waiting key is busy too', async () => {
    const gate = new Gate(1);
    const [a, b, c] = [task(), task(), task()];
    const pa = gate.run('a', a.run, { busy });
    const pb = gate.run('b', b.run, { busy });
    const pc = gate.run('c', c.run, { busy });
    await a.running;
    expect(gate.load).toEqual({ running: 1, waiting: 2 });
    expect([b.ran, c.ran]).toEqual([false, false]);
    await expect(gate.run('b', async () => 'never', { busy })).rejects.toThrow('busy');
    a.finish();
    await pa;
    await b.running;
    expect(c.ran).toBe(false);
    b.finish();
    await pb;
    await c.running;
    c.finish();
    await pc;
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  test('a waiting task whose signal aborts leaves the queue, never runs, and frees its key', async () => {
    const gate = new Gate(1);
    const a = task();
    const pa = gate.run('a', a.run, { busy });
    await a.running;
    const leave = new AbortController();
    const b = task();
    const pb = gate.run('b', b.run, { busy, signal: leave.signal });
    leave.abort(new Error('client left'));
    await expect(pb).rejects.toThrow('client left');
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    expect(gate.holds('b')).toBe(false);
    a.finish();
    await pa;
    expect(b.ran).toBe(false);
    // An already aborted signal never takes a slot.
    await expect(gate.run('c', async () => 'never', { busy, signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
