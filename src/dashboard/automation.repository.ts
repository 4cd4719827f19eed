import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { formatTimestamp } from '../shared/time.js';

/** A sequence or flow as the dashboard lists it: its name and how many enrolments or runs are in each state. */
export interface AutomationSummary {
  id: string;
  name: string;
  counts: Record<string, number>;
  updated_at: string;
}

type Db = Kysely<Database>;

/** Lists for the dashboard's Sequences and Flows pages; the public API fetches these one at a time. */
export function automationRepository(db: Db) {
  return {
    /** The workspace's sequences, by name, with enrolment counts by state (two statements). */
    async sequences(workspaceId: string): Promise<AutomationSummary[]> {
      const rows = await db
        .selectFrom('sequences')
        .select(['id', 'name', 'updated_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('name')
        .execute();
      const counts = await db
        .selectFrom('sequence_enrolments')
        .select(['sequence_id as owner', 'status', (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('workspace_id', '=', workspaceId)
        .groupBy(['sequence_id', 'status'])
        .execute();
      return summaries(rows, counts);
    },

    /** The workspace's flows, by name, with run counts by state (two statements). */
    async flows(workspaceId: string): Promise<AutomationSummary[]> {
      const rows = await db
        .selectFrom('flows')
        .select(['id', 'name', 'updated_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('name')
        .execute();
      const counts = await db
        .selectFrom('flow_runs')
        .select(['flow_id as owner', 'status', (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('workspace_id', '=', workspaceId)
        .groupBy(['flow_id', 'status'])
        .execute();
      return summaries(rows, counts);
    },
  };
}

function summaries(
  rows: { id: string; name: string; updated_at: string }[],
  counts: { owner: string; status: string; count: number | string }[],
): AutomationSummary[] {
  const byOwner = new Map<string, Record<string, number>>();
  for (const { owner, status, count } of counts) {
    const ofOwner = byOwner.get(owner) ?? {};
    ofOwner[status] = Number(count); // PostgreSQL returns counts as strings
    byOwner.set(owner, ofOwner);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    counts: byOwner.get(row.id) ?? {},
    updated_at: formatTimestamp(row.updated_at),
  }));
}
