import { sql } from 'kysely';
import type { Deps } from '../db/deps.js';
import type { LeasedMessage } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { messageRepository } from './message.repository.js';

/** Messages one claim takes at most. */
export const CLAIM_BATCH = 200;

/**
 * The lane of a message as SQL computes it (outbox-lanes.ts, laneKey, is the same rule): the channel
 * it names, else the contact's conversation channel, else the workspace's default, else its built-in
 * simulator. Claims use it to skip lanes that are full or paused.
 */
const laneKeySql = sql<string>`coalesce(
  cast(messages.channel_id as text),
  (select cast(contacts.conversation_channel_id as text) from contacts where contacts.id = messages.contact_id),
  (select cast(channels.id as text) from channels
    where channels.workspace_id = messages.workspace_id and channels.is_default = 1),
  'simulator ' || cast(messages.workspace_id as text))`;

/**
 * The outbox's leases on queued messages. A claim's lease is the grace period: a process that dies
 * mid-send leaves its messages' outcome unknown, and they are sent again only once a status naming
 * them had time to arrive. Messages claimed but never sent go back: at once when handed back, at the
 * next round when the database's outage kept them from their send (stranded).
 */
export function createOutboxClaims(deps: Deps, graceMs: number) {
  const { db, clock } = deps;
  /** Claimed messages the database's outage kept from their send, by the lease they were claimed with. */
  const stranded = new Map<string, string[]>();

  const leaseFromNow = () => toStoredTimestamp(new Date(clock.now().getTime() + graceMs));

  return {
    leaseFromNow,

    /**
     * Claims the due messages in one statement: moving next_attempt_at past now is the lease, and
     * the `<= now` condition makes it exclusive (a message another process claimed is no longer due).
     * Messages of the `skipped` lanes (numbers full or paused here) stay for later or another process.
     */
    async claimDue(skipped: string[]): Promise<LeasedMessage[]> {
      const now = toStoredTimestamp(clock.now());
      const lease = leaseFromNow();
      let due = db.selectFrom('messages').select('id').where('next_attempt_at', '<=', now);
      if (skipped.length > 0) due = due.where(laneKeySql, 'not in', skipped);
      const claimed = await db
        .updateTable('messages')
        .set((eb) => ({ next_attempt_at: lease, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', due.orderBy('next_attempt_at').limit(CLAIM_BATCH))
        .where('next_attempt_at', '<=', now)
        .returning(['id', 'workspace_id', 'contact_id', 'group_id', 'type', 'content', 'attempts', 'channel_id'])
        // The recipient's number and conversation channel come back with the claim: fewer round trips per batch.
        .returning((eb) => [
          eb.selectFrom('contacts').select('phone').whereRef('contacts.id', '=', 'messages.contact_id').as('phone'),
          eb
            .selectFrom('contacts')
            .select('conversation_channel_id')
            .whereRef('contacts.id', '=', 'messages.contact_id')
            .as('conversation_channel_id'),
          eb.selectFrom('groups').select('wa_group_id').whereRef('groups.id', '=', 'messages.group_id').as('group'),
        ])
        .execute();
      return claimed.map(({ phone, group, ...m }) => ({
        ...m,
        to: group ?? phone!,
        toGroup: group !== null && group !== undefined,
        conversation_channel_id: m.conversation_channel_id ?? null,
        lease,
      }));
    },

    /** Notes a message the database's outage kept from its send, to be made due at the next round. */
    strand(message: LeasedMessage): void {
      const ids = stranded.get(message.lease);
      if (ids) ids.push(message.id);
      else stranded.set(message.lease, [message.id]);
    },

    /** Makes stranded messages due now, unless another process has claimed them since (their lease changed). */
    async releaseStranded(): Promise<void> {
      const now = toStoredTimestamp(clock.now());
      for (const [lease, ids] of stranded) {
        await messageRepository(db).releaseClaims(ids, now, lease);
        stranded.delete(lease);
      }
    },

    /** Hands claimed messages that were never given to the channel back to the queue, due at `atMs` (the claim's attempt too). */
    release(messages: LeasedMessage[], atMs: number): Promise<void> {
      return messageRepository(db).releaseClaims(
        messages.map((message) => message.id),
        toStoredTimestamp(new Date(atMs)),
      );
    },
  };
}
