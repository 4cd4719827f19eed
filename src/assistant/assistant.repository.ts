import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AssistantTurnTable, Database } from '../db/schema.js';
import { formatTimestamp } from '../shared/time.js';
import {
  DEFAULT_SETTINGS,
  type AssistantHours,
  type AssistantSettings,
  type AssistantTurn,
  type Citation,
} from './assistant.schema.js';

type Db = Kysely<Database>;
export type TurnRow = Insertable<AssistantTurnTable>;

/** Who sends a message a person wrote: a member, an API token, the business in the WhatsApp Business app. */
const PEOPLE = ['user', 'api', 'business_app'] as const;

/** A message of the conversation as the model reads it. */
export interface ThreadMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  content: string;
  sender_type: string | null;
  /** The number it came in or went out on. */
  channel_id: string | null;
  created_at: string;
}

/**
 * SQL for the assistant's tables (settings, turns, flows' engagements) and its read model of the
 * conversation it answers: the conversation's state (inbox), its open span and messages (messages), the
 * workspace's numbers and teams (to check the settings name them).
 */
export function assistantRepository(db: Db) {
  return {
    /** The saved settings; the defaults (switched off) until saved. */
    async settings(workspaceId: string): Promise<AssistantSettings> {
      const row = await db
        .selectFrom('assistant_settings')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (!row) return DEFAULT_SETTINGS;
      return {
        enabled: row.enabled === 1,
        channel_ids: JSON.parse(row.channel_ids) as string[],
        team_ids: JSON.parse(row.team_ids) as string[],
        hours: row.hours as AssistantHours,
        name: row.name,
        instructions: row.instructions,
        reply_limit: row.reply_limit,
        confidence_floor: Number(row.confidence_floor),
        stop_words: JSON.parse(row.stop_words) as string[],
        handover_message: row.handover_message,
      };
    },

    async saveSettings(workspaceId: string, settings: AssistantSettings, at: string): Promise<void> {
      const fields = {
        ...settings,
        enabled: settings.enabled ? 1 : 0,
        channel_ids: JSON.stringify(settings.channel_ids),
        team_ids: JSON.stringify(settings.team_ids),
        stop_words: JSON.stringify(settings.stop_words),
        updated_at: at,
      };
      await db
        .insertInto('assistant_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },

    /** Of these ids, the workspace's numbers. */
    async knownChannels(workspaceId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('channels')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** Of these ids, the workspace's teams. */
    async knownTeams(workspaceId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('teams')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** Who handles the conversation and in which team (no row: nobody, no team). */
    async conversation(workspaceId: string, contactId: string) {
      const row = await db
        .selectFrom('conversations')
        .select(['assignee_id', 'team_id'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .executeTakeFirst();
      return row ?? { assignee_id: null, team_id: null };
    },

    /** The conversation's open span (report period): what "once per conversation" and the reply limit count in. */
    async openSpan(workspaceId: string, contactId: string) {
      const row = await db
        .selectFrom('conversation_spans')
        .select(['id', 'opened_at'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('closed_at', 'is', null)
        .executeTakeFirst();
      return row ?? null;
    },

    /** Whether a person (a member, the API, the WhatsApp Business app) wrote to the customer since `since`. */
    async personWrote(workspaceId: string, contactId: string, since: string): Promise<boolean> {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('direction', '=', 'outbound')
        .where('sender_type', 'in', PEOPLE)
        .where('created_at', '>=', since)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The conversation's latest messages, oldest first (what the model reads, and the latest the job answers). */
    async thread(workspaceId: string, contactId: string, limit: number): Promise<ThreadMessage[]> {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'direction', 'type', 'content', 'sender_type', 'channel_id', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse();
    },

    /** A flow handed the conversation to the assistant (it keeps it until the conversation is next closed). */
    async engage(workspaceId: string, contactId: string, flowId: string | null, at: string): Promise<void> {
      const fields = { workspace_id: workspaceId, flow_id: flowId, engaged_at: at };
      await db
        .insertInto('assistant_engagements')
        .values({ contact_id: contactId, ...fields })
        .onConflict((oc) => oc.column('contact_id').doUpdateSet(fields))
        .execute();
    },

    /** Whether a flow handed the conversation to the assistant and it has not been closed since. */
    async engaged(workspaceId: string, contactId: string): Promise<boolean> {
      const row = await db
        .selectFrom('assistant_engagements as e')
        .select('e.contact_id')
        .where('e.workspace_id', '=', workspaceId)
        .where('e.contact_id', '=', contactId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('conversation_spans as s')
                .select('s.id')
                .whereRef('s.contact_id', '=', 'e.contact_id')
                .whereRef('s.closed_at', '>', 'e.engaged_at'),
            ),
          ),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The assistant's replies in a span, and whether it told the customer a person will answer. */
    async spanTally(spanId: string): Promise<{ replies: number; told: boolean }> {
      const rows = await db
        .selectFrom('assistant_turns')
        .select(['reply_message_id', 'notice_message_id', 'action'])
        .where('span_id', '=', spanId)
        .execute();
      return {
        replies: rows.filter((row) => row.action === 'reply' && row.reply_message_id !== null).length,
        told: rows.some((row) => row.notice_message_id !== null),
      };
    },

    /** Records a turn on a message; false when a turn on it exists (another process answered it). */
    async claimTurn(row: TurnRow): Promise<boolean> {
      const inserted = await db
        .insertInto('assistant_turns')
        .values(row)
        .onConflict((oc) => oc.column('message_id').doNothing())
        .returning('id')
        .execute();
      return inserted.length === 1;
    },

    /** Whether the assistant took a turn on this message already. */
    async answered(messageId: string): Promise<boolean> {
      const row = await db
        .selectFrom('assistant_turns')
        .select('id')
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The turn as it ended: what it did in the end (a refused reply hands over), and what it sent. */
    async finish(
      id: string,
      fields: Partial<Pick<TurnRow, 'action' | 'reason' | 'reply_message_id' | 'notice_message_id' | 'total_ms'>>,
    ) {
      await db.updateTable('assistant_turns').set(fields).where('id', '=', id).execute();
    },

    /** A conversation's turns, newest first. */
    async turns(workspaceId: string, contactId: string, limit: number): Promise<AssistantTurn[]> {
      const rows = await db
        .selectFrom('assistant_turns')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(presentTurn);
    },
  };
}

/** A turn as the API shows it. */
function presentTurn(row: Selectable<AssistantTurnTable>): AssistantTurn {
  return {
    id: row.id,
    contact_id: row.contact_id,
    span_id: row.span_id,
    message_id: row.message_id,
    action: row.action,
    reason: row.reason,
    reply_message_id: row.reply_message_id,
    notice_message_id: row.notice_message_id,
    confidence: row.confidence === null ? null : Number(row.confidence),
    citations: JSON.parse(row.citations) as Citation[],
    summary: row.summary,
    tags: JSON.parse(row.tags) as string[],
    attributes: JSON.parse(row.attributes) as { name: string; value: string }[],
    model: row.model,
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    model_ms: row.model_ms === null ? null : Number(row.model_ms),
    total_ms: Number(row.total_ms),
    created_at: formatTimestamp(row.created_at),
  };
}
