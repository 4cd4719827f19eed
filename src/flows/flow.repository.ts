import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FlowRunTable, FlowTable } from '../db/schema.js';
import type { FlowDefinition } from './flow.definition.js';

export type RunRow = Selectable<FlowRunTable>;
export type FlowRow = Omit<Selectable<FlowTable>, 'definition'> & { definition: FlowDefinition };

/** The version a try-run walks (try-flow): never published, never counted with the published ones. */
export const TRY_VERSION = 0;

/** Which runs a count is of: a version's, or one run's (a try-run's path). */
export type RunScope = { flowId: string; version: number } | { flowId: string; runId: string };

/** An exit a run took: from a node, by one of its exits (`next`, `branches/1/next`…), to a node. */
export interface TakenEdge {
  from: string;
  exit: string;
  to: string;
}

/** What publishing writes: the live definition, its start keywords (lower-cased, as JSON), when. */
export interface Published {
  definition: FlowDefinition;
  keywords: string | null;
  at: string;
}

/** SQL for flows, their versions and drafts, and their runs. */
export function flowRepository(db: Kysely<Database>) {
  const keepVersion = (flowId: string, version: number, live: Published) =>
    db
      .insertInto('flow_versions')
      .values({ flow_id: flowId, version, definition: JSON.stringify(live.definition), created_at: live.at })
      .execute();

  return {
    async find(workspaceId: string, id: string): Promise<FlowRow | undefined> {
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

    /** A new flow, live at version 1. */
    async create(flow: { id: string; workspaceId: string; name: string }, live: Published): Promise<void> {
      await db
        .insertInto('flows')
        .values({
          id: flow.id,
          workspace_id: flow.workspaceId,
          name: flow.name,
          definition: JSON.stringify(live.definition),
          keywords: live.keywords,
          version: 1,
          created_at: live.at,
          updated_at: live.at,
        })
        .execute();
      await keepVersion(flow.id, 1, live);
    },

    /**
     * Makes `live` the flow's live definition and drops its draft; a changed definition is the next
     * version, kept too. The update counts the version up in place, so concurrent publishes (the row is
     * locked until commit) each get their own.
     */
    async publish(flowId: string, name: string, live: Published, changed: boolean): Promise<void> {
      const { version } = await db
        .updateTable('flows')
        .set((eb) => ({
          name,
          definition: JSON.stringify(live.definition),
          keywords: live.keywords,
          version: changed ? eb('version', '+', 1) : eb.ref('version'),
          draft: null,
          draft_updated_at: null,
          updated_at: live.at,
        }))
        .where('id', '=', flowId)
        .returning('version')
        .executeTakeFirstOrThrow();
      if (changed) await keepVersion(flowId, version, live);
    },

    /** Keeps where the builder draws the nodes. */
    async saveLayout(flowId: string, layout: object): Promise<void> {
      await db
        .updateTable('flows')
        .set({ layout: JSON.stringify(layout) })
        .where('id', '=', flowId)
        .execute();
    },

    /** Keeps `definition` (any JSON, valid or not) as the flow's draft, and the cards' places when given. */
    async saveDraft(flowId: string, name: string, definition: unknown, at: string, layout?: object): Promise<void> {
      await db
        .updateTable('flows')
        .set({
          name,
          draft: JSON.stringify(definition),
          draft_updated_at: at,
          updated_at: at,
          ...(layout && { layout: JSON.stringify(layout) }),
        })
        .where('id', '=', flowId)
        .execute();
    },

    /** Makes `definition` the one the flow's try-runs walk (one per flow: the latest try replaces it). */
    async keepTryVersion(flowId: string, definition: FlowDefinition, at: string): Promise<void> {
      const row = { flow_id: flowId, version: TRY_VERSION, definition: JSON.stringify(definition), created_at: at };
      await db
        .insertInto('flow_versions')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['flow_id', 'version']).doUpdateSet({ definition: row.definition, created_at: at }),
        )
        .execute();
    },

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

    /** The definition of one version of a flow (the one a run started on). */
    async versionDefinition(flowId: string, version: number): Promise<FlowDefinition | undefined> {
      const row = await db
        .selectFrom('flow_versions')
        .select('definition')
        .where('flow_id', '=', flowId)
        .where('version', '=', version)
        .executeTakeFirst();
      return row && (JSON.parse(row.definition) as FlowDefinition);
    },

    /** The runs waiting for a reply from these contacts (at most one each), with their versions' definitions. */
    async waiting(workspaceId: string, contactIds: string[]) {
      if (contactIds.length === 0) return [];
      const rows = await db
        .selectFrom('flow_runs as r')
        .innerJoin('flow_versions as v', (join) =>
          join.onRef('v.flow_id', '=', 'r.flow_id').onRef('v.version', '=', 'r.version'),
        )
        .selectAll('r')
        .select('v.definition as flow_definition')
        .where('r.workspace_id', '=', workspaceId)
        .where('r.contact_id', 'in', contactIds)
        .where(sql<boolean>`r.status = 'waiting'`) // a literal, so the partial index flow_runs_waiting applies
        .execute();
      return rows.map(({ flow_definition, ...run }) => ({
        run,
        definition: JSON.parse(flow_definition) as FlowDefinition,
      }));
    },

    /** Of these contacts, those a run is waiting on or walking for (a webhook call under way). */
    async holding(workspaceId: string, contactIds: string[]): Promise<Set<string>> {
      if (contactIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('flow_runs')
        .select('contact_id')
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', 'in', contactIds)
        .where('status', 'in', ['waiting', 'active'])
        .execute();
      return new Set(rows.map((row) => row.contact_id));
    },

    /** Notes the exits a run took; one taken before is kept once. */
    async recordEdges(run: RunRow, edges: TakenEdge[]): Promise<void> {
      if (edges.length === 0) return;
      const { id: run_id, flow_id, version } = run;
      await db
        .insertInto('flow_run_edges')
        .values(edges.map((e) => ({ run_id, flow_id, version, from_node: e.from, exit: e.exit, to_node: e.to })))
        .onConflict((conflict) => conflict.columns(['run_id', 'from_node', 'exit']).doNothing())
        .execute();
    },

    /** How many runs of a version (or the one run) took each edge. */
    edgeCounts: (of: RunScope) =>
      db
        .selectFrom('flow_run_edges')
        .select(['from_node', 'exit', 'to_node', (eb) => eb.fn.countAll<number | string>().as('runs')])
        .where('flow_id', '=', of.flowId)
        .where((eb) => ('runId' in of ? eb('run_id', '=', of.runId) : eb('version', '=', of.version)))
        .groupBy(['from_node', 'exit', 'to_node'])
        .orderBy('from_node')
        .orderBy('exit')
        .execute(),

    /** How many runs of a version (or the one run) are at, or ended at, each node, by state. */
    nodeCounts: (of: RunScope) =>
      db
        .selectFrom('flow_runs')
        .select(['node_id', 'status', (eb) => eb.fn.countAll<number | string>().as('runs')])
        .where('flow_id', '=', of.flowId)
        .where((eb) => ('runId' in of ? eb('id', '=', of.runId) : eb('version', '=', of.version)))
        .where('node_id', 'is not', null)
        .groupBy(['node_id', 'status'])
        .orderBy('node_id')
        .execute(),

    async runCount(of: RunScope): Promise<number> {
      const row = await db
        .selectFrom('flow_runs')
        .select((eb) => eb.fn.countAll<number | string>().as('runs'))
        .where('flow_id', '=', of.flowId)
        .where((eb) => ('runId' in of ? eb('id', '=', of.runId) : eb('version', '=', of.version)))
        .executeTakeFirstOrThrow();
      return Number(row.runs);
    },
  };
}
