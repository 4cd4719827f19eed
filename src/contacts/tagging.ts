import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { tagKey, tagRepository } from '../tags/index.js';

type Db = Kysely<Database>;

/** A contact and the tag names put on it. */
export interface TagLink {
  contactId: string;
  names: string[];
}

/** What the automation engines hear about contacts (a tag can end a sequence enrolment). */
export interface ContactEvents {
  tagged(trx: Db, workspaceId: string, links: TagLink[]): Promise<void>;
}

const LINK_COLUMNS = { contact_id: 'uuid', tag_id: 'uuid', created_at: 'timestamptz' } as const;

/**
 * The one way tags are put on and taken off contacts (the API, imports, flows, sequences): tags are
 * created where new, and every addition is told to the engines that listen for it, in the caller's
 * transaction. No other code writes contact_tags.
 */
export function createTagging(
  { newId, clock, dialect }: Pick<Deps, 'newId' | 'clock' | 'dialect'>,
  events: () => ContactEvents,
) {
  async function tagIds(trx: Db, workspaceId: string, names: string[], at: string): Promise<Map<string, string>> {
    const distinct = [...new Map(names.map((name) => [tagKey(name), name])).values()];
    const tags = await tagRepository(trx).ensure(workspaceId, distinct, newId, at);
    return new Map(tags.map((tag) => [tag.name_key, tag.id]));
  }

  async function addTags(trx: Db, workspaceId: string, links: TagLink[]): Promise<void> {
    const given = links.filter((link) => link.names.length > 0);
    if (given.length === 0) return;
    const at = toStoredTimestamp(clock.now());
    const ids = await tagIds(
      trx,
      workspaceId,
      given.flatMap((link) => link.names),
      at,
    );
    const rows = given.flatMap((link) =>
      link.names.map((name) => ({ contact_id: link.contactId, tag_id: ids.get(tagKey(name))!, created_at: at })),
    );
    // Each link starts with its contact's last_message_at; a trigger keeps it so (migration 0028).
    await sql`INSERT INTO contact_tags (contact_id, tag_id, created_at, last_message_at)
      SELECT v.contact_id, v.tag_id, v.created_at, c.last_message_at
      FROM ${jsonRows(dialect, rows, LINK_COLUMNS)} JOIN contacts c ON c.id = v.contact_id
      WHERE true ON CONFLICT (contact_id, tag_id) DO NOTHING`.execute(trx);
    await events().tagged(trx, workspaceId, given);
  }

  return {
    addTags,

    /** Takes tags off contacts; a tag that does not exist, or a contact without it, changes nothing. */
    async removeTags(trx: Db, workspaceId: string, contactIds: string[], names: string[]): Promise<void> {
      if (contactIds.length === 0 || names.length === 0) return;
      await trx
        .deleteFrom('contact_tags')
        .where('contact_id', 'in', contactIds)
        .where('tag_id', 'in', tagRepository(trx).idsByNames(workspaceId, names))
        .execute();
    },

    /** Makes `names` the contact's only tags. */
    async replaceTags(trx: Db, workspaceId: string, contactId: string, names: string[]): Promise<void> {
      let removal = trx.deleteFrom('contact_tags').where('contact_id', '=', contactId);
      if (names.length > 0) {
        const kept = tagRepository(trx).idsByNames(workspaceId, names);
        removal = removal.where('tag_id', 'not in', kept);
      }
      await removal.execute();
      await addTags(trx, workspaceId, [{ contactId, names }]);
    },
  };
}

export type Tagging = ReturnType<typeof createTagging>;
