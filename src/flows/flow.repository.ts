import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FlowRunTable } from '../db/schema.js';
import type { FlowDefinition } from './flow.definition.js';

export type RunRow = Selectable<FlowRunTable>;

/** SQL for flows and their runs. */
export function flowRepository(db: Kysely<Database>) {
  return {
    async find(workspaceId: string, id: string) {
      const row = await db
        .selectFrom('flows')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { ...row, definition: JSON.parse(row.definition) as FlowDefinition };
    },

    findByName: (workspaceId: string, name: string) =>
      db
        .selectFrom('flows')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', name)
        .executeTakeFirst(),

    /** Flows with start keywords, for matching inbound texts. */
    keywordFlows: async (workspaceId: string) =>
      (
        await db
          .selectFrom('flows')
          .select(['id', 'keywords'])
          .where('workspace_id', '=', workspaceId)
          .where('keywords', 'is not', null)
          .execute()
      ).map((row) => ({ id: row.id, keywords: JSON.parse(row.keywords!) as string[] })),

    run: (id: string) => db.selectFrom('flow_runs').selectAll().where('id', '=', id).executeTakeFirst(),

    /** The runs waiting for a reply from these contacts (at most one each), with their flows' definitions. */
    async waiting(workspaceId: string, contactIds: string[]) {
      if (contactIds.length === 0) return [];
      const rows = await db
        .selectFrom('flow_runs as r')
        .innerJoin('flows as f', 'f.id', 'r.flow_id')
        .selectAll('r')
        .select('f.definition as flow_definition')
        .where('r.workspace_id', '=', workspaceId)
        .where('r.contact_id', 'in', contactIds)
        .where(sql<boolean>`r.status = 'waiting'`) // a literal, so the partial index flow_runs_waiting applies
        .execute();
      return rows.map(({ flow_definition, ...run }) => ({
        run,
        definition: JSON.parse(flow_definition) as FlowDefinition,
      }));
    },
  };
}
