import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { cutPage, type CursorCodec, type Page, type PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp } from '../shared/time.js';
import { tagRepository, type TagRow } from './tag.repository.js';
import { TAG_LIST_CAP, type Tag } from './tag.schema.js';
import { commonProblems } from '../shared/common.problems.js';
import { tagProblems } from './tag.problems.js';

const presentTag = (row: TagRow): Tag => ({ id: row.id, name: row.name, created_at: formatTimestamp(row.created_at) });

/** Tags of a workspace. */
export function createTagService({ db }: Deps, cursors: CursorCodec) {
  return {
    /** list-tags: alphabetical, filtered by a case-insensitive substring of the name. */
    async list(caller: Caller, input: { name?: string | undefined }): Promise<Tag[]> {
      const rows = await tagRepository(db).list(caller.workspaceId, nameFilter(input), TAG_LIST_CAP);
      return rows.map(presentTag);
    },

    /** list-tags with `paginate=cursor`: the same filter, in id order, a page at a time. */
    async listPage(caller: Caller, input: { name?: string | undefined }, page: PageRequest): Promise<Page<Tag>> {
      const name = nameFilter(input);
      const scope = { workspaceId: caller.workspaceId, endpoint: 'list-tags', filters: { name } };
      const afterId = page.cursor === undefined ? null : cursors.decode(scope, page.cursor)[0]!;
      const rows = await tagRepository(db).listById(caller.workspaceId, name, afterId, page.limit + 1);
      const { rows: shown, next_cursor } = cutPage(rows, page.limit, (row) => cursors.encode(scope, [row.id]));
      return { data: shown.map(presentTag), next_cursor };
    },

    /**
     * rename-tag: contacts keep the tag under its new name. Sequences, flows and campaigns name tags,
     * so they follow only if edited too. A name another tag has is a 409 (merging is a choice to make
     * on purpose: tag the contacts, then delete the old tag); a change of case alone is a rename.
     */
    async rename(caller: Caller, input: { tag: string; name: string }): Promise<Tag> {
      const tags = tagRepository(db);
      const tag = await existing(caller, input.tag);
      const name = input.name.trim();
      if (!name) throw errors.invalid(commonProblems.problem('name', 'required'));
      const holder = await tags.findByName(caller.workspaceId, name);
      if (holder && holder.id !== tag.id) throw errors.taken(tagProblems.problem('name', 'tag_name_taken'));
      await tags.rename(caller.workspaceId, tag.id, name);
      return presentTag({ ...tag, name });
    },

    /** delete-tag: the tag and its links to contacts. */
    async remove(caller: Caller, input: { tag: string }) {
      const tag = await existing(caller, input.tag);
      await tagRepository(db).remove(caller.workspaceId, tag.id);
      return { id: tag.id, name: tag.name, deleted: true as const };
    },
  };

  async function existing(caller: Caller, name: string): Promise<TagRow> {
    const tag = await tagRepository(db).findByName(caller.workspaceId, name);
    if (!tag) throw errors.notFound('tag', 'tag');
    return tag;
  }
}

/** The name filter, lower-cased as it matches regardless of case; "" is no filter. */
const nameFilter = (input: { name?: string | undefined }) => input.name?.trim().toLowerCase() || undefined;

export type TagService = ReturnType<typeof createTagService>;
