import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** The workspace's message rates (the one table the Reports page writes). */
export function reportRepository(db: Db) {
  return {
    rates: (workspaceId: string) =>
      db
        .selectFrom('message_rates')
        .select(['currency', 'rates'])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst(),

    async saveRates(workspaceId: string, currency: string, rates: string, at: string): Promise<void> {
      await db
        .insertInto('message_rates')
        .values({ workspace_id: workspaceId, currency, rates, updated_at: at })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ currency, rates, updated_at: at }))
        .execute();
    },
  };
}
