import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A status kept for a wamid no message had yet, with the workspace it came for. */
export interface EarlyStatus {
  workspace_id: string;
  status_update: string;
}

/** SQL for early_statuses: status webhooks that arrived before Parley recorded the send they name. */
export function earlyStatusRepository(db: Kysely<Database>) {
  return {
    async keep(
      rows: { id: string; workspace_id: string; wamid: string; status_update: string; received_at: string }[],
    ) {
      if (rows.length > 0) await db.insertInto('early_statuses').values(rows).execute();
    },

    /** Forgets statuses older than `before`: they named a send Parley never recorded (another app's). */
    async prune(before: string): Promise<void> {
      await db.deleteFrom('early_statuses').where('received_at', '<', before).execute();
    },

    /**
     * Takes (deletes and returns) the kept statuses whose send is now recorded, oldest first; the
     * delete makes each taken once however many processes look.
     */
    async takeRecorded(wamids: string[]): Promise<EarlyStatus[]> {
      if (wamids.length === 0) return [];
      // A read first: nearly always nothing waits, and a read takes no write lock (SQLite).
      const waiting = await db
        .selectFrom('early_statuses as e')
        .innerJoin('messages as m', (join) =>
          join.onRef('m.workspace_id', '=', 'e.workspace_id').onRef('m.provider_message_id', '=', 'e.wamid'),
        )
        .select('e.id')
        .where('e.wamid', 'in', wamids)
        .execute();
      if (waiting.length === 0) return [];
      const taken = await db
        .deleteFrom('early_statuses')
        .where(
          'id',
          'in',
          waiting.map((row) => row.id),
        )
        .returning(['id', 'workspace_id', 'status_update'])
        .execute();
      // Ids are time-ordered: arrival order.
      return taken.sort((a, b) => a.id.localeCompare(b.id));
    },
  };
}
