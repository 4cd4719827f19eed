import type { Caller, Deps } from '../shared/context.js';
import { formatTimestamp } from '../shared/time.js';
import { triggerRepository } from './trigger.repository.js';
import type { CampaignRecord, FlowRecord, SequenceRecord } from './trigger.schema.js';

type Json = Record<string, unknown>;

/** The polling feeds of spec §4; each returns at most 100 records, newest first. */
export function createTriggerService({ db }: Deps) {
  const feeds = triggerRepository(db);
  return {
    /** The feed as JSON text: the records were stored with their messages (see message.record.ts). */
    async messagesReceived(caller: Caller, messageType: string | undefined): Promise<string> {
      const rows = await feeds.inboundMessages(caller.workspaceId, messageType || undefined);
      return `[${rows.map((row) => row.feed_record).join(',')}]`;
    },

    async campaignsSent(caller: Caller): Promise<CampaignRecord[]> {
      const rows = await feeds.sentCampaigns(caller.workspaceId);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status,
        template_id: row.template_id,
        template_name: row.template_name,
        campaign_created_at: formatTimestamp(row.created_at),
        created_at: formatTimestamp(row.sent_at!),
      }));
    },

    async flowsTriggered(caller: Caller, flowId: string | undefined): Promise<FlowRecord[]> {
      // Ids are stored lower-case; an upper-case filter must match on SQLite as it does on PostgreSQL.
      const rows = await feeds.flowRuns(caller.workspaceId, flowId?.toLowerCase() || undefined);
      return rows.map(({ context, created_at, ...row }) => ({
        ...row,
        context: JSON.parse(context) as Json,
        created_at: formatTimestamp(created_at),
      }));
    },

    async sequencesTriggered(caller: Caller, sequenceId: string | undefined): Promise<SequenceRecord[]> {
      const rows = await feeds.sequenceEnrolments(caller.workspaceId, sequenceId?.toLowerCase() || undefined);
      return rows.map(({ context, created_at, ...row }) => ({
        ...row,
        context: JSON.parse(context) as Json,
        created_at: formatTimestamp(created_at),
      }));
    },
  };
}

export type TriggerService = ReturnType<typeof createTriggerService>;
