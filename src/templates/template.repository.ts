import { type Kysely, type Selectable } from 'kysely';
import type { Database, TemplateTable, TemplateTranslationTable } from '../db/schema.js';
import { containsIgnoringCase } from '../db/sql.js';

export type TemplateRow = Selectable<TemplateTable>;
export type TranslationRow = Selectable<TemplateTranslationTable>;

/** list-templates' filters: a substring of the name, a status one of its translations has. */
export interface TemplateFilter {
  name?: string | undefined;
  status?: string | undefined;
}

/** SQL for templates and their translations, scoped to one workspace. */
export function templateRepository(db: Kysely<Database>) {
  const filtered = (workspaceId: string, filter: TemplateFilter) => {
    let query = db.selectFrom('templates as t').selectAll('t').where('t.workspace_id', '=', workspaceId);
    if (filter.name) query = query.where(containsIgnoringCase('t.name', filter.name));
    const status = filter.status;
    if (status) {
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
    return query;
  };

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

    list(workspaceId: string, filter: TemplateFilter, limit: number) {
      return filtered(workspaceId, filter).orderBy('t.name').orderBy('t.id').limit(limit).execute();
    },

    /** Templates in id order after `afterId`, for cursor pagination (a range of templates_workspace_id). */
    listById(workspaceId: string, filter: TemplateFilter, afterId: string | null, limit: number) {
      let query = filtered(workspaceId, filter);
      if (afterId !== null) query = query.where('t.id', '>', afterId);
      return query.orderBy('t.id').limit(limit).execute();
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

    /** The simulator's review: the template's translation still PENDING under Meta's id `metaTemplateId` is approved. */
    async approvePending(templateId: string, metaTemplateId: string, at: string): Promise<void> {
      await db
        .updateTable('template_translations')
        .set({ status: 'APPROVED', rejection_reason: null, updated_at: at })
        .where('template_id', '=', templateId)
        .where('meta_template_id', '=', metaTemplateId)
        .where('status', '=', 'PENDING')
        .execute();
    },

    /** Meta's id of each synced name + language, so an edit from Parley reaches the same template at Meta. */
    async recordMetaIds(workspaceId: string, entries: { id: string; name: string; language: string }[]): Promise<void> {
      for (const entry of entries) {
        await db
          .updateTable('template_translations')
          .set({ meta_template_id: entry.id })
          .where('language', '=', entry.language)
          .where('template_id', 'in', (eb) =>
            eb
              .selectFrom('templates')
              .select('id')
              .where('workspace_id', '=', workspaceId)
              .where('name', '=', entry.name),
          )
          .execute();
      }
    },

    /** Deletes translations; a template left with none is deleted too (it could no longer be shown). */
    async deleteTranslations(templateId: string, languages: string[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('template_translations')
          .where('template_id', '=', templateId)
          .where('language', 'in', languages)
          .execute();
        const left = await trx
          .selectFrom('template_translations')
          .select('id')
          .where('template_id', '=', templateId)
          .executeTakeFirst();
        if (!left) await trx.deleteFrom('templates').where('id', '=', templateId).execute();
      });
    },

    /** All templates of a workspace with their translations, for export. */
    all: (workspaceId: string) =>
      db.selectFrom('templates').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute(),
  };
}
