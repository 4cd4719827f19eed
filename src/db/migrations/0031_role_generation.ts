import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/**
 * A token acts with its creator's current role, and each process caches a token's principal (role
 * included) under the deployment generation (0026). Changing a user's role or removing the user
 * bumps the generation, so every process drops the cached principal at its next request.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const bump = sql`UPDATE deployment_generation SET generation = generation + 1 WHERE id = 1`;
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION users_bump_generation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${bump}; RETURN NULL; END $$`.execute(db);
    await sql`CREATE TRIGGER users_bump_generation AFTER UPDATE OF role OR DELETE ON users
      FOR EACH STATEMENT EXECUTE FUNCTION users_bump_generation()`.execute(db);
    return;
  }
  // SQLite has no statement triggers and one event per trigger.
  await sql`CREATE TRIGGER users_bump_generation_0 AFTER UPDATE OF role ON users BEGIN ${bump}; END`.execute(db);
  await sql`CREATE TRIGGER users_bump_generation_1 AFTER DELETE ON users BEGIN ${bump}; END`.execute(db);
}
