import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Reports credit a conversation's first response to the member who sent it, not to whoever closed it:
 * null when an API token answered first, and for spans answered before this migration.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('conversation_spans').addColumn('first_responder_id', columnTypes(dialect).id).execute();
}
