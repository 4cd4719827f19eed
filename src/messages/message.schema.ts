import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ContactId, PhoneRef } from '../contacts/index.js';
import { SENDER_TYPES } from '../db/schema.js';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** Meta's limit on a text message body. */
export const TEXT_MAX_LENGTH = 4096;

/** Outbound: queued → sent → delivered → read, or failed; inbound messages are `received`. */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The most a send's `reasoning` may say: a short note for the person who decides, not a transcript. */
export const REASONING_MAX_LENGTH = 2000;

/** What every send to a contact accepts: why the agent sends it, shown to the person who approves it. */
const Reasoning = Type.String({
  minLength: 1,
  maxLength: REASONING_MAX_LENGTH,
  description:
    "Why you send this, in a sentence or two, for the person who approves it when your token is in approval mode (get-me's token.mode); kept with the held send and shown beside it in the inbox. A token that sends directly may give it too: it is not kept.",
});

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
  reasoning: Type.Optional(Reasoning),
};

/** Every send may quote one of the contact's messages (Meta's `context.message_id`). */
const replyTo = {
  reply_to_message_id: Type.Optional(
    Uuid("Parley id of one of the contact's messages (sent or received) to quote; it must have reached WhatsApp"),
  ),
};

/** Meta's limits on the texts of a media or interactive message. */
export const CAPTION_MAX_LENGTH = 1024;
const Caption = Type.String({ minLength: 1, maxLength: CAPTION_MAX_LENGTH });
const ShortText = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });
const HttpsUrl = (description: string) => Type.String({ minLength: 9, maxLength: 2048, description });

export const SendTextBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
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

/**
 * A template's variables as every sender takes them: keyed by the ids `/api/v1/dropdowns/template-variables`
 * lists (body placeholders, `header_1`, `button_0_1`, …), or the body's values in order.
 */
export const TemplateVariables = <T extends TSchema>(value: T, description: string) =>
  Type.Union(
    [
      Type.Array(value, { maxItems: 100 }),
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), value, { maxProperties: 100 }),
    ],
    { description },
  );
/** A media header's link, as send-template-message, flows' and sequences' template steps take it. */
export const HeaderMediaUrl = Type.String({
  maxLength: 2048,
  description:
    "https URL of the image, video or document of a media header; default: the template's own header_content",
});

export const SendTemplateBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
    template_id: Uuid('Parley template id'),
    language: Type.Optional(
      Type.String({ maxLength: 16, description: 'Translation to send; default: the one get-template shows' }),
    ),
    variables: Type.Optional(
      TemplateVariables(
        Variable,
        'Every variable, keyed by the ids `/api/v1/dropdowns/template-variables` lists: body placeholders ' +
          '(`"1"` or a NAMED template\'s `"first_name"`), `"header_1"`, `"button_0_1"` (a URL button\'s suffix), ' +
          '`"button_1_coupon_code"` (a copy-code button), e.g. `{"1":"Ada","header_1":"May","button_0_1":"ORD-1"}`; ' +
          "or the body's values in order as an array",
      ),
    ),
    header_media_url: Type.Optional(HeaderMediaUrl),
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

const MediaKind = Type.String({
  enum: ['image', 'video', 'audio', 'document', 'sticker'],
  description: 'The kind of media, as WhatsApp shows it',
});

export const SendMediaBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
    type: MediaKind,
    media_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'The `media_id` upload-media answered' }),
    ),
    media_url: Type.Optional(HttpsUrl('A public https URL WhatsApp fetches the file from (instead of `media_id`)')),
    caption: Type.Optional(Type.String({ ...Caption, description: 'image, video and document only' })),
    filename: Type.Optional(ShortText(240, 'document only: the file name the customer sees')),
  },
  { description: 'Name the contact by `contact_id` or `phone`, and the file by `media_id` or `media_url`' },
);
export type SendMediaInput = Static<typeof SendMediaBody>;

