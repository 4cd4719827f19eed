import { Type, type Static } from '@sinclair/typebox';
import { ContactId, PhoneRef } from '../contacts/contact.schema.js';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** Meta's limit on a text message body. */
export const TEXT_MAX_LENGTH = 4096;

/** Outbound: queued → sent → delivered → read, or failed; inbound messages are `received`. */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const recipient = {
  contact_id: Type.Optional(ContactId),
  phone: Type.Optional(PhoneRef),
  from_phone_number_id: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,30}$',
      description:
        "The workspace's number to send from (a phone_number_id list-channels shows); default: the number the contact last wrote to, else the workspace's default channel",
    }),
  ),
};

export const SendTextBody = Type.Object(
  {
    ...recipient,
    message: Type.String({
      minLength: 1,
      maxLength: TEXT_MAX_LENGTH,
      description: 'The text; WhatsApp markup (*bold*, _italic_, ~strike~, ```mono```) passes through',
    }),
    preview_url: Type.Optional(Type.Boolean({ description: 'Show a preview of the first URL (default false)' })),
  },
  { description: 'Name the contact by `contact_id` or `phone`' },
);
export type SendTextInput = Static<typeof SendTextBody>;

const Variable = Type.String({ maxLength: 1024 });
export const SendTemplateBody = Type.Object(
  {
    ...recipient,
    template_id: Uuid('Parley template id'),
    language: Type.Optional(
      Type.String({ maxLength: 16, description: 'Translation to send; default: the one get-template shows' }),
    ),
    variables: Type.Optional(
      Type.Union(
        [
          Type.Array(Variable, { maxItems: 100 }),
          Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), Variable, { maxProperties: 100 }),
        ],
        {
          description:
            'Every variable, keyed by the ids `/api/v1/dropdowns/template-variables` lists: body placeholders ' +
            '(`"1"` or a NAMED template\'s `"first_name"`), `"header_1"`, `"button_0_1"` (a URL button\'s suffix), ' +
            '`"button_1_coupon_code"` (a copy-code button), e.g. `{"1":"Ada","header_1":"May","button_0_1":"ORD-1"}`; ' +
            "or the body's values in order as an array",
        },
      ),
    ),
    header_media_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        description:
          "https URL of the image, video or document of a media header; default: the template's own header_content",
      }),
    ),
    button_variables: Type.Optional(
      Type.Array(Variable, {
        maxItems: 10,
        description:
          'The dynamic suffix of each URL button with a `{{1}}`, in button order (the same as `variables` `button_<index>_1`)',
      }),
    ),
  },
  { description: 'Name the contact by `contact_id` or `phone`; an unknown phone becomes a new contact' },
);
export type SendTemplateInput = Static<typeof SendTemplateBody>;

export const GetMessageBody = Type.Object({ message_id: Uuid('Parley message id') });

export const SimulateInboundBody = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 40, description: 'The contact writing in' }),
  text: Type.String({ minLength: 1, maxLength: TEXT_MAX_LENGTH }),
});

const MessageEditSchema = Type.Object({
  type: Type.String(),
  content: Type.Record(Type.String(), Type.Unknown(), { description: 'The content before this edit' }),
  edited_at: Timestamp('When the sender edited it'),
});
export type MessageEdit = Static<typeof MessageEditSchema>;

export const MessageSchema = Type.Object(
  {
    id: Uuid(),
    direction: Type.String({ enum: ['inbound', 'outbound'] }),
    type: Type.String({ description: 'text, template, or an inbound type (image, location, …)' }),
    status: Type.String({ enum: [...MESSAGE_STATUSES] }),
    content: Type.Record(Type.String(), Type.Unknown(), { description: 'What was sent or received' }),
    contact_id: Uuid(),
    contact_phone: Type.String(),
    provider_message_id: NullableField(Type.String({ description: 'WhatsApp message id (wamid), once known' })),
    error: Type.Union(
      [
        Type.Object({
          code: NullableField(Type.Integer({ description: "Meta's error code" })),
          title: Type.String(),
          details: NullableField(Type.String()),
          reason: NullableField(
            Type.String({ description: "What Meta's code means, in plain words; null for Parley's own errors" }),
          ),
        }),
        Type.Null(),
      ],
      { description: 'Why a message failed' },
    ),
    pricing: Type.Union(
      [
        Type.Object({
          billable: NullableField(Type.Boolean()),
          pricing_model: NullableField(Type.String({ description: 'e.g. `PMP` (per message) or `CBP`' })),
          category: NullableField(Type.String({ description: 'e.g. `marketing`, `utility`, `service`' })),
          type: NullableField(Type.String({ description: 'e.g. `regular`, `free_customer_service`' })),
        }),
        Type.Null(),
      ],
      { description: "Outbound: the `pricing` of Meta's latest status webhook that had one" },
    ),
    conversation: Type.Union(
      [
        Type.Object({
          id: NullableField(Type.String()),
          origin_type: NullableField(Type.String({ description: 'e.g. `marketing`, `service`' })),
          expires_at: NullableField(Timestamp()),
        }),
        Type.Null(),
      ],
      { description: "Outbound: the `conversation` of Meta's status webhooks" },
    ),
    biz_opaque_callback_data: NullableField(
      Type.String({ description: "Outbound: what Meta's status webhooks echoed from the send (Parley's message id)" }),
    ),
    sent_at: NullableField(
      Timestamp("Inbound: when the contact sent it (Meta's timestamp); created_at is when Parley received it"),
    ),
    reply_to_message_id: NullableField(
      Uuid('The message this one quotes (a reply) or reacts to (a reaction), when Parley has it'),
    ),
    reaction: NullableField(Type.String({ description: "The contact's current reaction emoji to this message" })),
    edits: Type.Array(MessageEditSchema, {
      description: 'Earlier versions of a message its sender edited, oldest first',
    }),
    revoked_at: NullableField(Timestamp('When the sender deleted the message for everyone; its content is kept here')),
    channel_id: NullableField(
      Uuid(
        'The channel (business number, see list-channels) it came in on or went out on; null while queued without a named number, and for messages before several numbers',
      ),
    ),
    created_at: Timestamp('When Parley recorded the message'),
    updated_at: Timestamp(),
  },
  { $id: 'Message' },
);
export type Message = Static<typeof MessageSchema>;

/** The most messages list-messages returns in one call. */
export const MESSAGE_LIST_MAX = 100;

export const ListMessagesBody = Type.Object(
  {
    ...recipient,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MESSAGE_LIST_MAX, description: 'How many messages (default 50)' }),
    ),
  },
  { description: 'Name the contact by `contact_id` or `phone`' },
);
