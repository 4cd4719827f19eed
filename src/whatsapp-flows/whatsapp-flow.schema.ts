import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { SendTextBody } from '../messages/index.js';

/** Meta's Flow categories (Flows API "Create Flow"): what the Flow is for. */
export const WHATSAPP_FLOW_CATEGORIES = [
  'SIGN_UP',
  'SIGN_IN',
  'APPOINTMENT_BOOKING',
  'LEAD_GENERATION',
  'SHOPPING',
  'CONTACT_US',
  'CUSTOMER_SUPPORT',
  'SURVEY',
  'OTHER',
] as const;

/** Meta's statuses of a Flow (its "Lifecycle of a Flow"). */
export const WHATSAPP_FLOW_STATUSES = ['DRAFT', 'PUBLISHED', 'DEPRECATED', 'BLOCKED', 'THROTTLED'] as const;

/** Meta takes a Flow name of up to 200 characters, unique in the WhatsApp Business Account. */
export const FLOW_NAME_MAX_LENGTH = 200;
/** A Flow JSON document within Parley's request size (1 MiB); Meta's own limit is 10 MB. */
export const FLOW_JSON_MAX_LENGTH = 900_000;

const Position = {
  line_start: Type.Optional(Type.Integer()),
  line_end: Type.Optional(Type.Integer()),
  column_start: Type.Optional(Type.Integer()),
  column_end: Type.Optional(Type.Integer()),
};

export const FlowValidationErrorSchema = Type.Object(
  {
    error: Type.String({ description: "Meta's error, e.g. INVALID_PROPERTY_VALUE" }),
    error_type: Type.String({ description: 'e.g. FLOW_JSON_ERROR' }),
    message: Type.String({ description: "Meta's words" }),
    ...Position,
    pointers: Type.Optional(
      Type.Array(
        Type.Object({ ...Position, path: Type.String({ description: 'e.g. screens[0].layout.children[0].type' }) }),
      ),
    ),
  },
  {
    $id: 'WhatsappFlowValidationError',
    additionalProperties: true,
    description:
      "One of Meta's validation errors of a Flow JSON document, as Meta gives it: where it is (lines and columns of the document as uploaded, and the JSON path), and why",
  },
);

/** A contact custom attribute's key, as a chatbot flow names one. */
const ATTRIBUTE_KEY = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' });
const AnswerAttributes = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), ATTRIBUTE_KEY, {
  maxProperties: 100,
  description:
    'Which answer field fills which contact custom attribute, `{ "field name": "attribute key" }`: set on the contact as each answer arrives',
});

export const WhatsappFlowSchema = Type.Object(
  {
    id: Uuid(),
    meta_flow_id: Type.String({ description: "Meta's Flow id (the `flow_id` a Flow message or a FLOW button names)" }),
    name: Type.String(),
    categories: Type.Array(Type.String({ enum: [...WHATSAPP_FLOW_CATEGORIES] })),
    status: Type.String({
      enum: [...WHATSAPP_FLOW_STATUSES],
      description:
        'Meta’s: `DRAFT` (editable, sent only for testing, deletable), `PUBLISHED` (sent to customers; its JSON no longer changes), `DEPRECATED` (sent no more), `BLOCKED` or `THROTTLED` by Meta',
    }),
    flow_json: NullableField(
      Type.String({
        description: 'The Flow JSON document as last uploaded through Parley; null for a Flow made elsewhere',
      }),
    ),
    validation_errors: Type.Array(Type.Ref(FlowValidationErrorSchema), {
      description: 'Meta’s validation errors of the Flow JSON; a Flow with any cannot be published',
    }),
    preview_url: NullableField(
      Type.String({ description: 'Meta’s preview link: the Flow as WhatsApp shows it (get-whatsapp-flow renews it)' }),
    ),
    preview_expires_at: NullableField(Timestamp('When Meta’s preview link stops working')),
    answer_fields: Type.Array(
      Type.Object({
        name: Type.String({ description: "The field's name in the answer (a key of the Flow's complete payload)" }),
        label: Type.String({ description: 'The label of its component in the Flow JSON; its name when it has none' }),
      }),
      { description: 'The fields its answers carry, in the form’s order, read from its Flow JSON (none without it)' },
    ),
    answer_attributes: AnswerAttributes,
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'WhatsappFlow',
    description:
      'A WhatsApp Flow (Meta’s form: screens a customer fills in inside WhatsApp) of the workspace’s WhatsApp Business Account. Not a Parley flow (the chatbot of save-flow).',
  },
);
export type WhatsappFlow = Static<typeof WhatsappFlowSchema>;

/** Meta's `flows` webhook events (Flows Webhooks). */
export const WHATSAPP_FLOW_ALERT_EVENTS = [
  'FLOW_STATUS_CHANGE',
  'CLIENT_ERROR_RATE',
  'ENDPOINT_ERROR_RATE',
  'ENDPOINT_LATENCY',
  'ENDPOINT_AVAILABILITY',
  'FLOW_VERSION_EXPIRY_WARNING',
] as const;

