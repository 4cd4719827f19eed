import type { Kysely } from 'kysely';
import type { Database, RateCardTable } from '../db/schema.js';

type Db = Kysely<Database>;

/** The workspace's message rates and imported rate cards (the tables the Reports page writes). */
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

    /** The workspace's rate cards, the newest first. */
    rateCards: (workspaceId: string) =>
      db
        .selectFrom('rate_cards')
        .select(['effective_from', 'currency', 'rates', 'source', 'imported_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('effective_from', 'desc')
        .execute(),

    /** Adds a card; false when the workspace already has one from that day (it is never replaced silently). */
    async addRateCard(card: RateCardTable): Promise<boolean> {
      const added = await db
        .insertInto('rate_cards')
        .values(card)
        .onConflict((oc) => oc.columns(['workspace_id', 'effective_from']).doNothing())
        .executeTakeFirst();
      return Number(added.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Removes the card from that day; false when there was none. */
    async deleteRateCard(workspaceId: string, effectiveFrom: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('rate_cards')
        .where('workspace_id', '=', workspaceId)
        .where('effective_from', '=', effectiveFrom)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },
  };
}
