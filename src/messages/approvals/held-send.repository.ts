import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, HeldSendStatus, HeldSendTable } from '../../db/schema.js';

export type HeldSendRow = Selectable<HeldSendTable>;

/** A decision on a held send, written only while it still awaits one. */
export interface Decision {
  status: Exclude<HeldSendStatus, 'awaiting_approval'>;
  decided_at: string;
  decided_by?: string | null;
  edited?: number;
  note?: string | null;
  message_id?: string | null;
}

/** SQL for the sends approval-mode tokens made: the only place `held_sends` is written. */
export function heldSendRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<HeldSendTable>): Promise<void> {
      await db.insertInto('held_sends').values(row).execute();
    },

    find: (workspaceId: string, id: string) =>
      db
        .selectFrom('held_sends')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /**
     * Writes the decision if the send still awaits one and has not run out of time (`now`): true when
     * this call decided it. Two people approving at once, in one process or several, both run this
     * UPDATE; the database lets one change the row, and the other finds it decided (no second send).
     */
    async decide(workspaceId: string, id: string, decision: Decision, now: string): Promise<boolean> {
      const result = await db
        .updateTable('held_sends')
        .set(decision)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .where('status', '=', 'awaiting_approval')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Marks the send expired if nobody decided it in time; true when this call did. */
    async expire(id: string, now: string): Promise<HeldSendRow | undefined> {
      return db
        .updateTable('held_sends')
        .set({ status: 'expired', decided_at: now })
        .where('id', '=', id)
        .where('status', '=', 'awaiting_approval')
        .where('expires_at', '<=', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** A conversation's sends awaiting a decision, oldest first, as its thread lists them. */
    awaiting: (workspaceId: string, contactId: string, now: string) =>
      db
        .selectFrom('held_sends')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('status', '=', 'awaiting_approval')
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
  };
}
