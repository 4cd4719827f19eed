import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A rating as the thread shows it. */
export interface Rating {
  rating: number;
  rated_at: string;
  agent_id: string | null;
}

/** SQL for csat_settings (one row per workspace that changed the default: off) and csat_surveys. */
export function csatRepository(db: Kysely<Database>) {
  return {
    async enabled(workspaceId: string): Promise<boolean> {
      const row = await db
        .selectFrom('csat_settings')
        .select('enabled')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row?.enabled === 1;
    },

    async saveEnabled(workspaceId: string, enabled: boolean, at: string): Promise<void> {
      const fields = { enabled: enabled ? 1 : 0, updated_at: at };
      await db
        .insertInto('csat_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },

    /** Records a survey sent for a closed span; false when that span has one already (the unique index). */
    async insertSurvey(row: {
      id: string;
      workspace_id: string;
      contact_id: string;
      span_id: string;
      agent_id: string | null;
      message_id: string;
      sent_at: string;
    }): Promise<boolean> {
      const result = await db
        .insertInto('csat_surveys')
        .values(row)
        .onConflict((oc) => oc.column('span_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /** Stores the contact's first answer to one of their surveys; false when it is not theirs or was answered. */
    async rate(workspaceId: string, contactId: string, surveyId: string, rating: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable('csat_surveys')
        .set({ rating, rated_at: at })
        .where('id', '=', surveyId)
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('rating', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The contact's ratings given after `from` and up to `to` (either null: unbounded), oldest first. */
    async ratings(workspaceId: string, contactId: string, from: string | null, to: string | null): Promise<Rating[]> {
      let query = db
        .selectFrom('csat_surveys')
        .select(['rating', 'rated_at', 'agent_id'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('rated_at', 'is not', null);
      if (from) query = query.where('rated_at', '>=', from);
      if (to) query = query.where('rated_at', '<', to);
      const rows = await query.orderBy('rated_at').execute();
      return rows.map((row) => ({ rating: row.rating!, rated_at: row.rated_at!, agent_id: row.agent_id }));
    },
  };
}
