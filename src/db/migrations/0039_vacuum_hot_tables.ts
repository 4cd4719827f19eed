import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/** The share of a table's rows that changes before autovacuum visits it (PostgreSQL's default: 0.2). */
const SCALE = 0.02;

/**
 * PostgreSQL: autovacuum visits messages and conversation_spans after 2 % of their rows change, not 20 %.
 * Both change constantly (a sent message is queued, sent, delivered, read), and each update clears its
 * page's visibility bit, so the reports' index-only scans (messages_sent_by_member, the spans' indexes)
 * fetched every recent row from the heap: 367 ms for 30,000 members' messages before a vacuum, 45 ms
 * after. SQLite keeps no visibility map: nothing to do.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of ['messages', 'conversation_spans']) {
    await sql`ALTER TABLE ${sql.table(table)} SET (
      autovacuum_vacuum_scale_factor = ${sql.lit(SCALE)},
      autovacuum_vacuum_insert_scale_factor = ${sql.lit(SCALE)},
      autovacuum_analyze_scale_factor = ${sql.lit(SCALE)})`.execute(db);
  }
}
