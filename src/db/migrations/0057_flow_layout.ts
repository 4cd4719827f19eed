import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Where the builder's cards are (`flows.layout`: node id → {x, y}), kept beside the definition so the
 * public definition JSON stays as it was and moving a card never makes a version (decision 0157).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('flows').addColumn('layout', columnTypes(dialect).json).execute();
}
