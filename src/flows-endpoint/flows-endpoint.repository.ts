import type { Kysely, Selectable } from 'kysely';
import type { Database, FlowsEndpointTable } from '../db/schema.js';

export type FlowsEndpointRow = Selectable<FlowsEndpointTable>;

/** The columns one change writes (a new key, Meta's word on it, the business endpoint). */
type Change = Partial<Omit<FlowsEndpointRow, 'channel_id' | 'workspace_id' | 'updated_at'>> & { updated_at: string };

/** SQL for flows_endpoints: the only place they are read and written. */
export function flowsEndpointRepository(db: Kysely<Database>) {
  return {
    /** A number's endpoint, in its workspace. */
    find: (workspaceId: string, channelId: string) =>
      db
        .selectFrom('flows_endpoints')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('channel_id', '=', channelId)
        .executeTakeFirst(),

    /** What Meta's requests to a number's endpoint need: its sealed private key and business endpoint. */
    secretsOf: (channelId: string) =>
      db
        .selectFrom('flows_endpoints')
        .select(['private_key', 'business_url', 'business_secret'])
        .where('channel_id', '=', channelId)
        .executeTakeFirst(),

    async save(workspaceId: string, channelId: string, change: Change): Promise<void> {
      await db
        .insertInto('flows_endpoints')
        .values({ channel_id: channelId, workspace_id: workspaceId, ...change })
        .onConflict((oc) => oc.column('channel_id').doUpdateSet(change))
        .execute();
    },
  };
}
