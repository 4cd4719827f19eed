import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Flows get drafts and versions, and runs keep the edges they take. `flows.definition` stays the live
 * version's definition (`flows.version`); every published definition is kept in `flow_versions`, and a
 * run finishes on the version it started on (`flow_runs.version`). A draft (`flows.draft`) may be invalid.
 * `flow_run_edges` holds each exit a run took once (so a run keeps at most one row per edge of its
 * version, however often it loops). A finished run now keeps the node it ended at in `node_id`.
 * Existing flows become version 1, their runs runs of it.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('flows')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('flows').addColumn('draft', t.json).execute();
  await db.schema.alterTable('flows').addColumn('draft_updated_at', t.timestamp).execute();
  await db.schema
    .createTable('flow_versions')
    .addColumn('flow_id', t.id, (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_versions_pkey', ['flow_id', 'version'])
    .execute();
  await sql`INSERT INTO flow_versions (flow_id, version, definition, created_at)
    SELECT id, 1, definition, updated_at FROM flows`.execute(db);

  await db.schema
    .alterTable('flow_runs')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // get-flow's counts and get-flow-stats read a flow's runs, by version and node.
  await sql`CREATE INDEX flow_runs_flow ON flow_runs (flow_id, version, node_id)`.execute(db);
  await db.schema
    .createTable('flow_run_edges')
    .addColumn('run_id', t.id, (c) => c.notNull().references('flow_runs.id').onDelete('cascade'))
    .addColumn('from_node', 'text', (c) => c.notNull())
    .addColumn('exit', 'text', (c) => c.notNull())
    .addColumn('to_node', 'text', (c) => c.notNull())
    .addColumn('flow_id', t.id, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_run_edges_pkey', ['run_id', 'from_node', 'exit'])
    .execute();
  await sql`CREATE INDEX flow_run_edges_flow ON flow_run_edges (flow_id, version)`.execute(db);
}
