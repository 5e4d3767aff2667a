import { randomFillSync } from 'node:crypto';

// Run tags and run-end tokens: every warm run takes two or three, and asking the system's random
// source for 16 bytes each time cost ~10 µs apiece on a busy machine (a good share of main's own
// work in a warm run). They are drawn from a pool filled a few KB at a time instead; each value is
// made of bytes never handed out before, so a token is as fresh and unguessable as before.

const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` random bytes as hex, from the pool (refilled from the system's source when spent). */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) throw new Error(`randomHex: at most ${pool.length} bytes`);
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}