const InteractiveButton = Type.Object({
  id: ShortText(256, 'What the tap reports back (button_reply.id)'),
  title: ShortText(20, 'The button label'),
});
const ListRow = Type.Object({
  id: ShortText(200, 'What the choice reports back (list_reply.id)'),
  title: ShortText(24, 'The row label'),
  description: Type.Optional(ShortText(72, 'A second line under the title')),
});
const ListSection = Type.Object({
  title: ShortText(24, 'The section heading'),
  rows: Type.Array(ListRow, { minItems: 1, maxItems: 10, description: 'The choices under the heading' }),
});

export const SendInteractiveBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
    type: Type.String({
      enum: ['button', 'list', 'cta_url', 'call_permission_request'],
      description:
        '`button`: up to 3 reply buttons; `list`: a menu of up to 10 rows; `cta_url`: one link button; `call_permission_request`: asks the customer whether the business may call them on WhatsApp (the body says why; no header or footer)',
    }),
    body: Type.String({ minLength: 1, maxLength: CAPTION_MAX_LENGTH, description: 'The message text' }),
    header: Type.Optional(ShortText(60, 'A bold first line')),
    footer: Type.Optional(ShortText(60, 'A grey last line')),
    buttons: Type.Optional(Type.Array(InteractiveButton, { minItems: 1, maxItems: 3, description: '`button` only' })),
    button: Type.Optional(ShortText(20, '`list` only: the label of the button that opens the list')),
    sections: Type.Optional(
      Type.Array(ListSection, { minItems: 1, maxItems: 10, description: '`list` only: at most 10 rows in all' }),
    ),
    display_text: Type.Optional(ShortText(20, '`cta_url` only: the button label')),
    url: Type.Optional(HttpsUrl('`cta_url` only: the https URL the button opens')),
  },
  { description: 'Name the contact by `contact_id` or `phone`; the fields after `footer` depend on `type`' },
);
export type SendInteractiveInput = Static<typeof SendInteractiveBody>;

export const SendLocationBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
    latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees' }),
    longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees' }),
    name: Type.Optional(ShortText(1000, 'The place’s name')),
    address: Type.Optional(ShortText(1000, 'The place’s address')),
  },
  { description: 'Name the contact by `contact_id` or `phone`' },
);
export type SendLocationInput = Static<typeof SendLocationBody>;

const CardText = (description: string) => Type.String({ maxLength: 1000, description });
const CardLabel = CardText('What it is, such as HOME or WORK');
const Typed = (field: string, description: string) =>
  Type.Array(Type.Object({ [field]: CardText(description), type: Type.Optional(CardLabel) }), {
    maxItems: 20,
    description: `The card's ${field}s`,
  });
/** Meta's contact object ("Contacts messages"): a name with `formatted_name`, and optional details. */
const ContactCard = Type.Object({
  name: Type.Object(
    {
      formatted_name: Type.String({ minLength: 1, maxLength: 1000, description: 'The whole name, as shown' }),
      first_name: Type.Optional(CardText('First name')),
      last_name: Type.Optional(CardText('Last name')),
      middle_name: Type.Optional(CardText('Middle name')),
      suffix: Type.Optional(CardText('Name suffix, such as Jr.')),
      prefix: Type.Optional(CardText('Name prefix, such as Dr.')),
    },
    { additionalProperties: false, description: 'The name on the card' },
  ),
  phones: Type.Optional(
    Type.Array(
      Type.Object({
        phone: CardText('The phone number'),
        type: Type.Optional(CardLabel),
        wa_id: Type.Optional(CardText('Its WhatsApp id: the card then has a Message button')),
      }),
      { maxItems: 20, description: "The card's phone numbers" },
    ),
  ),
  emails: Type.Optional(Typed('email', 'An email address')),
  urls: Type.Optional(Typed('url', 'A web address')),
  org: Type.Optional(
    Type.Object(
      {
        company: Type.Optional(CardText('Company')),
        department: Type.Optional(CardText('Department')),
        title: Type.Optional(CardText('Job title')),
      },
      { description: 'Where the person works' },
    ),
  ),
  addresses: Type.Optional(
    Type.Array(
      Type.Object({
        street: Type.Optional(CardText('Street and number')),
        city: Type.Optional(CardText('City')),
        state: Type.Optional(CardText('State or region')),
        zip: Type.Optional(CardText('Postal code')),
        country: Type.Optional(CardText('Country name')),
        country_code: Type.Optional(CardText('Two-letter country code')),
        type: Type.Optional(CardLabel),
      }),
      { maxItems: 20, description: "The card's postal addresses" },
    ),
  ),
  birthday: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' })),
});

