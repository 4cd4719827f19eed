import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Routing (src/routing/): teams of people, who is available, and how conversations find a person.
 * - `teams` and `team_members`: a workspace's teams (names unique regardless of case) and who is in them.
 * - `routing_agents`: a person's availability and their place in the round-robin (`last_turn`: the
 *   workspace's turn counter when they last got a conversation). No row: available, never assigned.
 * - `routing_settings`: per workspace, whether conversations are assigned automatically, the most open
 *   conversations one person carries, and the turn counter; its row is the lock automatic assignment holds.
 * - `routing_rules`: ordered rules (number, keyword or tag) whose first match picks a conversation's team.
 * - `conversations.team_id`: the team a conversation belongs to (its queue when nobody is assigned).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('teams')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('teams_name', ['workspace_id', 'name_key'])
    .execute();
  await db.schema
    .createTable('team_members')
    .addColumn('team_id', t.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();
  await db.schema
    .createTable('routing_agents')
    .addColumn('user_id', t.id, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull())
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_turn', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('routing_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('auto_assign', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agent_limit', 'integer')
    .addColumn('turn', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('routing_rules')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('team_id', t.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('routing_rules_order')
    .on('routing_rules')
    .columns(['workspace_id', 'position'])
    .execute();
  await db.schema
    .alterTable('conversations')
    .addColumn('team_id', t.id, (c) => c.references('teams.id').onDelete('set null'))
    .execute();
  // Counting a person's open conversations (the per-agent limit) and finding a team's queue.
  await db.schema
    .createIndex('conversations_assignee')
    .on('conversations')
    .columns(['assignee_id', 'done_at'])
    .execute();
  await db.schema.createIndex('conversations_team').on('conversations').columns(['workspace_id', 'team_id']).execute();
}
