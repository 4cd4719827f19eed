/** A message as the inbox endpoints answer it (the public message plus a one-line preview). */
export interface InboxMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'received';
  content: Record<string, unknown>;
  contact_id: string;
  /** WhatsApp's id (wamid): only a message WhatsApp knows can be quoted. */
  provider_message_id: string | null;
  error: { code: number | null; title: string; details: string | null } | null;
  created_at: string;
  preview: string;
  /** The message this one quotes (a reply): its kind and content, and its English one-line preview. */
  quote: {
    id: string;
    direction: 'inbound' | 'outbound';
    type: string;
    content: Record<string, unknown>;
    preview: string;
  } | null;
  /** The contact's reaction to this message. */
  reaction: string | null;
  /** Earlier versions, when the sender edited it. */
  edits: unknown[];
  /** When the sender deleted it for everyone. */
  revoked_at: string | null;
  /** Who sent it (outbound): a member, an API token, an automation by name, or Parley itself. */
  sender: MessageSender | null;
}

export interface MessageSender {
  type: 'user' | 'api' | 'campaign' | 'sequence' | 'flow' | 'system';
  id: string | null;
  /** "" when the member, token or automation is gone. */
  name: string;
}

/** A staff member's private note in the thread: never sent to the customer. */
export interface ConversationNote {
  id: string;
  body: string;
  author: { id: string; name: string } | null;
  created_at: string;
}

export interface Member {
  id: string;
  name: string;
  email: string;
}

/** A workspace's conversation label. */
export interface Label {
  id: string;
  name: string;
  colour: string;
}

export type Priority = 'none' | 'low' | 'medium' | 'high' | 'urgent';

/** The conversation tools' state: status, priority, snooze, labels. */
export interface ToolsState {
  status: 'open' | 'closed' | 'snoozed';
  priority: Priority;
  snoozed_until: string | null;
  labels: Label[];
}

export interface ConversationSummary extends ToolsState {
  contact_id: string;
  name: string | null;
  phone: string;
  last_message: InboxMessage | null;
  last_message_at: string | null;
  unread: number;
  assignee: Member | null;
  /** The team whose queue the conversation is in. */
  team: { id: string; name: string } | null;
  done: boolean;
  needs_person: boolean;
}

export interface ConversationPage {
  conversations: ConversationSummary[];
  next_before: string | null;
}

export interface Thread {
  contact: {
    id: string;
    name: string | null;
    phone: string;
    opted_out: boolean;
    email: string | null;
    custom_attributes: Record<string, unknown>;
  };
  conversation: ToolsState & {
    read_at: string | null;
    assignee_id: string | null;
    team_id: string | null;
    done: boolean;
    needs_person: boolean;
  };
  window: { open: boolean; last_inbound_at: string | null; closes_at: string | null; now: string };
  messages: InboxMessage[];
  /** The staff's notes written between this page's oldest message and the next page's. */
  notes: ConversationNote[];
  /** The customer's satisfaction ratings given in the same stretch of time as the notes. */
  ratings: Rating[];
  next_before: string | null;
  members: Member[];
}

/** A customer's answer to the satisfaction survey sent when the conversation was closed. */
export interface Rating {
  rating: number;
  rated_at: string;
  /** Whom the rated conversation counted for. */
  agent_id: string | null;
}

/** What GET /api/dashboard/events sends: a hint to reload what it concerns. */
export interface InboxEvent {
  type: 'message' | 'status' | 'conversation' | 'stream-opened';
  contact_id: string;
  message_id?: string;
  direction?: 'inbound' | 'outbound';
}
