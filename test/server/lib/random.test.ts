import { expect, test } from 'vitest';
import { randomBytesPooled, randomHex } from '../../../server/lib/random.js';

// The pooled draws (ids, IVs) must be as good as randomBytes: the right length, and no byte of the
// pool handed out twice, across refills too (an IV reused under one AES-GCM key breaks it).
test('draws have the asked length and never repeat, across many refills of the pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const hex = randomHex(16);
    const iv = randomBytesPooled(12);
    expect(hex).toMatch(/^[0-9a-f]{32}$/);
    expect(iv.length).toBe(12);
    seen.add(hex).add(iv.toString('hex'));
  }
  expect(seen.size).toBe(10_000); // 140 KB drawn: the 4 KiB pool was refilled ~35 times
});

test('a Buffer draw is the caller\'s own copy: later draws do not change it', () => {
  const iv = randomBytesPooled(12);
  const copy = Buffer.from(iv);
  for (let i = 0; i < 1000; i++) randomBytesPooled(12);
  expect(iv.equals(copy)).toBe(true);
});

test('draws are spread over every byte value (not a constant or a counter)', () => {
  const counts = new Array(256).fill(0);
  for (let i = 0; i < 2000; i++) for (const b of randomBytesPooled(32)) counts[b]++;
  // 64,000 bytes, 250 expected per value: each value between 150 and 350 is far inside chance.
  expect(Math.min(...counts)).toBeGreaterThan(150);
  expect(Math.max(...counts)).toBeLessThan(350);
});

test('more than 256 bytes at once is refused', () => {
  expect(() => randomHex(257)).toThrow(RangeError);
  expect(() => randomBytesPooled(257)).toThrow(RangeError);
});
