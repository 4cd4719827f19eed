import { sql, type Kysely, type SqlBool } from 'kysely';
import { precompile } from '../db/precompile.js';
import type { Database } from '../db/schema.js';
import { presentAnswer, presentCampaign, presentRun } from './trigger.presenter.js';
import {
  TRIGGER_LIMIT,
  type CampaignRecord,
  type FlowRecord,
  type SequenceRecord,
  type WhatsappFlowAnswerRecord,
} from './trigger.schema.js';

// Feeds are polled all day long, so each query (with and without its filter) is compiled once.
const inboundMessages = (db: Kysely<Database>, workspaceId: string, limit = TRIGGER_LIMIT) =>
  db
    .selectFrom('messages as m')
    .select('m.feed_record')
    .where('m.workspace_id', '=', workspaceId)
    .where('m.direction', '=', 'inbound')
    // Only customers' own messages have a record: not a group's, nor the app's imported history.
    .where('m.feed_record', 'is not', null)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit);
const selectInbound = precompile((db, workspaceId: string) => inboundMessages(db, workspaceId));
const selectInboundOfType = precompile((db, workspaceId: string, type: string) =>
  inboundMessages(db, workspaceId).where('m.type', '=', type),
);

const sentCampaignRows = (db: Kysely<Database>) =>
  db
    .selectFrom('campaigns as k')
    .leftJoin('templates as t', 't.id', 'k.template_id')
    .select(['k.id', 'k.name', 'k.status', 'k.template_id', 't.name as template_name', 'k.created_at', 'k.sent_at'])
    .where('k.sent_at', 'is not', null);
const sentCampaigns = (db: Kysely<Database>, workspaceId: string, limit = TRIGGER_LIMIT) =>
  sentCampaignRows(db)
    .where('k.workspace_id', '=', workspaceId)
    .orderBy('k.sent_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(limit);
const selectSentCampaigns = precompile((db, workspaceId: string) => sentCampaigns(db, workspaceId));

const flowRunRows = (db: Kysely<Database>, workspaceId: string) =>
  db
    .selectFrom('flow_runs as r')
    .innerJoin('flows as f', 'f.id', 'r.flow_id')
    .innerJoin('contacts as c', 'c.id', 'r.contact_id')
    .select(['r.id', 'r.flow_id', 'f.name as flow_name', 'r.status', 'r.context', 'r.created_at', 'r.contact_id'])
    .select(['c.phone as contact_phone', 'c.name as contact_name', 'c.email as contact_email'])
    .where('r.workspace_id', '=', workspaceId);
// The builder's try-runs (version 0) are no customer's: the feed leaves them out.
const flowRuns = (db: Kysely<Database>, workspaceId: string, limit = TRIGGER_LIMIT) =>
  flowRunRows(db, workspaceId)
    .where('r.version', '<>', 0)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit);
const selectFlowRuns = precompile((db, workspaceId: string) => flowRuns(db, workspaceId));
const selectFlowRunsOf = precompile((db, workspaceId: string, flowId: string) =>
  flowRuns(db, workspaceId).where('r.flow_id', '=', flowId),
);

const enrolmentRows = (db: Kysely<Database>, workspaceId: string) =>
  db
    .selectFrom('sequence_enrolments as e')
    .innerJoin('sequences as s', 's.id', 'e.sequence_id')
    .innerJoin('contacts as c', 'c.id', 'e.contact_id')
    .select([
      'e.id',
      'e.sequence_id',
      's.name as sequence_name',
      'e.status',
      'e.context',
      'e.created_at',
      'e.contact_id',
    ])
    .select(['c.phone as contact_phone', 'c.name as contact_name', 'c.email as contact_email'])
    .where('e.workspace_id', '=', workspaceId);
const sequenceEnrolments = (db: Kysely<Database>, workspaceId: string, limit = TRIGGER_LIMIT) =>
  enrolmentRows(db, workspaceId).orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(limit);
const selectEnrolments = precompile((db, workspaceId: string) => sequenceEnrolments(db, workspaceId));
const selectEnrolmentsOf = precompile((db, workspaceId: string, sequenceId: string) =>
  sequenceEnrolments(db, workspaceId).where('e.sequence_id', '=', sequenceId),
);

/** WhatsApp Flows' answers with the Flow, the send and the contact: the feed, a Flow's table, a contact's forms, the thread. */
const answerRows = (db: Kysely<Database>, workspaceId: string) =>
  db
    .selectFrom('whatsapp_flow_answers as a')
    .innerJoin('contacts as c', 'c.id', 'a.contact_id')
    .leftJoin('whatsapp_flows as w', 'w.id', 'a.whatsapp_flow_id')
    .leftJoin('whatsapp_flow_sends as s', (join) =>
      join.onRef('s.flow_token', '=', 'a.flow_token').onRef('s.workspace_id', '=', 'a.workspace_id'),
    )
    .select(['a.id', 'a.whatsapp_flow_id', 'w.name as whatsapp_flow_name', 'a.meta_flow_id', 'a.flow_token'])
    .select(['s.message_id as sent_message_id', 'a.message_id', 'a.contact_id', 'a.fields', 'a.received_at'])
    .select(['c.phone as contact_phone', 'c.name as contact_name', 'c.email as contact_email'])
    .where('a.workspace_id', '=', workspaceId);

