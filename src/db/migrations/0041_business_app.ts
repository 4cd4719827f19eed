import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Coexistence: a number the business also uses in the WhatsApp Business app (`business_app`, which
 * Meta paces at 20 messages per second), and how far the import of the app's chat history has come
 * (`history_import`, JSON; null until Meta sends any).
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('business_app', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('channels').addColumn('history_import', 'text').execute();
}
