import { expect, test } from 'vitest';
import { Lanes } from '../../../server/lib/lanes.js';

// A round's live processor calls (jobs/runs.ts): up to the limit at once, a new one only when a lane
// is free, the round's end waiting for all of them, a failed call freeing its lane.

test('lanes: at most `limit` under way; free() waits for one to end; idle() for all; a rejection frees its lane', async () => {
  const lanes = new Lanes(2);
  const gates: Array<(v?: unknown) => void> = [];
  const job = (fail = false) => new Promise((resolve, reject) => gates.push(fail ? () => reject(new Error('lost')) : resolve));
  let freed = false;
  await lanes.free();
  lanes.add(job(true));
  await lanes.free();
  lanes.add(job());
  const waiting = lanes.free().then(() => { freed = true; });
  await new Promise((r) => setImmediate(r));
  expect(freed).toBe(false);
  gates[0](); // the failing one ends
  await waiting;
  expect(freed).toBe(true);
  lanes.add(job());
  let idle = false;
  const all = lanes.idle().then(() => { idle = true; });
  gates[1]();
  await new Promise((r) => setImmediate(r));
  expect(idle).toBe(false);
  gates[2]();
  await all;
  expect(idle).toBe(true);
});
