import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Each tag link carries its contact's last_message_at, kept equal by a trigger, and a tag's links are
 * indexed in the contacts' recency order: a search by tag reads the page it shows and no more. Walking
 * every contact by recency and testing the tag read 50 / share of them, and far more when the tag's
 * contacts are the quiet ones (measured at 1,000,000 contacts: a tag of 1 %, p99 1.4 s).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('contact_tags').addColumn('last_message_at', columnTypes(dialect).timestamp).execute();
  await sql`UPDATE contact_tags SET last_message_at =
    (SELECT c.last_message_at FROM contacts c WHERE c.id = contact_tags.contact_id)`.execute(db);
  if (dialect === 'postgres') {
    await sql`CREATE INDEX contact_tags_recent ON contact_tags
      (tag_id, last_message_at DESC NULLS LAST, contact_id DESC)`.execute(db);
    await sql`CREATE FUNCTION contact_tags_follow_recency() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE contact_tags SET last_message_at = NEW.last_message_at WHERE contact_id = NEW.id;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER contacts_tag_recency AFTER UPDATE OF last_message_at ON contacts FOR EACH ROW
      WHEN (NEW.last_message_at IS DISTINCT FROM OLD.last_message_at)
      EXECUTE FUNCTION contact_tags_follow_recency()`.execute(db);
    return;
  }
  await sql`CREATE INDEX contact_tags_recent ON contact_tags (tag_id, last_message_at DESC, contact_id DESC)`.execute(
    db,
  );
  await sql`CREATE TRIGGER contacts_tag_recency AFTER UPDATE OF last_message_at ON contacts
    WHEN new.last_message_at IS NOT old.last_message_at BEGIN
      UPDATE contact_tags SET last_message_at = new.last_message_at WHERE contact_id = new.id;
    END`.execute(db);
}
