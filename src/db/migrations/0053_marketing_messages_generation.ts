import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/**
 * Each process caches a workspace's Marketing Messages API setting (0050) with its channels, under the
 * deployment generation (0026). Any change to the setting bumps the generation, so every process reads it
 * again before its next send, whoever wrote it.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const bump = sql`UPDATE deployment_generation SET generation = generation + 1 WHERE id = 1`;
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION marketing_messages_settings_bump_generation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${bump}; RETURN NULL; END $$`.execute(db);
    await sql`CREATE TRIGGER marketing_messages_settings_bump_generation
      AFTER INSERT OR UPDATE OR DELETE ON marketing_messages_settings
      FOR EACH STATEMENT EXECUTE FUNCTION marketing_messages_settings_bump_generation()`.execute(db);
    return;
  }
  // SQLite has no statement triggers and one event per trigger.
  for (const [i, event] of ['INSERT', 'UPDATE', 'DELETE'].entries()) {
    const name = sql.raw(`marketing_messages_settings_bump_generation_${i}`);
    const table = sql.table('marketing_messages_settings');
    await sql`CREATE TRIGGER ${name} AFTER ${sql.raw(event)} ON ${table} BEGIN ${bump}; END`.execute(db);
  }
}
