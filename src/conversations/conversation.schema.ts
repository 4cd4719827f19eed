import { Type, type Static } from '@sinclair/typebox';
import { pageQuery, pageSchema } from '../http/pagination.js';
import { Nullable, NullableField, Timestamp, Uuid } from '../http/responses.js';
import { PRIORITIES, LabelSchema } from '../inbox/index.js';

/** list-conversations' default page size (and the plain list's size). */
export const CONVERSATION_PAGE_LIMIT = 50;

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );

const STATUSES = ['open', 'closed', 'snoozed'] as const;
const Priority = literals(PRIORITIES, `One of ${PRIORITIES.join(', ')}`);
const LabelName = Type.String({ minLength: 1, maxLength: 64, description: 'A label’s name (case-insensitive)' });
const Colour = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'A colour as `#rrggbb`' });

export const ConversationSchema = Type.Object(
  {
    contact_id: Uuid('The contact’s id: a conversation is addressed by it'),
    contact: Type.Object({ id: Uuid(), name: NullableField(Type.String()), phone: Type.String() }),
    status: Type.String({ enum: [...STATUSES], description: 'open, closed or snoozed' }),
    priority: Type.String({ enum: [...PRIORITIES] }),
    labels: Type.Array(Type.Object({ id: Uuid(), name: Type.String(), colour: Type.String() })),
    assignee_id: NullableField(Type.String({ format: 'uuid', description: 'The member handling it; null: nobody' })),
    snoozed_until: NullableField(
      Timestamp('When a snooze ends by itself; null when not snoozed or snoozed until the customer writes'),
    ),
    needs_person: Type.Boolean({ description: 'A flow handed the conversation over to a person' }),
    unread: Type.Integer({ description: 'Customer messages since the team last read the conversation' }),
    last_message_at: NullableField(Timestamp()),
  },
  { $id: 'Conversation' },
);
export type Conversation = Static<typeof ConversationSchema>;

export const ConversationList = Type.Array(Type.Ref(ConversationSchema), {
  maxItems: CONVERSATION_PAGE_LIMIT,
  description: `The newest ${CONVERSATION_PAGE_LIMIT} (by latest message)`,
});
export const ConversationPage = pageSchema(Type.Ref(ConversationSchema), 'ConversationPage');

/** list-conversations' filters (they combine with AND) and paging. */
export const ListQuery = Type.Object({
  status: Type.Optional(literals(STATUSES, 'open (the default), closed or snoozed')),
  assignee_id: Type.Optional(
    Type.Union([Uuid(), Type.Literal('none')], { description: 'A member’s id, or `none` for unassigned' }),
  ),
  label: Type.Optional(LabelName),
  priority: Type.Optional(Priority),
  ...pageQuery(CONVERSATION_PAGE_LIMIT),
});
export type ListFilters = Static<typeof ListQuery>;

export const ContactParams = Type.Object({ contact_id: Uuid('The contact whose conversation it is') });
export const LabelParams = Type.Object({ label_id: Uuid('The label, by its id from list-conversation-labels') });

export const NoteBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 4096, description: 'The note; staff see it, it is never sent' }),
});
export const NoteCreated = Type.Object({ id: Uuid() });
export const LabelsBody = Type.Object({
  labels: Type.Array(LabelName, { maxItems: 50, description: 'The conversation’s whole label set; [] takes all off' }),
});
export const PriorityBody = Type.Object({ priority: Priority });
export const SnoozeBody = Type.Object({
  until: Nullable(
    Type.String({
      format: 'date-time',
      description: 'When the conversation comes back by itself (within a year); null: when the customer next writes',
    }),
  ),
});

const BulkActionType = literals(
  ['close', 'reopen', 'assign', 'label', 'priority', 'snooze', 'unsnooze'] as const,
  'What to do to each conversation',
);
export const BulkBody = Type.Object({
  action: BulkActionType,
  contact_ids: Type.Optional(
    Type.Array(Uuid(), { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'These conversations' }),
  ),
  filter: Type.Optional(
    Type.Object(
      {
        status: Type.Optional(literals(STATUSES, 'open (the default), closed or snoozed')),
        assignee_id: Type.Optional(
          Type.Union([Uuid(), Type.Literal('none')], { description: 'A member’s id, or `none` for unassigned' }),
        ),
        label: Type.Optional(LabelName),
        priority: Type.Optional(Priority),
      },
      {
        description:
          'Every conversation list-conversations shows with these filters (all pages); with contact_ids, those among them',
      },
    ),
  ),
  user_id: Type.Optional(
    Nullable(
      Uuid(
        'assign: the member (a role that handles conversations, and a member of each conversation’s team: conversations keep their team); null unassigns',
      ),
    ),
  ),
  labels: Type.Optional(Type.Array(LabelName, { minItems: 1, maxItems: 50, description: 'label: labels to add' })),
  priority: Type.Optional(Priority),
  until: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description: 'snooze: when they come back; null: on the customer’s next message',
      }),
    ),
  ),
});
export type BulkInput = Static<typeof BulkBody>;

export const LabelList = Type.Array(Type.Ref(LabelSchema));
export const CreateLabelBody = Type.Object({ name: LabelName, colour: Type.Optional(Colour) });
export const UpdateLabelBody = Type.Object({ name: Type.Optional(LabelName), colour: Type.Optional(Colour) });
export const DeletedLabel = Type.Object({ id: Uuid(), deleted: Type.Literal(true) });
