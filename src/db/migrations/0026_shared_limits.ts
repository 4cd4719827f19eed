import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/**
 * What several Parley processes on one database must agree on (src/shared/deployment-generation.ts,
 * src/messages/throughput.ts):
 * - `deployment_generation`: one counter that triggers bump whenever something a process caches
 *   changes (a token revoked or deleted, a workspace's limits, any channel), whoever wrote it (a
 *   server, the CLI, a script). Each process compares its caches against it.
 * - `send_pacing`: per WhatsApp number, the next free send slot (ms since the epoch, fractional); processes claim
 *   slots from it, so together they never exceed the number's throughput.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('deployment_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('deployment_generation').values({ id: 1, generation: 1 }).execute();
  await db.schema
    .createTable('send_pacing')
    .addColumn('pace_key', 'text', (c) => c.primaryKey())
    .addColumn('next_slot_ms', 'double precision', (c) => c.notNull())
    .execute();
  for (const [table, events] of CACHED_CHANGES) {
    if (dialect === 'postgres') await postgresTrigger(db, table, events);
    else await sqliteTriggers(db, table, events);
  }
}

const BUMP = sql`UPDATE deployment_generation SET generation = generation + 1 WHERE id = 1`;

/** The changes that make a cached token principal or channel row stale. */
const CACHED_CHANGES: [table: string, events: string[]][] = [
  ['api_tokens', ['UPDATE OF revoked_at', 'DELETE']],
  ['workspaces', ['UPDATE OF poll_interval_seconds, rate_limit_per_minute', 'DELETE']],
  ['channels', ['INSERT', 'UPDATE', 'DELETE']],
];

async function postgresTrigger(db: Kysely<Database>, table: string, events: string[]): Promise<void> {
  const name = sql.raw(`${table}_bump_generation`);
  await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${BUMP}; RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER ${name} AFTER ${sql.raw(events.join(' OR '))} ON ${sql.table(table)}
    FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`.execute(db);
}

/** SQLite has no statement triggers and one event per trigger. */
async function sqliteTriggers(db: Kysely<Database>, table: string, events: string[]): Promise<void> {
  for (const [i, event] of events.entries()) {
    const name = sql.raw(`${table}_bump_generation_${i}`);
    await sql`CREATE TRIGGER ${name} AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN ${BUMP}; END`.execute(db);
  }
}
