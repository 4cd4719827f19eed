import type { ActionAnswer, DashboardAnswer } from '../../api/client';

/** One page of a conversation: the contact, the conversation's state, messages, notes, ratings and members. */
export type Thread = DashboardAnswer<'/api/dashboard/conversations/{contactId}'>;
/** A message as the inbox endpoints answer it (the public message plus a one-line preview). */
export type InboxMessage = Thread['messages'][number];
/** Who sent a message (outbound): a member, an API token, an automation by name, or Parley itself. */
export type MessageSender = NonNullable<InboxMessage['sender']>;
/** A staff member's private note in the thread: never sent to the customer. */
export type ConversationNote = Thread['notes'][number];
/** A customer's answer to the satisfaction survey sent when the conversation was closed. */
export type Rating = Thread['ratings'][number];
export type Call = Thread['calls'][number];
export type Member = DashboardAnswer<'/api/dashboard/inbox/members'>[number];
/** A workspace's conversation label. */
export type Label = DashboardAnswer<'/api/dashboard/conversation-labels'>[number];
/** One page of the conversation list. */
export type ConversationPage = DashboardAnswer<'/api/dashboard/conversations'>;
export type ConversationSummary = ConversationPage['conversations'][number];
/** The conversation tools' state: status, priority, snooze, labels. */
export type ToolsState = Pick<ConversationSummary, 'status' | 'priority' | 'snoozed_until' | 'labels'>;
export type Priority = ToolsState['priority'];

/** What GET /api/dashboard/events sends: a hint to reload what it concerns. */
export type InboxEvent =
  | {
      /** `approval`: a send held for a person's approval was made or decided (`message_id` names it). */
      type: 'message' | 'status' | 'conversation' | 'approval' | 'stream-opened';
      contact_id: string;
      message_id?: string;
      direction?: 'inbound' | 'outbound';
    }
  /** A WhatsApp group's conversation or state changed. */
  | { type: 'group'; group_id: string; message_id?: string };
/** One turn of the AI assistant in the conversation: what it did, why, and the knowledge it cited. */
export type AssistantTurn = ActionAnswer<'list-assistant-turns'>['turns'][number];
