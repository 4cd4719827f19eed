import type { Kysely, Selectable } from 'kysely';
import type { Database, TagTable } from '../db/schema.js';
import type { IdGenerator } from '../shared/ids.js';
import { containsIgnoringCase } from '../db/sql.js';

export type TagRow = Selectable<TagTable>;

/** Tag names compare case-insensitively: "VIP" and "vip" are one tag. */
export function tagKey(name: string): string {
  return name.trim().toLowerCase();
}

/** SQL for tags, scoped to one workspace. */
export function tagRepository(db: Kysely<Database>) {
  return {
    findByName: (workspaceId: string, name: string) =>
      db
        .selectFrom('tags')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('name_key', '=', tagKey(name))
        .executeTakeFirst(),

    /** The ids of the tags with these names, as a subquery. */
    idsByNames: (workspaceId: string, names: string[]) =>
      db
        .selectFrom('tags')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('name_key', 'in', names.map(tagKey)),

    /** Returns the tags with these names, creating the missing ones (race-safe). */
    async ensure(workspaceId: string, names: string[], newId: IdGenerator, now: string): Promise<TagRow[]> {
      if (names.length === 0) return [];
      await db
        .insertInto('tags')
        .values(
          names.map((name) => ({
            id: newId(),
            workspace_id: workspaceId,
            name,
            name_key: tagKey(name),
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['workspace_id', 'name_key']).doNothing())
        .execute();
      return db
        .selectFrom('tags')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('name_key', 'in', names.map(tagKey))
        .execute();
    },

    list: (workspaceId: string, nameContains: string | undefined, limit: number) => {
      let query = db.selectFrom('tags').selectAll().where('workspace_id', '=', workspaceId);
      if (nameContains) query = query.where(containsIgnoringCase('name_key', nameContains, { lowered: true }));
      return query.orderBy('name_key').orderBy('id').limit(limit).execute();
    },

    /** Tags in id order after `afterId`, for cursor pagination (a range of tags_workspace_id). */
    listById: (workspaceId: string, nameContains: string | undefined, afterId: string | null, limit: number) => {
      let query = db.selectFrom('tags').selectAll().where('workspace_id', '=', workspaceId);
      if (nameContains) query = query.where(containsIgnoringCase('name_key', nameContains, { lowered: true }));
      if (afterId !== null) query = query.where('id', '>', afterId);
      return query.orderBy('id').limit(limit).execute();
    },

    rename: (workspaceId: string, id: string, name: string) =>
      db
        .updateTable('tags')
        .set({ name, name_key: tagKey(name) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute(),

    /** Deletes the tag; its contact links go with it (contact_tags.tag_id cascades). */
    remove: (workspaceId: string, id: string) =>
      db.deleteFrom('tags').where('workspace_id', '=', workspaceId).where('id', '=', id).execute(),
  };
}
