import type { Caller, Deps } from '../shared/context.js';
import { formatTimestamp } from '../shared/time.js';
import { tagRepository } from './tag.repository.js';
import { TAG_LIST_CAP, type Tag } from './tag.schema.js';

/** Tags of a workspace. */
export function createTagService({ db }: Deps) {
  return {
    /** list-tags: alphabetical, filtered by a case-insensitive substring of the name. */
    async list(caller: Caller, input: { name?: string | undefined }): Promise<Tag[]> {
      const rows = await tagRepository(db).list(caller.workspaceId, input.name?.trim() || undefined, TAG_LIST_CAP);
      return rows.map((row) => ({ id: row.id, name: row.name, created_at: formatTimestamp(row.created_at) }));
    },
  };
}

export type TagService = ReturnType<typeof createTagService>;
