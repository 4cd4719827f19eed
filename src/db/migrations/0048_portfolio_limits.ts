import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Messaging limits per business portfolio (Meta, October 2025): the limit Meta last stated for the
 * number's WABA (PortfolioLimit as JSON, the same on every channel of the WABA), and what a campaign
 * does with recipients past the room left: `send` (Meta refuses them) or `wait` (due when room returns).
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('portfolio_limit', 'text').execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('over_limit', 'text', (c) => c.notNull().defaultTo('send'))
    .execute();
}