export const WhatsappFlowAlertSchema = Type.Object(
  {
    id: Uuid(),
    event: Type.String({
      description: `Meta's \`event\`: ${WHATSAPP_FLOW_ALERT_EVENTS.join(', ')} (a later one by its own name)`,
    }),
    alert_state: NullableField(
      Type.String({ description: 'ACTIVATED or DEACTIVATED, for the error rate, latency and availability alerts' }),
    ),
    message: NullableField(Type.String({ description: "Meta's words (its `message`, or `warning`)" })),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: "Meta's whole webhook value: `old_status`/`new_status`, `error_rate`, `p90_latency`, `threshold`…",
    }),
    received_at: Timestamp(),
  },
  {
    $id: 'WhatsappFlowAlert',
    description:
      "What Meta's `flows` webhook said of a Flow: a status change, an alert about its endpoint, a version expiring",
  },
);
export type WhatsappFlowAlert = Static<typeof WhatsappFlowAlertSchema>;

const WhatsappFlowId = Uuid('Parley id of the WhatsApp Flow (list-whatsapp-flows)');

export const WhatsappFlowIdBody = Type.Object({ whatsapp_flow_id: WhatsappFlowId });

export const ListWhatsappFlowsBody = Type.Object({
  status: Type.Optional(
    Type.String({
      enum: [...WHATSAPP_FLOW_STATUSES],
      description: 'Only the Flows in this status (e.g. PUBLISHED: those that can be sent)',
    }),
  ),
});
export type ListWhatsappFlowsInput = Static<typeof ListWhatsappFlowsBody>;

export const CreateWhatsappFlowBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: FLOW_NAME_MAX_LENGTH,
    description: 'Unique in the WhatsApp Business Account',
  }),
  categories: Type.Array(Type.String({ enum: [...WHATSAPP_FLOW_CATEGORIES] }), {
    minItems: 1,
    uniqueItems: true,
    description: 'What the Flow is for (at least one)',
  }),
  clone_whatsapp_flow_id: Type.Optional(Uuid('Start from a copy of this Flow’s Flow JSON (Meta’s `clone_flow_id`)')),
});
export type CreateWhatsappFlowInput = Static<typeof CreateWhatsappFlowBody>;

export const UpdateWhatsappFlowJsonBody = Type.Object({
  whatsapp_flow_id: WhatsappFlowId,
  flow_json: Type.String({
    minLength: 1,
    maxLength: FLOW_JSON_MAX_LENGTH,
    description:
      'The Flow JSON document, as text (Meta’s "Flow JSON": `version`, `screens` with their `layout`); Meta’s validation errors name its lines',
  }),
});
export type UpdateWhatsappFlowJsonInput = Static<typeof UpdateWhatsappFlowJsonBody>;

export const DeletedWhatsappFlow = Type.Object({ id: Uuid(), deleted: Type.Boolean() });

/** Meta's limits on a Flow message: its button's text (`flow_cta`) and the texts around it. */
export const FLOW_CTA_MAX_LENGTH = 30;

export const SendWhatsappFlowBody = Type.Composite(
  [
    Type.Pick(SendTextBody, ['contact_id', 'phone', 'from_phone_number_id', 'reply_to_message_id', 'reasoning']),
    Type.Object({
      whatsapp_flow_id: Uuid('The published Flow to send (list-whatsapp-flows with status PUBLISHED)'),
      body: Type.String({ minLength: 1, maxLength: 1024, description: 'The message text above the button' }),
      header: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'A bold first line' })),
      footer: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'A grey last line' })),
      cta: Type.String({
        minLength: 1,
        maxLength: FLOW_CTA_MAX_LENGTH,
        description: 'The button that opens the Flow (Meta’s `flow_cta`), e.g. "Book a table"',
      }),
      flow_action: Type.Optional(
        Type.String({
          enum: ['navigate', 'data_exchange'],
          description:
            '`navigate` (default): the Flow opens on `screen` with `data`; `data_exchange`: Meta asks the Flow’s data endpoint for its first screen',
        }),
      ),
      screen: Type.Optional(
        Type.String({
          minLength: 1,
          description: 'The screen it opens on (`navigate`); default: the first screen of its Flow JSON',
        }),
      ),
      data: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'The data that screen is given (`navigate`; what its `data` declares)',
        }),
      ),
    }),
  ],
  { description: 'Name the contact by `contact_id` or `phone`' },
);
export type SendWhatsappFlowInput = Static<typeof SendWhatsappFlowBody>;

/** The most answers list-whatsapp-flow-answers returns without paging, and its default page size with `paginate=cursor`. */
export const ANSWER_LIST_CAP = 100;

export const ListWhatsappFlowAnswersBody = Type.Object({
  whatsapp_flow_id: Type.Optional(Uuid('Only the answers to this WhatsApp Flow')),
  contact_id: Type.Optional(Uuid("Only this contact's answers")),
});
export type ListWhatsappFlowAnswersInput = Static<typeof ListWhatsappFlowAnswersBody>;

export const SetWhatsappFlowAttributesBody = Type.Object({
  whatsapp_flow_id: WhatsappFlowId,
  answer_attributes: AnswerAttributes,
});
export type SetWhatsappFlowAttributesInput = Static<typeof SetWhatsappFlowAttributesBody>;
