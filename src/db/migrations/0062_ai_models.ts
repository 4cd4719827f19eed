import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The AI model a workspace brings (off until turned on): an OpenAI-compatible endpoint, its model and
 * API key (sealed with the deployment's secret box, as channel tokens are), an optional embeddings
 * model, a timeout, a monthly token budget and prices; and the usage ledger, one row per workspace,
 * month (UTC, `YYYY-MM`) and purpose, added to after each call.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  const decimal = dialect === 'postgres' ? 'double precision' : 'real';
  await db.schema
    .createTable('ai_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('base_url', 'text')
    .addColumn('model', 'text')
    .addColumn('api_key', 'text')
    .addColumn('embeddings_model', 'text')
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('monthly_token_budget', 'bigint')
    .addColumn('input_price_per_million', decimal)
    .addColumn('output_price_per_million', decimal)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ai_usage')
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
    .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_usage_pkey', ['workspace_id', 'month', 'purpose'])
    .execute();
}
