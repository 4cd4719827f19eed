import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, WorkspaceEventTable } from '../db/schema.js';

export type WorkspaceEventRow = Selectable<WorkspaceEventTable>;

/** SQL for the workspace event log. */
export function workspaceEventRepository(db: Kysely<Database>) {
  return {
    /** Inserts events, skipping any already recorded (a retried delivery). */
    async insert(rows: Insertable<WorkspaceEventTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('workspace_events')
        .values(rows)
        .onConflict((oc) => oc.columns(['workspace_id', 'dedupe_key']).doNothing())
        .execute();
    },

    /** The newest events first (the time Parley recorded them, then id). */
    latest: (workspaceId: string, limit: number): Promise<WorkspaceEventRow[]> =>
      db
        .selectFrom('workspace_events')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
  };
}
