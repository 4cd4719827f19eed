import { sql, type RawBuilder } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../db/deps.js';

/** How long a number's sends pause after Meta answers 130429 / 131056 without a Retry-After. */
export const THROTTLED_PAUSE_MS = 1_000;
/**
 * A send this much past its slot (its process was busy) takes a new slot instead: late sends would
 * crowd into the next second. Bounds the excess in any second to this share of the rate (2.5 %).
 */
const LATE_MS = 25;
/** After this many late slots a send goes anyway (a process that is always this busy must still send). */
const MAX_RESLOTS = 3;

/** Sends waiting for their slots on one number, claimed together. */
interface Waiting {
  spacingMs: number;
  slots: ((slotMs: number) => void)[];
  failed: ((error: unknown) => void)[];
}

/**
 * Meta's per-number throughput (messages per second) for the whole deployment: the next free send
 * slot of each number lives in the database (`send_pacing`), and every process claims slots from it,
 * spaced 1/rate apart, so all processes together never exceed the rate in any second. A process has
 * one claim of a number in flight at a time: the sends that ask for a slot meanwhile claim theirs
 * together in the next statement (claims one after another would queue on the row's lock, each
 * waiting for the one before to commit). Slots are wall-clock milliseconds, so the processes' hosts
 * must keep their clocks in step (NTP).
 */
export function createSendPacer({ db, dialect }: Pick<Deps, 'db' | 'dialect'>) {
  /** Sends asking for a slot, by number, not yet in a claim. */
  const waiting = new Map<string, Waiting>();
  /** Numbers with a claim in flight. */
  const claiming = new Set<string>();
  const later = (a: RawBuilder<unknown>, b: number) =>
    dialect === 'postgres' ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`;

  /** Claims `count` consecutive slots of `key`; returns the first. */
  async function claim(key: string, spacingMs: number, count: number): Promise<number> {
    const now = Date.now();
    const span = spacingMs * count;
    const row = await db
      .insertInto('send_pacing')
      .values({ pace_key: key, next_slot_ms: now + span })
      .onConflict((oc) =>
        oc
          .column('pace_key')
          .doUpdateSet({ next_slot_ms: sql<number>`${later(sql`send_pacing.next_slot_ms`, now)} + ${span}` }),
      )
      .returning('next_slot_ms')
      .executeTakeFirstOrThrow();
    return Number(row.next_slot_ms) - span;
  }

  async function claimWaiting(key: string): Promise<void> {
    const group = waiting.get(key)!;
    waiting.delete(key);
    claiming.add(key);
    try {
      const first = await claim(key, group.spacingMs, group.slots.length);
      group.slots.forEach((resolve, i) => resolve(first + i * group.spacingMs));
    } catch (error) {
      for (const reject of group.failed) reject(error);
    } finally {
      claiming.delete(key);
      if (waiting.has(key)) setImmediate(() => void claimWaiting(key));
    }
  }

  /** One slot of `key`, claimed with the others asked for in this tick, or while the claim before was in flight. */
  function slotOf(key: string, perSecond: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let group = waiting.get(key);
      if (!group) {
        waiting.set(key, (group = { spacingMs: 1000 / perSecond, slots: [], failed: [] }));
        if (!claiming.has(key)) setImmediate(() => void claimWaiting(key));
      }
      group.slots.push(resolve);
      group.failed.push(reject);
    });
  }

  return {
    /** Resolves at the send slot claimed for one message through `key` at `perSecond`. */
    async take(key: string, perSecond: number): Promise<void> {
      for (let reslots = 0; ; reslots++) {
        const slotMs = await slotOf(key, perSecond);
        const wait = slotMs - Date.now();
        if (wait > 0) await sleep(wait);
        if (Date.now() - slotMs <= LATE_MS || reslots === MAX_RESLOTS) return;
      }
    },

    /** The channel said `key` sends too fast: no process gets a slot for it sooner than `pauseMs` from now. */
    async slowDown(key: string, pauseMs: number): Promise<void> {
      const until = Date.now() + pauseMs;
      await db
        .updateTable('send_pacing')
        .set({ next_slot_ms: later(sql`next_slot_ms`, until) })
        .where('pace_key', '=', key)
        .execute();
    },
  };
}

export type SendPacer = ReturnType<typeof createSendPacer>;
