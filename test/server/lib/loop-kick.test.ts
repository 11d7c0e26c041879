import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Loop } from '../../../server/lib/loop.js';

// The background loop's kicks (fake timers: no real waiting). The dispatcher is kicked after every
// private-key write: an idle loop runs at once, a busy one runs once more, however many kicks came.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('a kick runs a round at once when the last one started long enough ago; many kicks make one round', async () => {
  let rounds = 0;
  const loop = new Loop(async () => void rounds++, () => {}, { minGapMs: 10 });
  loop.start(60_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds).toBe(1);
  // Right after a round: the next kicked one waits for the gap, and three kicks make one round.
  loop.kick();
  loop.kick();
  loop.kick();
  await vi.advanceTimersByTimeAsync(9);
  expect(rounds).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(rounds).toBe(2);
  // Idle for longer than the gap: at once.
  await vi.advanceTimersByTimeAsync(50);
  loop.kick();
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds).toBe(3);
  // Nothing else until the interval.
  await vi.advanceTimersByTimeAsync(59_000);
  expect(rounds).toBe(3);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(rounds).toBe(4);
  await loop.stop();
});

test('kicks during a round make exactly one more round after it; none after stop', async () => {
  let rounds = 0;
  let finish: () => void = () => {};
  const loop = new Loop(() => {
    rounds++;
    return new Promise<void>((resolve) => (finish = resolve));
  }, () => {});
  loop.start(60_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds).toBe(1);
  loop.kick();
  loop.kick();
  finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds).toBe(2);
  finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds).toBe(2);
  await loop.stop();
  loop.kick();
  await vi.advanceTimersByTimeAsync(120_000);
  expect(rounds).toBe(2);
});