/** Which answers: of one Flow, of one contact, or every one of the workspace. */
export interface AnswerFilter {
  whatsappFlowId?: string | undefined;
  contactId?: string | undefined;
}

/** Where a page of a feed starts: after (older than) the record with this time and id. */
export interface FeedPosition {
  at: string;
  id: string;
}

/** Records older than `after` in a feed's (time, id) descending order: a range of the feed's index. */
const olderThan = (time: string, id: string, after: FeedPosition | null) =>
  after ? sql<SqlBool>`(${sql.ref(time)}, ${sql.ref(id)}) < (${after.at}, ${after.id})` : sql<SqlBool>`true`;

/**
 * The four trigger feeds. Each is newest first with the id as tie-breaker; ids are monotonic
 * UUIDv7, so within one instant the order is still the insertion order.
 */
export function triggerRepository(db: Kysely<Database>) {
  return {
    inboundMessages: (workspaceId: string, messageType: string | undefined) =>
      messageType ? selectInboundOfType(db, workspaceId, messageType) : selectInbound(db, workspaceId),

    sentCampaigns: (workspaceId: string) => selectSentCampaigns(db, workspaceId),

    flowRuns: (workspaceId: string, flowId: string | undefined) =>
      flowId ? selectFlowRunsOf(db, workspaceId, flowId) : selectFlowRuns(db, workspaceId),

    sequenceEnrolments: (workspaceId: string, sequenceId: string | undefined) =>
      sequenceId ? selectEnrolmentsOf(db, workspaceId, sequenceId) : selectEnrolments(db, workspaceId),

    /** Sent campaigns by id (of any workspace), as new-campaign-sent shows them: their webhook events. */
    async sentCampaignsById(ids: string[]): Promise<CampaignRecord[]> {
      return (await sentCampaignRows(db).where('k.id', 'in', ids).execute()).map(presentCampaign);
    },

    /** One run as new-flow-triggered shows it: what trigger-flow answers and its webhook event carries. */
    async flowRun(workspaceId: string, id: string): Promise<FlowRecord | undefined> {
      const row = await flowRunRows(db, workspaceId).where('r.id', '=', id).executeTakeFirst();
      return row && presentRun(row);
    },

    /** One enrolment as new-sequence-triggered shows it (trigger-sequence's answer, its webhook event). */
    async sequenceEnrolment(workspaceId: string, id: string): Promise<SequenceRecord | undefined> {
      const row = await enrolmentRows(db, workspaceId).where('e.id', '=', id).executeTakeFirst();
      return row && presentRun(row);
    },

    /** Answers newest first, `limit` after a position (null: from the newest); presentAnswer shows each. */
    flowAnswers(workspaceId: string, filter: AnswerFilter, after: FeedPosition | null, limit = TRIGGER_LIMIT) {
      const { whatsappFlowId, contactId } = filter;
      return answerRows(db, workspaceId)
        .$if(whatsappFlowId !== undefined, (q) => q.where('a.whatsapp_flow_id', '=', whatsappFlowId!))
        .$if(contactId !== undefined, (q) => q.where('a.contact_id', '=', contactId!))
        .where(olderThan('a.received_at', 'a.id', after))
        .orderBy('a.received_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Answers by id, as their feed shows them: their webhook events. */
    async flowAnswersById(workspaceId: string, ids: string[]): Promise<WhatsappFlowAnswerRecord[]> {
      return (await answerRows(db, workspaceId).where('a.id', 'in', ids).execute()).map(presentAnswer);
    },

    /** The answers the messages carried, by message id: the thread shows them as filled forms. */
    async flowAnswersOfMessages(
      workspaceId: string,
      messageIds: string[],
    ): Promise<Map<string, WhatsappFlowAnswerRecord>> {
      if (messageIds.length === 0) return new Map();
      const rows = await answerRows(db, workspaceId).where('a.message_id', 'in', messageIds).execute();
      return new Map(rows.map((row) => [row.message_id, presentAnswer(row)]));
    },

    /** Pages of the same feeds for cursor pagination: `limit` records after a position. */
    pages: {
      inboundMessages(workspaceId: string, messageType: string | undefined, after: FeedPosition | null, limit: number) {
        let query = inboundMessages(db, workspaceId, limit)
          .select(['m.created_at', 'm.id'])
          .where(olderThan('m.created_at', 'm.id', after));
        if (messageType) query = query.where('m.type', '=', messageType);
        return query.execute();
      },

      sentCampaigns: (workspaceId: string, after: FeedPosition | null, limit: number) =>
        sentCampaigns(db, workspaceId, limit)
          .where(olderThan('k.sent_at', 'k.id', after))
          .execute(),

      flowRuns(workspaceId: string, flowId: string | undefined, after: FeedPosition | null, limit: number) {
        const query = flowRuns(db, workspaceId, limit).where(olderThan('r.created_at', 'r.id', after));
        return (flowId ? query.where('r.flow_id', '=', flowId) : query).execute();
      },

      sequenceEnrolments(
        workspaceId: string,
        sequenceId: string | undefined,
        after: FeedPosition | null,
        limit: number,
      ) {
        const query = sequenceEnrolments(db, workspaceId, limit).where(olderThan('e.created_at', 'e.id', after));
        return (sequenceId ? query.where('e.sequence_id', '=', sequenceId) : query).execute();
      },
    },
  };
}
