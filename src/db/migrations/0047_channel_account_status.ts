import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Meta's latest word on a number's WhatsApp Business Account from its `account_update` webhooks (a policy
 * violation, a restriction, the volume pricing tier, authentication-international eligibility, verification),
 * as JSON; null before Meta says any.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('account_status', 'text').execute();
}
