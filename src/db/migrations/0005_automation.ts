import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The automation engines: a durable job table (every timer and step of sequences, flows and
 * campaigns), the state a run needs to resume, and campaign bookkeeping on messages.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  const addColumn = (table: string, definition: string) =>
    sql.raw(`ALTER TABLE ${table} ADD COLUMN ${definition}`).execute(db);

  // Sending hours are wall-clock hours in the workspace's IANA time zone.
  await addColumn('workspaces', `time_zone text NOT NULL DEFAULT 'UTC'`);
  // A flow's handoff marks the conversation for a person in the inbox.
  await addColumn('contacts', `handoff_at ${t.timestamp}`);

  // The step an enrolment runs next; `ended_reason` says why it stopped (replied, tagged, opted_out…).
  await addColumn('sequence_enrolments', 'step_index integer NOT NULL DEFAULT 0');
  await addColumn('sequence_enrolments', 'ended_reason text');
  // Enrolments recorded before the engine existed may repeat a contact: all but the newest end.
  await sql`UPDATE sequence_enrolments SET status = 'exited', ended_reason = 'superseded'
    WHERE status IN ('active', 'waiting') AND EXISTS (
      SELECT 1 FROM sequence_enrolments AS newer
      WHERE newer.sequence_id = sequence_enrolments.sequence_id AND newer.contact_id = sequence_enrolments.contact_id
        AND newer.status IN ('active', 'waiting')
        AND (newer.created_at, newer.id) > (sequence_enrolments.created_at, sequence_enrolments.id))`.execute(db);
  await sql`CREATE UNIQUE INDEX sequence_enrolments_active ON sequence_enrolments (sequence_id, contact_id)
    WHERE status IN ('active', 'waiting')`.execute(db);
  await sql`CREATE INDEX sequence_enrolments_contact ON sequence_enrolments (contact_id)
    WHERE status IN ('active', 'waiting')`.execute(db);

  // Lower-cased start keywords (JSON array), so an inbound message finds its flow without parsing definitions.
  await addColumn('flows', 'keywords text');

  // The node a run waits at, and how many times a question was asked again.
  await addColumn('flow_runs', 'node_id text');
  await addColumn('flow_runs', 'retries integer NOT NULL DEFAULT 0');
  await addColumn('flow_runs', 'ended_reason text');
  // One waiting run per contact: a reply has exactly one place to go.
  await sql`CREATE UNIQUE INDEX flow_runs_waiting ON flow_runs (workspace_id, contact_id)
    WHERE status = 'waiting'`.execute(db);

  await addColumn('campaigns', 'language text');
  await addColumn('campaigns', `variables ${t.json}`);
  await addColumn('campaigns', 'recipients integer NOT NULL DEFAULT 0');
  await addColumn('campaigns', 'skipped integer NOT NULL DEFAULT 0');
  await addColumn('messages', `campaign_id ${t.id}`);
  await sql`CREATE INDEX messages_campaign ON messages (campaign_id, status) WHERE campaign_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable('jobs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', t.id, (c) => c.notNull())
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('due_at', t.timestamp, (c) => c.notNull())
    // A claimed job is leased until then; a crash leaves it due again afterwards.
    .addColumn('leased_until', t.timestamp)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX jobs_due ON jobs (due_at)`.execute(db);
  await sql`CREATE INDEX jobs_subject ON jobs (subject_id)`.execute(db);
}
