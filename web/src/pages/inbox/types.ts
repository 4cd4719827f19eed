/** A message as the inbox endpoints answer it (the public message plus a one-line preview). */
export interface InboxMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'received';
  content: Record<string, unknown>;
  contact_id: string;
  error: { code: number | null; title: string; details: string | null } | null;
  created_at: string;
  preview: string;
  /** The message this one quotes (a reply), as a one-line preview. */
  quote: { id: string; direction: 'inbound' | 'outbound'; preview: string } | null;
  /** The contact's reaction to this message. */
  reaction: string | null;
  /** Earlier versions, when the sender edited it. */
  edits: unknown[];
  /** When the sender deleted it for everyone. */
  revoked_at: string | null;
}

export interface Member {
  id: string;
  name: string;
  email: string;
}

export interface ConversationSummary {
  contact_id: string;
  name: string | null;
  phone: string;
  last_message: InboxMessage | null;
  last_message_at: string | null;
  unread: number;
  assignee: Member | null;
  done: boolean;
  needs_person: boolean;
}

export interface ConversationPage {
  conversations: ConversationSummary[];
  next_before: string | null;
}

export interface Thread {
  contact: { id: string; name: string | null; phone: string; opted_out: boolean };
  conversation: { read_at: string | null; assignee_id: string | null; done: boolean; needs_person: boolean };
  window: { open: boolean; last_inbound_at: string | null; closes_at: string | null; now: string };
  messages: InboxMessage[];
  next_before: string | null;
  members: Member[];
}

/** What GET /api/dashboard/events sends: a hint to reload what it concerns. */
export interface InboxEvent {
  type: 'message' | 'status' | 'conversation' | 'reconnected';
  contact_id: string;
  message_id?: string;
  direction?: 'inbound' | 'outbound';
}
