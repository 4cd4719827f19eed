import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { MESSAGE_TYPES } from '../channels/index.js';

/** The spec's limit on every trigger feed. */
export const TRIGGER_LIMIT = 100;

const contactFields = {
  contact_id: Uuid(),
  contact_phone: Type.String(),
  contact_name: NullableField(Type.String()),
  contact_email: NullableField(Type.String()),
};

export const MessageRecordSchema = Type.Object(
  {
    id: Uuid(),
    type: Type.String({ description: `The message type: ${MESSAGE_TYPES.join(', ')}` }),
    text: NullableField(Type.String({ description: 'Text body, caption or button title when the message has one' })),
    content: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Type-specific content as Meta sends it (text body, media id/mime_type/caption, location, …)',
    }),
    ...contactFields,
    provider_message_id: NullableField(Type.String({ description: 'WhatsApp message id (wamid)' })),
    reply_to_message_id: NullableField(
      Uuid('The message this one quotes (a reply) or reacts to (a reaction), when Parley has it'),
    ),
    sent_at: NullableField(Timestamp("When the contact sent it (Meta's timestamp)")),
    created_at: Timestamp('When Parley recorded the message: the order of this feed'),
  },
  {
    $id: 'MessageReceivedRecord',
    description: 'An inbound message, with its contact as they were when the message arrived (a record is an event).',
  },
);
export type MessageRecord = Static<typeof MessageRecordSchema>;

export const CampaignRecordSchema = Type.Object(
  {
    id: Uuid('Campaign id'),
    name: Type.String(),
    status: Type.String(),
    template_id: NullableField(Uuid()),
    template_name: NullableField(Type.String()),
    campaign_created_at: Timestamp('When the campaign was created'),
    created_at: Timestamp('When the campaign was sent: the moment it entered this feed'),
  },
  { $id: 'CampaignSentRecord' },
);
export type CampaignRecord = Static<typeof CampaignRecordSchema>;

const runFields = {
  ...contactFields,
  status: Type.String(),
  context: Type.Record(Type.String(), Type.Unknown(), { description: 'The context given when triggered' }),
  created_at: Timestamp(),
};

export const FlowRecordSchema = Type.Object(
  { id: Uuid('Flow run id'), flow_id: Uuid(), flow_name: Type.String(), ...runFields },
  { $id: 'FlowTriggeredRecord' },
);
export type FlowRecord = Static<typeof FlowRecordSchema>;

export const SequenceRecordSchema = Type.Object(
  { id: Uuid('Enrolment id'), sequence_id: Uuid(), sequence_name: Type.String(), ...runFields },
  { $id: 'SequenceTriggeredRecord' },
);
export type SequenceRecord = Static<typeof SequenceRecordSchema>;

const AnswerFieldSchema = Type.Object({
  name: Type.String({
    description: "The field's name in Meta's response_json (the key of the Flow's complete payload)",
  }),
  label: Type.String({
    description: 'The label of the component it comes from in the Flow JSON; its name when Parley has none',
  }),
  value: Type.Unknown({
    description: 'As Meta sent it: text, a list (a checkbox group), true/false (an opt-in), a date as text…',
  }),
});

export const WhatsappFlowAnswerRecordSchema = Type.Object(
  {
    id: Uuid('Answer id'),
    whatsapp_flow_id: NullableField(Uuid('The WhatsApp Flow answered, when Parley knows it')),
    whatsapp_flow_name: NullableField(Type.String()),
    meta_flow_id: NullableField(Type.String({ description: "Meta's id of the Flow, when the send is known" })),
    flow_token: NullableField(
      Type.String({
        description:
          "The send's flow_token as the answer gave it; an answer to a Flow sent from elsewhere carries its own",
      }),
    ),
    sent_message_id: NullableField(Uuid('The message that sent the Flow, when Parley sent it')),
    message_id: Uuid("The customer's message that carried the answer (an interactive nfm_reply)"),
    ...contactFields,
    fields: Type.Array(AnswerFieldSchema, { description: "The answer's fields in the form's order" }),
    created_at: Timestamp('When Parley received the answer: the order of this feed'),
  },
  {
    $id: 'WhatsappFlowAnswerRecord',
    description: "A completed WhatsApp Flow (Meta's form): the send it answers, the contact and the fields, labelled.",
  },
);
export type WhatsappFlowAnswerRecord = Static<typeof WhatsappFlowAnswerRecordSchema>;

/** Filter parameters travel in the query string; `""` is no filter. */
export const MessageFilter = Type.Object({
  message_type: Type.Optional(
    Type.Union([Type.Literal(''), ...MESSAGE_TYPES.map((t) => Type.Literal(t))], {
      description: 'Only messages of this type (text, image, interactive…); empty: every type',
    }),
  ),
});
const UuidOrEmpty = (description: string) =>
  Type.Union([Uuid(), Type.Literal('')], { description: `${description}; empty: all of them` });
export const FlowFilter = Type.Object({ flow_id: Type.Optional(UuidOrEmpty('Only the runs of this flow')) });
export const SequenceFilter = Type.Object({
  sequence_id: Type.Optional(UuidOrEmpty('Only the enrolments in this sequence')),
});
export const WhatsappFlowFilter = Type.Object({
  whatsapp_flow_id: Type.Optional(UuidOrEmpty('Only the answers to this WhatsApp Flow')),
});
