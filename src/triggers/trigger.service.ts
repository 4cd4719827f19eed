import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { cutPage, type CursorCodec, type CursorScope, type Page, type PageRequest } from '../shared/cursor.js';
import { presentAnswer, presentCampaign, presentRun } from './trigger.presenter.js';
import { triggerRepository, type FeedPosition } from './trigger.repository.js';
import type { CampaignRecord, FlowRecord, SequenceRecord, WhatsappFlowAnswerRecord } from './trigger.schema.js';

// Ids are stored lower-case; an upper-case filter must match on SQLite as it does on PostgreSQL.
const idFilter = (id: string | undefined) => id?.toLowerCase() || undefined;

/** The polling feeds of spec §4 (and WhatsApp Flows' answers); each returns at most 100 records, newest first. */
export function createTriggerService({ reads }: Deps, cursors: CursorCodec) {
  // Feeds are polled all day: they read beside other requests (connection.ts).
  const feeds = triggerRepository(reads);

  /**
   * One page of a feed, newest first: rows come `limit + 1` after the cursor's position, and the
   * next cursor carries the last shown record's (time, id).
   */
  async function page<Row extends { id: string }>(
    scope: CursorScope,
    request: PageRequest,
    rows: (after: FeedPosition | null, limit: number) => Promise<Row[]>,
    timeOf: (row: Row) => string,
  ): Promise<{ rows: Row[]; next_cursor: string | null }> {
    const key = request.cursor === undefined ? null : cursors.decode(scope, request.cursor);
    const after = key ? { at: key[0]!, id: key[1]! } : null;
    const fetched = await rows(after, request.limit + 1);
    return cutPage(fetched, request.limit, (row) => cursors.encode(scope, [timeOf(row), row.id]));
  }

  const scopeOf = (caller: Caller, endpoint: string, filters: CursorScope['filters'] = {}): CursorScope => ({
    workspaceId: caller.workspaceId,
    endpoint,
    filters,
  });

  return {
    /** The feed as JSON text: the records were stored with their messages (see message.record.ts). */
    async messagesReceived(caller: Caller, messageType: string | undefined): Promise<string> {
      const rows = await feeds.inboundMessages(caller.workspaceId, messageType || undefined);
      return `[${rows.map((row) => row.feed_record).join(',')}]`;
    },

    /** A page of the feed, as JSON text like the feed itself. */
    async messagesReceivedPage(caller: Caller, messageType: string | undefined, request: PageRequest): Promise<string> {
      const type = messageType || undefined;
      const scope = scopeOf(caller, 'new-message-received', { message_type: type });
      const { rows, next_cursor } = await page(
        scope,
        request,
        (after, limit) => feeds.pages.inboundMessages(caller.workspaceId, type, after, limit),
        (row) => row.created_at,
      );
      return `{"data":[${rows.map((row) => row.feed_record).join(',')}],"next_cursor":${JSON.stringify(next_cursor)}}`;
    },

    async campaignsSent(caller: Caller): Promise<CampaignRecord[]> {
      return (await feeds.sentCampaigns(caller.workspaceId)).map(presentCampaign);
    },

    async campaignsSentPage(caller: Caller, request: PageRequest): Promise<Page<CampaignRecord>> {
      const { rows, next_cursor } = await page(
        scopeOf(caller, 'new-campaign-sent'),
        request,
        (after, limit) => feeds.pages.sentCampaigns(caller.workspaceId, after, limit),
        (row) => row.sent_at!,
      );
      return { data: rows.map(presentCampaign), next_cursor };
    },

    async flowsTriggered(caller: Caller, flowId: string | undefined): Promise<FlowRecord[]> {
      return (await feeds.flowRuns(caller.workspaceId, idFilter(flowId))).map(presentRun);
    },

    async flowsTriggeredPage(
      caller: Caller,
      flowId: string | undefined,
      request: PageRequest,
    ): Promise<Page<FlowRecord>> {
      const id = idFilter(flowId);
      const { rows, next_cursor } = await page(
        scopeOf(caller, 'new-flow-triggered', { flow_id: id }),
        request,
        (after, limit) => feeds.pages.flowRuns(caller.workspaceId, id, after, limit),
        (row) => row.created_at,
      );
      return { data: rows.map(presentRun), next_cursor };
    },

    async sequencesTriggered(caller: Caller, sequenceId: string | undefined): Promise<SequenceRecord[]> {
      return (await feeds.sequenceEnrolments(caller.workspaceId, idFilter(sequenceId))).map(presentRun);
    },

    async sequencesTriggeredPage(
      caller: Caller,
      sequenceId: string | undefined,
      request: PageRequest,
    ): Promise<Page<SequenceRecord>> {
      const id = idFilter(sequenceId);
      const { rows, next_cursor } = await page(
        scopeOf(caller, 'new-sequence-triggered', { sequence_id: id }),
        request,
        (after, limit) => feeds.pages.sequenceEnrolments(caller.workspaceId, id, after, limit),
        (row) => row.created_at,
      );
      return { data: rows.map(presentRun), next_cursor };
    },

    async whatsappFlowAnswers(caller: Caller, whatsappFlowId: string | undefined): Promise<WhatsappFlowAnswerRecord[]> {
      const filter = { whatsappFlowId: idFilter(whatsappFlowId) };
      return (await feeds.flowAnswers(caller.workspaceId, filter, null)).map(presentAnswer);
    },

    async whatsappFlowAnswersPage(
      caller: Caller,
      whatsappFlowId: string | undefined,
      request: PageRequest,
    ): Promise<Page<WhatsappFlowAnswerRecord>> {
      const id = idFilter(whatsappFlowId);
      const { rows, next_cursor } = await page(
        scopeOf(caller, 'new-whatsapp-flow-answer', { whatsapp_flow_id: id }),
        request,
        (after, limit) => feeds.flowAnswers(caller.workspaceId, { whatsappFlowId: id }, after, limit),
        (row) => row.received_at,
      );
      return { data: rows.map(presentAnswer), next_cursor };
    },
  };
}

export type TriggerService = ReturnType<typeof createTriggerService>;
