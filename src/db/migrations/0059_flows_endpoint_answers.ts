import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp Flows' data endpoint answers from Parley's own data (decision 0156): per number, who answers a
 * screen (`answered_by`: the business's endpoint or Parley) and Parley's screen table (`screen_answers`,
 * JSON text); the fields a customer entered so far in one opened Flow (`flows_endpoint_fields`, by
 * number and `flow_token`); and the latest error notifications Meta's client sent (`flows_endpoint_errors`).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('flows_endpoints')
    .addColumn('answered_by', 'text', (c) => c.notNull().defaultTo('business_endpoint'))
    .execute();
  await db.schema.alterTable('flows_endpoints').addColumn('screen_answers', 'text').execute();
  await db.schema
    .createTable('flows_endpoint_fields')
    .addColumn('channel_id', t.id, (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('flow_token', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('flows_endpoint_fields_pkey', ['channel_id', 'flow_token'])
    .execute();
  await db.schema
    .createTable('flows_endpoint_errors')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('channel_id', t.id, (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('flow_token', 'text')
    .addColumn('screen', 'text')
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('flows_endpoint_errors_channel')
    .on('flows_endpoint_errors')
    .columns(['channel_id', 'received_at'])
    .execute();
}
