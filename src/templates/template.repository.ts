import { type Kysely, type Selectable } from 'kysely';
import type { Database, TemplateTable, TemplateTranslationTable } from '../db/schema.js';
import { containsIgnoringCase } from '../db/sql.js';

export type TemplateRow = Selectable<TemplateTable>;
export type TranslationRow = Selectable<TemplateTranslationTable>;

/** SQL for templates and their translations, scoped to one workspace. */
export function templateRepository(db: Kysely<Database>) {
  return {
    findById: (workspaceId: string, id: string) =>
      db
        .selectFrom('templates')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    findByIds: (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('templates')
            .selectAll()
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids)
            .execute(),

    findByName: (workspaceId: string, name: string) =>
      db
        .selectFrom('templates')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', name)
        .executeTakeFirst(),

    list(workspaceId: string, filter: { name?: string; status?: string }, limit: number) {
      let query = db.selectFrom('templates as t').selectAll('t').where('t.workspace_id', '=', workspaceId);
      if (filter.name) query = query.where(containsIgnoringCase('t.name', filter.name));
      if (filter.status) {
        const status = filter.status;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('template_translations as tt')
              .select('tt.id')
              .whereRef('tt.template_id', '=', 't.id')
              .where('tt.status', '=', status),
          ),
        );
      }
      return query.orderBy('t.name').orderBy('t.id').limit(limit).execute();
    },

    /** Translations of the templates, oldest first: "the first approved translation found" is the oldest. */
    translations: (templateIds: string[]) =>
      templateIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('template_translations')
            .selectAll()
            .where('template_id', 'in', templateIds)
            .orderBy('created_at')
            .orderBy('id')
            .execute(),

    /** All templates of a workspace with their translations, for export. */
    all: (workspaceId: string) =>
      db.selectFrom('templates').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute(),
  };
}
