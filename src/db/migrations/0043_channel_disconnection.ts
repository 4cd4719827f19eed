import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Meta's word that a number's account was taken from this app (`account_update` PARTNER_REMOVED, …):
 * the event, when, and Meta's `disconnection_info`, as JSON. While set, the number's sends wait; null
 * when connected.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('disconnection', 'text').execute();
}
