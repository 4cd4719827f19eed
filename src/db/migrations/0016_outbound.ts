import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * When the channel said a contact's customer service window is closed (Meta's 131047), which can be
 * before the 24 hours Parley counts from their last message; a newer message from them reopens it.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('contacts').addColumn('window_closed_at', t.timestamp).execute();
}
