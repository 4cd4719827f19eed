import { randomFillSync } from 'node:crypto';
import type { Clock } from './clock.js';

/** Produces record ids. */
export type IdGenerator = () => string;

const TWO_30 = 2 ** 30;

/**
 * UUIDv7 ids that are strictly increasing within a process, even within one millisecond.
 * Trigger feeds sort by (created_at, id); monotonic ids make that order the insertion order,
 * so the spec's "stop at the last seen id" polling rule never skips a record. A 42-bit counter
 * (rand_a and the top of rand_b, RFC 9562 §6.2 method 1) orders ids within one millisecond.
 */
export function createIdGenerator(clock: Clock): IdGenerator {
  const random = randomWords();
  let lastMs = 0;
  let counter = 0;
  return () => {
    const ms = Math.max(clock.now().getTime(), lastMs);
    if (ms === lastMs) {
      counter += 1;
    } else {
      counter = random() * 2 ** 9 + (random() >>> 23); // 41 random bits: headroom to count up
    }
    lastMs = ms;
    return formatUuidV7(ms, counter, random());
  };
}

/** Random 32-bit words drawn from a pooled buffer: one system call per thousand ids, not one per id (bulk imports). */
function randomWords(): () => number {
  const pool = Buffer.alloc(4096);
  let at = pool.length;
  return () => {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const word = pool.readUInt32BE(at);
    at += 4;
    return word;
  };
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');

function formatUuidV7(ms: number, counter: number, tail: number): string {
  const randA = Math.floor(counter / TWO_30) & 0xfff;
  const counterLow = counter % TWO_30;
  const time = hex(ms, 12); // 48-bit time
  const high = `${time}7${hex(randA, 3)}`; // version 7, rand_a
  const low = hex((0b10 * TWO_30 + counterLow) >>> 0, 8) + hex(tail, 8); // variant, counter, random
  return `${high.slice(0, 8)}-${high.slice(8, 12)}-${high.slice(12, 16)}-${low.slice(0, 4)}-${low.slice(4)}`;
}
