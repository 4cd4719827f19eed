import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Guards on signing in that must hold for every Parley process sharing the database: fixed-window
 * counters (the per-client-address limit on sign-in attempts), and a singleton row that the one
 * first-run set-up claims. Failed logins are swept by age, so that sweep gets an index.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX rate_limits_expires_at ON rate_limits (expires_at)`.execute(db);

  await sql`CREATE INDEX login_failures_updated_at ON login_failures (updated_at)`.execute(db);

  // At most one row (id = 1): inserting it is how the first-run set-up claims the installation (one
  // that already has users, set up before this table or by the CLI, is refused on that ground).
  await db.schema
    .createTable('first_run')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('completed_at', t.timestamp, (c) => c.notNull())
    .execute();
}
