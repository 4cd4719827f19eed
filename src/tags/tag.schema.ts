import { Type, type Static } from '@sinclair/typebox';
import { pageSchema } from '../http/pagination.js';
import { Timestamp, Uuid } from '../http/responses.js';

export const TagSchema = Type.Object({ id: Uuid(), name: Type.String(), created_at: Timestamp() }, { $id: 'Tag' });
export type Tag = Static<typeof TagSchema>;

/** The server cap on list-tags. */
export const TAG_LIST_CAP = 1000;
/** list-tags' default page size with `paginate=cursor` (the cap is above the largest page). */
export const TAG_PAGE_LIMIT = 500;

export const ListTagsBody = Type.Object({
  name: Type.Optional(
    Type.String({ maxLength: 64, description: 'Case-insensitive substring of the tag name; "" = all' }),
  ),
});

export const TagList = Type.Array(Type.Ref(TagSchema), {
  maxItems: TAG_LIST_CAP,
  description: `Alphabetical; at most ${TAG_LIST_CAP}`,
});

/** A page of list-tags (`paginate=cursor`). */
export const TagPage = pageSchema(Type.Ref(TagSchema), 'TagPage');

const TagName = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

/** rename-tag: the tag by its current name, and the new one. */
export const RenameTagBody = Type.Object({
  tag: TagName('The tag’s current name (case-insensitive)'),
  name: TagName('The new name; contacts keep the tag'),
});

/** delete-tag: the tag by name; contacts lose it, nothing else changes. */
export const DeleteTagBody = Type.Object({ tag: TagName('The tag’s name (case-insensitive)') });

export const DeletedTag = Type.Object({ id: Uuid(), name: Type.String(), deleted: Type.Literal(true) });