export const SendContactsBody = Type.Object(
  {
    ...recipient,
    ...replyTo,
    contacts: Type.Array(ContactCard, { minItems: 1, maxItems: 257, description: "Contact cards in Meta's format" }),
  },
  { description: 'Name the contact by `contact_id` or `phone`' },
);
export type SendContactsInput = Static<typeof SendContactsBody>;

export const SendReactionBody = Type.Object(
  {
    ...recipient,
    message_id: Uuid("Parley id of the contact's message to react to; it must have reached WhatsApp"),
    emoji: Type.String({ maxLength: 16, description: 'One emoji; "" removes the reaction' }),
  },
  { description: 'The contact is the message’s; `contact_id` or `phone`, when given, must name them' },
);
export type SendReactionInput = Static<typeof SendReactionBody>;

export const GetMessageBody = Type.Object({ message_id: Uuid('Parley message id') });

/** A tapped reply button or list row, as Meta's messages webhook carries it in `interactive`. */
const TappedReply = (what: string, extra = {}) =>
  Type.Optional(
    Type.Object(
      {
        id: Type.String({ minLength: 1, maxLength: 256, description: `The ${what}'s id, as the business sent it` }),
        title: Type.String({ minLength: 1, maxLength: 100, description: `The ${what}'s title` }),
        ...extra,
      },
      { description: `The contact taps a ${what} (instead of writing \`text\`)` },
    ),
  );

export const SimulateInboundBody = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 40, description: 'The contact writing in' }),
  text: Type.Optional(
    Type.String({ minLength: 1, maxLength: TEXT_MAX_LENGTH, description: 'The contact writes this text' }),
  ),
  button_reply: TappedReply('reply button'),
  list_reply: TappedReply('list row', {
    description: Type.Optional(Type.String({ maxLength: 100, description: "The row's second line" })),
  }),
  media: Type.Optional(
    Type.Union([Type.Literal('image'), Type.Literal('document'), Type.Literal('audio')], {
      description:
        'The contact sends one of the sample files Parley ships (a PNG photo, a one-page PDF, a short MP3), downloaded into the media store as a file from Meta would be',
    }),
  ),
  caption: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'With `media` image or document: its caption' }),
  ),
  location: Type.Optional(
    Type.Object(
      {
        latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees' }),
        longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees' }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'The place’s name' })),
        address: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'The place’s address' })),
      },
      { description: 'The contact shares a location' },
    ),
  ),
  contact_card: Type.Optional(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200, description: 'The name on the card' }),
        phone: Type.String({ minLength: 1, maxLength: 40, description: 'The phone number on the card' }),
      },
      { description: "The contact shares someone's contact card (stored as Meta's `contacts` message)" },
    ),
  ),
});
export type SimulateInboundInput = Static<typeof SimulateInboundBody>;

const MessageEditSchema = Type.Object({
  type: Type.String(),
  content: Type.Record(Type.String(), Type.Unknown(), { description: 'The content before this edit' }),
  edited_at: Timestamp('When the sender edited it'),
});
export type MessageEdit = Static<typeof MessageEditSchema>;

