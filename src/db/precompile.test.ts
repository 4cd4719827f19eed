import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { precompile } from './precompile.js';
import type { Database } from './schema.js';

/** A Kysely of the dialect that runs nothing and records the SQL it was given. */
function recording(dialect: 'sqlite' | 'postgres'): { db: Kysely<Database>; sql: string[] } {
  const sql: string[] = [];
  const pg = dialect === 'postgres';
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (pg ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => void sql.push(event.query.sql),
  });
  return { db, sql };
}

test('a precompiled query runs in each engine’s own SQL when one process holds both (the benches do)', async () => {
  const byPhone = precompile((db, workspaceId: string, phone: string) =>
    db.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).where('phone', '=', phone).limit(1),
  );
  const sqlite = recording('sqlite');
  const postgres = recording('postgres');
  await byPhone(sqlite.db, 'w', '+14155550100');
  await byPhone(postgres.db, 'w', '+14155550100');
  await byPhone(sqlite.db, 'w', '+14155550101');
  assert.match(sqlite.sql[0]!, /"workspace_id" = \? and "phone" = \? limit \?/);
  assert.match(postgres.sql[0]!, /"workspace_id" = \$1 and "phone" = \$2 limit \$3/);
  assert.equal(sqlite.sql[1], sqlite.sql[0]);
});
