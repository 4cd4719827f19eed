import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.js';

/** Produces record ids. */
export type IdGenerator = () => string;

/**
 * UUIDv7 ids that are strictly increasing within a process, even within one millisecond.
 * Trigger feeds sort by (created_at, id); monotonic ids make that order the insertion order,
 * so the spec's "stop at the last seen id" polling rule never skips a record. A 42-bit counter
 * (rand_a and the top of rand_b, RFC 9562 §6.2 method 1) orders ids within one millisecond.
 */
export function createIdGenerator(clock: Clock): IdGenerator {
  let lastMs = 0;
  let counter = 0n;
  return () => {
    const ms = Math.max(clock.now().getTime(), lastMs);
    if (ms === lastMs) {
      counter += 1n;
    } else {
      counter = BigInt('0x' + randomBytes(6).toString('hex')) >> 7n; // 41 random bits: headroom to count up
    }
    lastMs = ms;
    return formatUuidV7(BigInt(ms), counter);
  };
}

function formatUuidV7(ms: bigint, counter: bigint): string {
  const randA = (counter >> 30n) & 0xfffn;
  const counterLow = counter & 0x3fffffffn;
  const tail = BigInt('0x' + randomBytes(4).toString('hex'));
  const high = (ms << 16n) | (0x7n << 12n) | randA; // 48-bit time, version 7, rand_a
  const low = (0b10n << 62n) | (counterLow << 32n) | tail; // variant, counter, random
  const hex = high.toString(16).padStart(16, '0') + low.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
