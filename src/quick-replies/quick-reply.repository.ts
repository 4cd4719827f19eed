import type { Kysely, Selectable } from 'kysely';
import type { Database, QuickReplyTable } from '../db/schema.js';

export type QuickReplyRow = Selectable<QuickReplyTable>;

/** SQL for quick replies; every query is scoped to one workspace. */
export function quickReplyRepository(db: Kysely<Database>) {
  const scoped = (workspaceId: string) =>
    db.selectFrom('quick_replies').selectAll().where('workspace_id', '=', workspaceId);
  return {
    /** By shortcut; `query` (lower case) matches the shortcut or the answer. */
    list(workspaceId: string, query: string | undefined, limit: number): Promise<QuickReplyRow[]> {
      let select = scoped(workspaceId);
      if (query) {
        const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        select = select.where((eb) =>
          eb.or([eb('shortcut', 'like', like), eb(eb.fn('lower', ['body']), 'like', like)]),
        );
      }
      return select.orderBy('shortcut').limit(limit).execute();
    },
    find: (workspaceId: string, id: string) => scoped(workspaceId).where('id', '=', id).executeTakeFirst(),
    byShortcut: (workspaceId: string, shortcut: string) =>
      scoped(workspaceId).where('shortcut', '=', shortcut).executeTakeFirst(),
    async count(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('quick_replies')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(row: QuickReplyRow): Promise<void> {
      await db.insertInto('quick_replies').values(row).execute();
    },
    async update(
      workspaceId: string,
      id: string,
      fields: Partial<Pick<QuickReplyRow, 'shortcut' | 'body' | 'updated_at'>>,
    ) {
      await db
        .updateTable('quick_replies')
        .set(fields)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
    async delete(workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom('quick_replies').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}
