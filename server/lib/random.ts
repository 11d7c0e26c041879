import { randomFillSync } from 'node:crypto';

// Random bytes for ids and IVs from a pool refilled 4 KiB at a time: `randomBytes(n)` is a
// native job per call (~6 us each on the bench machine), and a charge draws two, a token three.
// Each byte is handed out once and the pool comes from the same CSPRNG, so a draw is as random
// as randomBytes' (Node's own randomInt caches the same way).
const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

/** Hands `n` pool bytes (at most 256) to `read`, then wipes them so they are never handed out again. */
function take<T>(n: number, read: (from: number, to: number) => T): T {
  if (n > 256) throw new RangeError('random: at most 256 bytes at once');
  if (offset + n > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = read(offset, offset + n);
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}

/** `n` random bytes (at most 256), a copy the caller owns. */
export function randomBytesPooled(n: number): Buffer {
  return take(n, (from, to) => Buffer.from(pool.subarray(from, to)));
}

/** `n` random bytes (at most 256) as 2n hex digits. */
export function randomHex(n: number): string {
  return take(n, (from, to) => pool.toString('hex', from, to));
}