/** Whether Parley keeps a received file: it downloads each one from Meta in the background as it arrives. */
export const MediaStorageSchema = Type.Object({
  state: Type.String({
    enum: ['pending', 'stored', 'failed', 'expired'],
    description:
      "`pending`: being downloaded from Meta (retried with backoff); `stored`: kept, download-media and the dashboard serve it; `failed`: Meta did not serve it after every retry (`error` says why); `expired`: deleted after the workspace's media retention",
  }),
  error: NullableField(
    Type.String({ description: 'Why the last download failed (while pending it is tried again); null otherwise' }),
  ),
});

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
          billable: NullableField(
            Type.Boolean({
              description: 'Deprecated by Meta with per-message pricing (July 2025): `type` says what is charged',
            }),
          ),
          pricing_model: NullableField(Type.String({ description: 'e.g. `PMP` (per message) or `CBP`' })),
          category: NullableField(
            Type.String({
              description:
                '`marketing`, `marketing_lite`, `utility`, `authentication`, `authentication_international` or `service`',
            }),
          ),
          type: NullableField(
            Type.String({
              description: '`regular` (charged), `free_customer_service` or `free_entry_point` (free)',
            }),
          ),
        }),
        Type.Null(),
      ],
      {
        description:
          "Outbound: the `pricing` of Meta's latest status webhook that had one, including statuses Parley does not otherwise track (`played`)",
      },
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
    sent_via: NullableField(
      Type.String({
        enum: ['marketing_messages'],
        description:
          "`marketing_messages` when Meta's Marketing Messages API took this marketing template (the workspace turned it on: update-marketing-messages-settings); null for Cloud API's /messages and for inbound messages",
      }),
    ),
    media_storage: Type.Union([MediaStorageSchema, Type.Null()], {
      description:
        'A received image, audio, video, document or sticker: whether Parley keeps the file. Null for messages without received media (and media received more than 30 days before Parley kept files)',
    }),
    created_at: Timestamp('When Parley recorded the message'),
    updated_at: Timestamp(),
  },
  { $id: 'Message' },
);
export type Message = Static<typeof MessageSchema>;

/** Who sent an outbound message, as the dashboard's thread names them. */
export const SenderSchema = Type.Union(
  [
    Type.Object({
      type: Type.String({
        enum: [...SENDER_TYPES],
        description:
          '`user`: a team member in the dashboard; `api`: an API token; `campaign`, `sequence`, `flow`: that automation; `system`: Parley itself (an opt-out confirmation); `business_app`: the WhatsApp Business app on the same number; `ai`: the AI assistant (get-assistant-settings), answering from the knowledge',
      }),
      id: NullableField(
        Uuid('The member, token, campaign, sequence or flow; null for `system`, `business_app` and `ai`'),
      ),
      name: Type.String({
        description:
          "The member's name (else email), or the token's, campaign's, sequence's or flow's name, empty once it is deleted; for `ai` the assistant's configured name (\"AI assistant\" unless named)",
      }),
    }),
    Type.Null(),
  ],
  { description: 'Outbound: who sent it; null for inbound messages and for outbound ones older than the record' },
);

/** A message as list-messages returns it: with who sent it. */
export const ListedMessageSchema = Type.Intersect([Type.Ref(MessageSchema), Type.Object({ sender: SenderSchema })], {
  $id: 'ListedMessage',
});
export type ListedMessage = Static<typeof ListedMessageSchema>;

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

export const CALL_OUTCOMES = ['ringing', 'ongoing', 'answered', 'missed', 'rejected', 'failed'] as const;

/** A WhatsApp call in a conversation, built from Meta's `calls` webhooks (never its audio). */
export const ConversationCallSchema = Type.Object(
  {
    id: Uuid(),
    call_id: Type.String({ description: 'Meta’s call id (`wacid.…`)' }),
    direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')], {
      description: '`inbound`: the customer called; `outbound`: the business called',
    }),
    outcome: Type.Union(
      CALL_OUTCOMES.map((outcome) => Type.Literal(outcome)),
      {
        description:
          '`ringing` (not yet answered), `ongoing` (answered, not ended), `answered`, `missed` (ended unanswered), `rejected` (declined by the customer), `failed`',
      },
    ),
    placed_at: Timestamp(),
    started_at: NullableField(Timestamp('When it was answered')),
    ended_at: NullableField(Timestamp()),
    duration_seconds: NullableField(Type.Integer({ description: 'As Meta counts it' })),
    error: NullableField(
      Type.Object(
        { code: Type.Integer(), title: Type.String() },
        { description: 'Meta’s error when the call failed (138006: no permission to call the customer)' },
      ),
    ),
  },
  { $id: 'ConversationCall' },
);
export type ConversationCall = Static<typeof ConversationCallSchema>;
