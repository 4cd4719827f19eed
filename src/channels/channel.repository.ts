import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { ChannelTable, Database } from '../db/schema.js';

export type ChannelRow = Selectable<ChannelTable>;
export type NewChannelRow = Omit<
  ChannelRow,
  'is_default' | 'business_app' | 'history_import' | 'disconnection' | 'account_status' | 'portfolio_limit'
> & {
  is_default: number;
  business_app?: number;
  history_import?: string | null;
  disconnection?: string | null;
  account_status?: string | null;
  portfolio_limit?: string | null;
};

/** What Meta says about a number (describeNumber, phone_number_quality_update), kept on its channel. */
export type NumberFacts = Partial<
  Pick<ChannelRow, 'display_phone_number' | 'verified_name' | 'quality_rating' | 'messaging_limit_tier'>
>;

/** SQL for channels: the only place they are read and written. */
export function channelRepository(db: Kysely<Database>) {
  return {
    /** A workspace's channels, the default first, then oldest first. */
    listOf: (workspaceId: string): Promise<ChannelRow[]> =>
      db
        .selectFrom('channels')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('is_default', 'desc')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    /** The WhatsApp Cloud channel of a phone number id, whichever workspace has it. */
    cloudChannelOf: (phoneNumberId: string) =>
      db
        .selectFrom('channels')
        .select(['id', 'workspace_id'])
        .where('phone_number_id', '=', phoneNumberId)
        .where('provider', '=', 'whatsapp-cloud')
        .executeTakeFirst(),

    /** Marks a number as also used in the WhatsApp Business app; written once, not on every echo. */
    async markBusinessApp(id: string, at: string): Promise<void> {
      await db
        .updateTable('channels')
        .set({ business_app: 1, updated_at: at })
        .where('id', '=', id)
        .where('business_app', '=', 0)
        .execute();
    },

    /** Replaces the history import's record with what `next` makes of it, the row locked meanwhile. */
    async updateHistoryImport<T>(dialect: Dialect, id: string, next: (previous: T | null) => T): Promise<void> {
      await db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('channels').select('history_import').where('id', '=', id);
        // SQLite's transactions already take the write lock first (connection.ts).
        if (dialect === 'postgres') query = query.forUpdate();
        const row = await query.executeTakeFirst();
        if (!row) return;
        const previous = row.history_import === null ? null : (JSON.parse(row.history_import) as T);
        await trx
          .updateTable('channels')
          .set({ history_import: JSON.stringify(next(previous)) })
          .where('id', '=', id)
          .execute();
      });
    },

    /**
     * Replaces the account status of each of a WABA's Cloud numbers with what `next` makes of it, the rows
     * locked meanwhile; returns how many it changed.
     */
    async updateAccountStatusOfWaba<T>(
      dialect: Dialect,
      wabaId: string,
      next: (previous: T | null) => T,
      at: string,
    ): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('channels')
          .select(['id', 'account_status'])
          .where('waba_id', '=', wabaId)
          .where('provider', '=', 'whatsapp-cloud');
        // SQLite's transactions already take the write lock first (connection.ts).
        if (dialect === 'postgres') query = query.forUpdate();
        const rows = await query.execute();
        for (const row of rows) {
          const previous = row.account_status === null ? null : (JSON.parse(row.account_status) as T);
          await trx
            .updateTable('channels')
            .set({ account_status: JSON.stringify(next(previous)), updated_at: at })
            .where('id', '=', row.id)
            .execute();
        }
        return rows.length;
      });
    },

    /** Notes (or, with null, clears) Meta's disconnection of a WABA's numbers; returns how many it changed. */
    async setDisconnection(wabaId: string, disconnection: string | null, at: string): Promise<number> {
      const result = await db
        .updateTable('channels')
        .set({ disconnection, updated_at: at })
        .where('waba_id', '=', wabaId)
        .where('provider', '=', 'whatsapp-cloud')
        .where('disconnection', disconnection === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The portfolio limit kept on a WABA's numbers (the same on each), as JSON; null when none is. */
    portfolioLimitOf: async (wabaId: string): Promise<string | null> =>
      (
        await db
          .selectFrom('channels')
          .select('portfolio_limit')
          .where('waba_id', '=', wabaId)
          .where('provider', '=', 'whatsapp-cloud')
          .where('portfolio_limit', 'is not', null)
          .executeTakeFirst()
      )?.portfolio_limit ?? null,

    /** Keeps the portfolio limit Meta stated on every number of the WABA; returns how many it changed. */
    async setPortfolioLimit(wabaId: string, limit: string, at: string): Promise<number> {
      const result = await db
        .updateTable('channels')
        .set({ portfolio_limit: limit, updated_at: at })
        .where('waba_id', '=', wabaId)
        .where('provider', '=', 'whatsapp-cloud')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The channels whose sends wait, every workspace's: Meta disconnected their numbers. */
    disconnectedIds: async (): Promise<string[]> =>
      (await db.selectFrom('channels').select('id').where('disconnection', 'is not', null).execute()).map(
        (row) => row.id,
      ),

    async insert(row: NewChannelRow): Promise<void> {
      await db.insertInto('channels').values(row).execute();
    },

    async update(id: string, changes: Partial<Omit<ChannelRow, 'id' | 'workspace_id'>>): Promise<void> {
      await db.updateTable('channels').set(changes).where('id', '=', id).execute();
    },

    /** Deletes a workspace's channel; false when it has no such channel. */
    async remove(workspaceId: string, id: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('channels')
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    /** Makes `id` the workspace's default channel (at most one: the others are cleared first). */
    async makeDefault(workspaceId: string, id: string): Promise<void> {
      await db
        .updateTable('channels')
        .set({ is_default: 0 })
        .where('workspace_id', '=', workspaceId)
        .where('is_default', '=', 1)
        .execute();
      await db.updateTable('channels').set({ is_default: 1 }).where('id', '=', id).execute();
    },

    workspacesOfWaba: async (wabaId: string): Promise<string[]> => {
      const rows = await db
        .selectFrom('channels')
        .select('workspace_id')
        .distinct()
        .where('waba_id', '=', wabaId)
        .where('provider', '=', 'whatsapp-cloud')
        .execute();
      return rows.map((row) => row.workspace_id);
    },

    /** Keeps Meta's news about a WABA's number, named by its display number (as the webhook names it). */
    async applyFacts(wabaId: string, displayDigits: string, facts: NumberFacts, at: string): Promise<string[]> {
      const numbers = await db
        .selectFrom('channels')
        .select(['id', 'display_phone_number'])
        .where('waba_id', '=', wabaId)
        .where('provider', '=', 'whatsapp-cloud')
        .execute();
      const ids = numbers
        .filter((row) => (row.display_phone_number ?? '').replace(/\D/g, '') === displayDigits)
        .map((row) => row.id);
      if (ids.length > 0)
        await db
          .updateTable('channels')
          .set({ ...facts, updated_at: at })
          .where('id', 'in', ids)
          .execute();
      return ids;
    },
  };
}
