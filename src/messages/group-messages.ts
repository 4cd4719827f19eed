import type { InboundMessageEvent } from '../channels/index.js';
import type { Selectable } from 'kysely';
import type { Deps } from '../db/deps.js';
import type { MessageTable } from '../db/schema.js';
import { emit, inChunks, type EventSubject } from '../outgoing/index.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { insertRecorded, type RecordedRow } from './business-app.js';
import type { ReceiveOutcome } from './inbound.js';
import { amendMessage } from './inbound-store.js';
import { carriesMedia } from './media-ref.js';
import { namedSenders, type MessageSender } from './senders.js';

type Trx = Deps['db'];

/** Who wrote a message in a group, as Meta named them: kept on the message (no contact is made of them). */
export interface GroupAuthor {
  wa_id: string | null;
  user_id: string | null;
  name: string | null;
}

/**
 * A WhatsApp group's conversation: the messages written in the group, each kept with its author, apart
 * from every contact's thread. Nothing a customer's own message sets off (window, automations, feeds,
 * opt-out keywords) hears of them: a group is not one customer talking to the business.
 */
export function groupMessages(deps: Pick<Deps, 'newId' | 'clock'>) {
  return {
    /** Stores the messages (each once, by wamid) and applies the edits and deletions among them. */
    async record(
      trx: Trx,
      conversation: { workspaceId: string; groupId: string; channelId: string },
      events: InboundMessageEvent[],
    ): Promise<ReceiveOutcome[]> {
      const at = toStoredTimestamp(deps.clock.now());
      const outcomes: ReceiveOutcome[] = [];
      const stored: EventSubject[] = [];
      for (const event of events) {
        if (event.amends) {
          const amended = await amendMessage(trx, conversation.workspaceId, event, at, 'inbound');
          outcomes.push(amended?.outcome ?? 'duplicate');
          continue;
        }
        const row = groupRow(deps.newId(), conversation, event, at);
        const inserted = await insertRecorded(trx, deps, conversation.workspaceId, [row]);
        outcomes.push(inserted.size > 0 ? 'stored' : 'duplicate');
        if (inserted.size > 0) stored.push({ workspaceId: conversation.workspaceId, id: row.id });
      }
      await emit(
        trx,
        deps,
        'group-message-received',
        stored,
        (subject, records) => records.get(subject.id),
        presentedGroupMessages,
      );
      return outcomes;
    },
  };
}

function groupRow(
  id: string,
  { workspaceId, groupId, channelId }: { workspaceId: string; groupId: string; channelId: string },
  event: InboundMessageEvent,
  at: string,
): RecordedRow {
  const author: GroupAuthor = { wa_id: event.from, user_id: event.userId, name: event.profileName };
  const content = { ...event.content, sender: { ...(event.content.sender as object | undefined), ...author } };
  return {
    id,
    workspace_id: workspaceId,
    contact_id: null,
    group_id: groupId,
    direction: 'inbound',
    type: event.type,
    content: JSON.stringify(content),
    status: 'received',
    provider_message_id: event.wamid,
    error: null,
    next_attempt_at: null,
    channel_id: channelId,
    sender_type: null,
    sender_id: null,
    media_state: carriesMedia(event.type, event.content) ? 'pending' : null,
    sent_at: toStoredTimestamp(event.timestamp),
    created_at: at,
    updated_at: at,
  };
}

/** A group's messages before a position, newest first (the messages_group index). */
export async function groupThread(
  db: Deps['db'],
  workspaceId: string,
  groupId: string,
  /** The position to read before: a message's time and id (the thread's order). */
  before: { at: string; id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('messages')
    .select([
      'id',
      'direction',
      'type',
      'content',
      'status',
      'provider_message_id',
      'error',
      'sender_type',
      'sender_id',
      'sent_at',
      'revoked_at',
      'edits',
      'created_at',
    ])
    .where('group_id', '=', groupId)
    .where('workspace_id', '=', workspaceId);
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', before.at), eb.and([eb('created_at', '=', before.at), eb('id', '<', before.id)])]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Where one of the group's messages is in its thread (its time and id); undefined when it is not the group's. */
export function groupMessagePosition(db: Deps['db'], workspaceId: string, groupId: string, messageId: string) {
  return db
    .selectFrom('messages')
    .select(['created_at as at', 'id'])
    .where('id', '=', messageId)
    .where('group_id', '=', groupId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** A group's message as list-group-messages shows it (and the group webhook events carry). */
export interface PresentedGroupMessage {
  id: string;
  group_id: string;
  direction: string;
  type: string;
  status: string;
  content: Record<string, unknown>;
  provider_message_id: string | null;
  error: Record<string, unknown> | null;
  sent_at: string | null;
  revoked_at: string | null;
  /** Who sent it (the business's messages); null for a participant's, whose author is in `content.sender`. */
  sender: MessageSender | null;
  created_at: string;
}

type MessageRow = Selectable<MessageTable>;
type GroupMessageRow = Pick<MessageRow, 'id' | 'direction' | 'type' | 'content' | 'status'> &
  Pick<MessageRow, 'provider_message_id' | 'error' | 'sender_type' | 'sender_id' | 'created_at'> &
  Partial<Pick<MessageRow, 'sent_at' | 'revoked_at'>>;

/** A group's messages as list-group-messages shows them, the business's named by who sent them. */
export async function presentGroupMessages(
  db: Deps['db'],
  workspaceId: string,
  groupId: string,
  rows: GroupMessageRow[],
): Promise<PresentedGroupMessage[]> {
  const senderOf = await namedSenders(db, workspaceId, rows);
  return rows.map((row) => presentGroupMessage(groupId, row, senderOf(row)));
}

function presentGroupMessage(
  groupId: string,
  row: GroupMessageRow,
  sender: MessageSender | null,
): PresentedGroupMessage {
  return {
    id: row.id,
    group_id: groupId,
    direction: row.direction,
    type: row.type,
    status: row.status,
    content: JSON.parse(row.content) as Record<string, unknown>,
    provider_message_id: row.provider_message_id,
    error: row.error ? (JSON.parse(row.error) as Record<string, unknown>) : null,
    sent_at: formatTimestamp(row.sent_at ?? null),
    revoked_at: formatTimestamp(row.revoked_at ?? null),
    sender,
    created_at: formatTimestamp(row.created_at),
  };
}

/** The subjects' group messages as list-group-messages shows them, by id (an event's `data`). */
export async function presentedGroupMessages(db: Deps['db'], subjects: EventSubject[]): Promise<Map<string, unknown>> {
  const rows = await inChunks(subjects, (ids) =>
    db
      .selectFrom('messages')
      .selectAll()
      .where('id', 'in', ids)
      .where('group_id', 'is not', null)
      .$narrowType<{ group_id: string }>()
      .execute(),
  );
  const presented = new Map<string, unknown>();
  for (const workspaceId of new Set(rows.map((row) => row.workspace_id))) {
    const theirs = rows.filter((row) => row.workspace_id === workspaceId);
    const senderOf = await namedSenders(db, workspaceId, theirs);
    for (const row of theirs) presented.set(row.id, presentGroupMessage(row.group_id, row, senderOf(row)));
  }
  return presented;
}
