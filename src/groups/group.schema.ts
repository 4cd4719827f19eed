import { Type, type Static } from '@sinclair/typebox';
import { GROUP_STATES } from '../db/schema.js';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { SenderSchema, SendMediaBody, SendTemplateBody, SendTextBody } from '../messages/index.js';

/** Meta's limits (Groups API): a subject of 128 characters, a description of 2048, 8 participants. */
export const SUBJECT_MAX_LENGTH = 128;
export const DESCRIPTION_MAX_LENGTH = 2048;
export const GROUP_PARTICIPANTS_MAX = 8;

const GroupId = Uuid('Parley id of the group (list-groups)');

const Participant = Type.Object({
  wa_id: NullableField(Type.String({ description: "The participant's WhatsApp number (digits), when Meta shares it" })),
  user_id: NullableField(
    Type.String({ description: "The participant's business-scoped user id, when Meta sends one" }),
  ),
});

export const GroupSchema = Type.Object(
  {
    id: Uuid(),
    channel_id: Uuid('The workspace number the group is on'),
    wa_group_id: NullableField(Type.String({ description: "Meta's group id; null while Meta is creating the group" })),
    subject: Type.String({
      description: 'The group\'s name ("" until Meta tells it, for a group Parley did not create)',
    }),
    description: NullableField(Type.String()),
    invite_link: NullableField(
      Type.String({ description: 'The link people join by (the only way in); get-group-invite-link asks Meta for it' }),
    ),
    participants: Type.Array(Participant, {
      description: `Who is in the group, as Meta's webhooks said (at most ${GROUP_PARTICIPANTS_MAX})`,
    }),
    state: Type.String({
      enum: [...GROUP_STATES],
      description:
        '`creating`: asked of Meta, not confirmed yet; `active`; `failed`: Meta refused to create it; `suspended` by WhatsApp (no messages until cleared); `deleted`',
    }),
    last_message_at: NullableField(Timestamp()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Group', description: 'A WhatsApp group on one of the workspace numbers (Meta Groups API)' },
);
export type Group = Static<typeof GroupSchema>;

export const GroupMessageSchema = Type.Object(
  {
    id: Uuid(),
    group_id: Uuid(),
    direction: Type.String({ enum: ['inbound', 'outbound'] }),
    type: Type.String(),
    status: Type.String({
      description: "`received` for a participant's message; queued, sent, delivered, read or failed for the business's",
    }),
    content: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "What was sent or received; a participant's message names its author in `sender` (wa_id, user_id, name)",
    }),
    provider_message_id: NullableField(Type.String({ description: 'WhatsApp message id (wamid), once known' })),
    error: NullableField(Type.Object({}, { additionalProperties: true, description: "Meta's error when it failed" })),
    sent_at: NullableField(Timestamp("A participant's message: when Meta says it was sent")),
    revoked_at: NullableField(Timestamp('When its author deleted it for everyone (its content is kept)')),
    sender: SenderSchema,
    created_at: Timestamp(),
  },
  { $id: 'GroupMessage', description: "A message in a WhatsApp group's conversation" },
);
export type GroupMessage = Static<typeof GroupMessageSchema>;

export const GroupIdBody = Type.Object({ group_id: GroupId });

export const CreateGroupBody = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX_LENGTH, description: "The group's name" }),
  description: Type.Optional(
    Type.String({ maxLength: DESCRIPTION_MAX_LENGTH, description: "The group's description, shown to its members" }),
  ),
  join_approval: Type.Optional(
    Type.Boolean({
      description: 'People who open the invite link wait for approval (default false: they join at once)',
    }),
  ),
  from_phone_number_id: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,30}$',
      description:
        "The workspace's number the group is on (a phone_number_id list-channels shows); default: the default channel",
    }),
  ),
});
export type CreateGroupInput = Static<typeof CreateGroupBody>;

export const ListGroupMessagesBody = Type.Object({
  group_id: GroupId,
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, description: 'Messages to return, newest first (default 50)' }),
  ),
  before_message_id: Type.Optional(Uuid('Return the messages older than this one of the group (the next page)')),
});
export type ListGroupMessagesInput = Static<typeof ListGroupMessagesBody>;

/** A send to a group: a send-*-message body without the contact, naming the group instead. */
const toGroup = <T extends typeof SendTextBody | typeof SendMediaBody | typeof SendTemplateBody>(
  body: T,
  description: string,
) =>
  Type.Composite(
    [Type.Omit(body, ['contact_id', 'phone', 'from_phone_number_id', 'reply_to_message_id']), GroupIdBody],
    {
      description,
    },
  );

export const SendGroupTextBody = toGroup(SendTextBody, 'The text, as send-text-message takes it');
export const SendGroupMediaBody = toGroup(
  SendMediaBody,
  'The file, as send-media-message takes it: `media_id` or `media_url`',
);
export const SendGroupTemplateBody = toGroup(
  SendTemplateBody,
  'An approved template, as send-template-message takes it; its variables are sent as given (no contact fills placeholders)',
);
export type SendGroupTextInput = Static<typeof SendGroupTextBody>;
export type SendGroupMediaInput = Static<typeof SendGroupMediaBody>;
export type SendGroupTemplateInput = Static<typeof SendGroupTemplateBody>;
