import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, FlowsEndpointErrorTable, FlowsEndpointTable } from '../db/schema.js';
import { ERRORS_KEPT } from './flows-endpoint.schema.js';

export type FlowsEndpointRow = Selectable<FlowsEndpointTable>;
export type FlowsEndpointErrorRow = Selectable<FlowsEndpointErrorTable>;

/** The columns one change writes (a new key, Meta's word on it, the business endpoint, who answers). */
type Change = Partial<Omit<FlowsEndpointRow, 'channel_id' | 'workspace_id' | 'updated_at'>> & { updated_at: string };

/** SQL for flows_endpoints and what they keep per opened Flow: the only place they are read and written. */
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

    /** What Meta's requests to a number's endpoint need: its sealed private key and who answers the screens. */
    secretsOf: (channelId: string) =>
      db
        .selectFrom('flows_endpoints')
        .select(['workspace_id', 'private_key', 'business_url', 'business_secret', 'answered_by', 'screen_answers'])
        .where('channel_id', '=', channelId)
        .executeTakeFirst(),

    async save(workspaceId: string, channelId: string, change: Change): Promise<void> {
      await db
        .insertInto('flows_endpoints')
        .values({ channel_id: channelId, workspace_id: workspaceId, ...change })
        .onConflict((oc) => oc.column('channel_id').doUpdateSet(change))
        .execute();
    },

    /** What the customer entered so far in the Flow a token names (JSON text), if anything. */
    fieldsOf: async (channelId: string, flowToken: string): Promise<string | undefined> =>
      (
        await db
          .selectFrom('flows_endpoint_fields')
          .select('fields')
          .where('channel_id', '=', channelId)
          .where('flow_token', '=', flowToken)
          .executeTakeFirst()
      )?.fields,

    async keepFields(channelId: string, flowToken: string, fields: string, at: string): Promise<void> {
      await db
        .insertInto('flows_endpoint_fields')
        .values({ channel_id: channelId, flow_token: flowToken, fields, updated_at: at })
        .onConflict((oc) => oc.columns(['channel_id', 'flow_token']).doUpdateSet({ fields, updated_at: at }))
        .execute();
    },

    async forgetFields(channelId: string, flowToken: string): Promise<void> {
      await db
        .deleteFrom('flows_endpoint_fields')
        .where('channel_id', '=', channelId)
        .where('flow_token', '=', flowToken)
        .execute();
    },

    /** Keeps an error notification, and only the latest ERRORS_KEPT of the number's. */
    async noteError(row: Insertable<FlowsEndpointErrorTable>): Promise<void> {
      await db.insertInto('flows_endpoint_errors').values(row).execute();
      const kept = db
        .selectFrom('flows_endpoint_errors')
        .select('id')
        .where('channel_id', '=', row.channel_id)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(ERRORS_KEPT);
      await db
        .deleteFrom('flows_endpoint_errors')
        .where('channel_id', '=', row.channel_id)
        .where('id', 'not in', kept)
        .execute();
    },

    /** The number's latest error notifications, newest first. */
    errorsOf: (channelId: string) =>
      db
        .selectFrom('flows_endpoint_errors')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(ERRORS_KEPT)
        .execute(),
  };
}
