import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { ConversationCallSchema, ListedMessageSchema } from '../messages/index.js';
import { PRIORITIES } from './inbox.repository.js';

export const LabelSchema = Type.Object(
  { id: Uuid(), name: Type.String(), colour: Type.String(), created_at: Timestamp() },
  { $id: 'ConversationLabel', description: 'A label of the workspace’s conversations (not a contact’s tag)' },
);

/** What a bulk action on conversations did. */
export const BulkResult = Type.Object({
  action: Type.String(),
  matched: Type.Integer({ description: 'Conversations the ids and filter named' }),
  changed: Type.Integer({ description: 'Those the action changed (closing a closed one changes nothing)' }),
});

// What the inbox's dashboard endpoints answer (docs/dashboard-openapi.yaml).

const Status = Type.Union([Type.Literal('open'), Type.Literal('snoozed'), Type.Literal('closed')]);
export const Priority = Type.Union(PRIORITIES.map((priority) => Type.Literal(priority)));
const ShownLabel = Type.Object({ id: Uuid(), name: Type.String(), colour: Type.String() });
const Member = Type.Object({ id: Uuid(), email: Type.String(), name: Type.String() });

/**
 * A message as the inbox shows it: the listed message (with its sender) plus a one-line text for
 * lists and screen readers, and the message it quotes when it is a reply.
 */
const InboxMessage = Type.Intersect([
  Type.Ref(ListedMessageSchema),
  Type.Object({
    preview: Type.String(),
    quote: Type.Union([
      Type.Object({
        id: Uuid(),
        direction: Type.String(),
        type: Type.String(),
        // The quoted message's content as stored: its shape depends on its type (text, image, template…).
        content: Type.Record(Type.String(), Type.Unknown()),
        preview: Type.String(),
      }),
      Type.Null(),
    ]),
    form: Type.Optional(
      Type.Object(
        {
          whatsapp_flow_id: NullableField(Uuid()),
          whatsapp_flow_name: NullableField(Type.String()),
          fields: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), value: Type.Unknown() })),
        },
        {
          description:
            'A completed WhatsApp Flow (in the thread): its Flow and its fields, labelled as the Flow JSON labels them',
        },
      ),
    ),
    cost: NullableField(
      Type.Object(
        {
          category: Type.String({ description: 'Meta’s pricing category' }),
          market: Type.String({ description: 'The rate card’s market of the recipient’s number' }),
          amount: NullableField(Type.Number({ description: 'Null: no rate for this market and category' })),
          currency: Type.String(),
          source: NullableField(Type.String({ description: '`rate_card`, `workspace_rate` or `meta_card`' })),
        },
        {
          description:
            'What Meta charged for it (its status’s pricing), by the workspace’s rates; null when not charged',
        },
      ),
    ),
  }),
]);

/** One page of the conversation list, newest first. */
export const ConversationListPage = Type.Object({
  conversations: Type.Array(
    Type.Object({
      contact_id: Uuid(),
      name: NullableField(Type.String()),
      phone: Type.String(),
      status: Status,
      priority: Priority,
      snoozed_until: NullableField(Timestamp()),
      labels: Type.Array(ShownLabel),
      last_message: Type.Union([InboxMessage, Type.Null()]),
      last_message_at: NullableField(Timestamp()),
      unread: Type.Integer(),
      assignee: Type.Union([Member, Type.Null()]),
      team: Type.Union([Type.Object({ id: Uuid(), name: Type.String() }), Type.Null()]),
      done: Type.Boolean(),
      needs_person: Type.Boolean(),
      handoff_at: NullableField(Timestamp()),
      awaiting_approval: Type.Integer({
        description: 'How many of an agent’s sends to the contact wait for a person’s approval (decision 0160)',
      }),
    }),
  ),
  next_before: NullableField(Type.String({ description: 'Cursor of the next (older) page; null on the last' })),
});

/** One conversation: the contact, its state, the reply window, messages (newest page), notes, ratings and calls. */
export const Thread = Type.Object({
  contact: Type.Object({
    id: Uuid(),
    name: NullableField(Type.String()),
    phone: Type.String(),
    opted_out: Type.Boolean(),
    email: NullableField(Type.String()),
    custom_attributes: Type.Record(Type.String(), Type.Unknown(), { description: 'Free attributes, as stored' }),
  }),
  conversation: Type.Object({
    status: Status,
    priority: Priority,
    snoozed_until: NullableField(Timestamp()),
    labels: Type.Array(ShownLabel),
    read_at: NullableField(Timestamp()),
    assignee_id: NullableField(Uuid()),
    team_id: NullableField(Uuid()),
    done: Type.Boolean(),
    needs_person: Type.Boolean(),
    handoff_at: NullableField(Timestamp()),
  }),
  window: Type.Object({
    open: Type.Boolean({ description: 'The 24-hour customer service window is open: free-form replies are allowed' }),
    last_inbound_at: NullableField(Timestamp()),
    closes_at: NullableField(Timestamp()),
    now: NullableField(Timestamp()),
  }),
  messages: Type.Array(InboxMessage),
  notes: Type.Array(
    Type.Object({
      id: Uuid(),
      body: Type.String(),
      author: Type.Union([Type.Object({ id: Uuid(), name: Type.String() }), Type.Null()]),
      ai_author: NullableField(
        Type.String({ description: "The AI assistant's name on a note it wrote (its hand-over summary)" }),
      ),
      created_at: Timestamp(),
    }),
  ),
  ratings: Type.Array(Type.Object({ rating: Type.Integer(), rated_at: Timestamp(), agent_id: NullableField(Uuid()) })),
  calls: Type.Array(ConversationCallSchema, { description: 'WhatsApp calls placed in the page’s stretch of time' }),
  next_before: NullableField(Type.String()),
  members: Type.Array(Member),
});

export const UnreadConversations = Type.Object({ conversations: Type.Integer() });
export const ReadAt = Type.Object({ read_at: NullableField(Timestamp()) });
export const NoteAdded = Type.Object({ id: Uuid() });
export const InboxSettings = Type.Object({ typing_indicator: Type.Boolean() });
export const Done = Type.Object({ done: Type.Boolean() });
export const Members = Type.Array(Member);
export const Labels = Type.Array(Type.Ref(LabelSchema));
export const LabelNames = Type.Object({ labels: Type.Array(Type.String()) });
export const Changed = Type.Object({ matched: Type.Integer(), changed: Type.Integer() });
