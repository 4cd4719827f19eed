import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SequenceEnrolmentTable } from '../db/schema.js';
import type { SequenceDefinition } from './sequence.schema.js';

export type EnrolmentRow = Selectable<SequenceEnrolmentTable>;
/**
 * Running enrolments, written as literals: the partial indexes on running enrolments are only usable
 * when the engine can see that the query's condition is their own (a bound parameter hides it).
 */
const isRunning = sql<boolean>`e.status IN ('active', 'waiting')`;

/** SQL for sequences and their enrolments; every query is scoped to one workspace. */
export function sequenceRepository(db: Kysely<Database>) {
  return {
    async find(workspaceId: string, id: string) {
      const row = await db
        .selectFrom('sequences')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { ...row, definition: JSON.parse(row.definition) as SequenceDefinition };
    },

    /** Definitions by sequence id, for a chunk of scheduled steps. */
    async definitions(workspaceId: string, ids: string[]): Promise<Map<string, SequenceDefinition>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('sequences')
        .select(['id', 'definition'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((row) => [row.id, JSON.parse(row.definition) as SequenceDefinition]));
    },

    findByName: (workspaceId: string, name: string) =>
      db
        .selectFrom('sequences')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', name)
        .executeTakeFirst(),

    /**
     * Enrolments by id, looked up by primary key and scoped in code: with `workspace_id = ?` next to a
     * long id list SQLite chose the workspace's feed index and read every enrolment it ever had.
     */
    enrolments: async (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? []
        : (await db.selectFrom('sequence_enrolments').selectAll().where('id', 'in', ids).execute()).filter(
            (row) => row.workspace_id === workspaceId,
          ),

    /** Running enrolments of these contacts, with their sequence's definition. */
    running: async (workspaceId: string, contactIds: string[]) =>
      contactIds.length === 0
        ? []
        : (
            await db
              .selectFrom('sequence_enrolments as e')
              .innerJoin('sequences as s', 's.id', 'e.sequence_id')
              .selectAll('e')
              .select('s.definition')
              // Scoped through the sequence: with `e.workspace_id` SQLite chose the workspace's index and read
              // every enrolment it ever had; this way it looks up each (sequence, contact) in the running index.
              .where('s.workspace_id', '=', workspaceId)
              .where('e.contact_id', 'in', contactIds)
              .where(isRunning)
              .execute()
          ).map(({ definition, ...row }) => ({ row, definition: JSON.parse(definition) as SequenceDefinition })),
  };
}
