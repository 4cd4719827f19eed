import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { precompile } from '../db/precompile.js';
import { DEFAULT_START_KEYWORDS, DEFAULT_STOP_KEYWORDS } from './opt-out.keywords.js';

/** A workspace's opt-out settings as the service uses them. */
export interface OptOutSettings {
  stop_keywords: string[];
  start_keywords: string[];
  /** A contact who opts out is told so, once. */
  confirm: boolean;
}

/** What a workspace that never changed its settings uses. */
export const DEFAULT_OPT_OUT_SETTINGS: OptOutSettings = {
  stop_keywords: DEFAULT_STOP_KEYWORDS,
  start_keywords: DEFAULT_START_KEYWORDS,
  confirm: true,
};

// Read for every batch of inbound messages that could hold a keyword.
const selectSettings = precompile((db, workspaceId: string) =>
  db
    .selectFrom('opt_out_settings')
    .select(['stop_keywords', 'start_keywords', 'confirm'])
    .where('workspace_id', '=', workspaceId),
);

/** SQL for the opt_out_settings table (one row per workspace that changed the defaults). */
export function optOutRepository(db: Kysely<Database>) {
  return {
    async settings(workspaceId: string): Promise<OptOutSettings> {
      const row = (await selectSettings(db, workspaceId))[0];
      if (!row) return DEFAULT_OPT_OUT_SETTINGS;
      return {
        stop_keywords: JSON.parse(row.stop_keywords) as string[],
        start_keywords: JSON.parse(row.start_keywords) as string[],
        confirm: row.confirm === 1,
      };
    },

    async save(workspaceId: string, settings: OptOutSettings, at: string): Promise<void> {
      const fields = {
        stop_keywords: JSON.stringify(settings.stop_keywords),
        start_keywords: JSON.stringify(settings.start_keywords),
        confirm: settings.confirm ? 1 : 0,
        updated_at: at,
      };
      await db
        .insertInto('opt_out_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },
  };
}
