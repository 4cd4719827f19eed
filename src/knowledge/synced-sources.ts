import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChunkDraft } from './chunking.js';

export type SyncedKind = 'templates' | 'quick_replies';

/**
 * Read model (src/db/table-owners.ts): the workspace's approved templates and its quick replies, which
 * its knowledge indexes when switched on. Neither folder tells knowledge of a change (templates change
 * from the API, Meta's sync and review webhooks, imports); instead each search compares their state now
 * with the state last indexed: how many rows there are and when the latest changed (every change sets
 * `updated_at`; a deletion lowers the count). Decision 0162.
 */
export function syncedContent(db: Kysely<Database>) {
  return {
    /** The state of the workspace's templates or quick replies, as a string that changes whenever they do. */
    async stateOf(workspaceId: string, kind: SyncedKind): Promise<{ digest: string; latest: string | null }> {
      if (kind === 'quick_replies') {
        const row = await db
          .selectFrom('quick_replies')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('latest')])
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow();
        return { digest: `${Number(row.n)}|${row.latest ?? ''}`, latest: row.latest ?? null };
      }
      const row = await db
        .selectFrom('templates as t')
        .leftJoin('template_translations as tt', 'tt.template_id', 't.id')
        .select((eb) => [
          eb.fn.count('t.id').distinct().as('templates'),
          eb.fn.count('tt.id').as('translations'),
          eb.fn.max('t.updated_at').as('template_latest'),
          eb.fn.max('tt.updated_at').as('translation_latest'),
        ])
        .where('t.workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      const latest = [row.template_latest, row.translation_latest].filter(Boolean).sort().at(-1) ?? null;
      return { digest: `${Number(row.templates)}|${Number(row.translations)}|${latest ?? ''}`, latest };
    },

    /** Their chunks: one per approved translation (header, body, footer) or per quick reply. */
    async draftsOf(workspaceId: string, kind: SyncedKind): Promise<ChunkDraft[]> {
      if (kind === 'quick_replies') {
        const rows = await db
          .selectFrom('quick_replies')
          .select(['shortcut', 'body'])
          .where('workspace_id', '=', workspaceId)
          .orderBy('shortcut')
          .execute();
        return rows.map((row) => ({ heading: `/${row.shortcut}`, text: row.body }));
      }
      const rows = await db
        .selectFrom('templates as t')
        .innerJoin('template_translations as tt', 'tt.template_id', 't.id')
        .select(['t.name', 'tt.language', 'tt.header_type', 'tt.header_content', 'tt.body', 'tt.footer'])
        .where('t.workspace_id', '=', workspaceId)
        .where('tt.status', '=', 'APPROVED')
        .orderBy('t.name')
        .orderBy('tt.language')
        .execute();
      return rows.map((row) => ({
        heading: `${row.name} (${row.language})`,
        text: [row.header_type === 'TEXT' ? row.header_content : null, row.body, row.footer]
          .filter((part): part is string => Boolean(part?.trim()))
          .join('\n\n'),
      }));
    },
  };
}
