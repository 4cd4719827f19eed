import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/**
 * The events a subscription may ask for: the trigger feeds, message and conversation status changes,
 * conversation assignments, a WhatsApp group's messages (written there, or a move of one the business
 * sent), and WhatsApp Flows' answers. New events go at the end: a subscription stores their names.
 */
export const WEBHOOK_EVENTS = [
  'new-message-received',
  'new-campaign-sent',
  'new-flow-triggered',
  'new-sequence-triggered',
  'message-status-changed',
  'conversation-status-changed',
  'conversation-assigned',
  'group-message-received',
  'group-message-status-changed',
  'new-whatsapp-flow-answer',
  'held-send-changed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Subscriptions per workspace: every event fans out to each of them. */
export const SUBSCRIPTIONS_MAX = 20;
/** The most deliveries list-webhook-deliveries returns. */
export const DELIVERY_LIST_CAP = 100;

// Literals rather than a string enum: the CLI checks input with TypeBox's Value, which ignores `enum`.
const EventList = Type.Array(Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event))), {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: `Any of ${WEBHOOK_EVENTS.join(', ')}`,
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'An https URL on a public address (loopback and private networks are refused)',
});
const WebhookId = Uuid('Webhook subscription id');

export const CreateWebhookBody = Type.Object({ url: Url, events: EventList });
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  webhook_id: WebhookId,
  url: Type.Optional(Url),
  events: Type.Optional(EventList),
  enabled: Type.Optional(
    Type.Boolean({
      description:
        'false stops deliveries (pending ones wait); true resumes them and clears the failure record of an automatic disable',
    }),
  ),
});
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookIdBody = Type.Object({ webhook_id: WebhookId });

export const ListDeliveriesBody = Type.Object({
  webhook_id: WebhookId,
  status: Type.Optional(
    Type.Union([Type.Literal(''), ...DELIVERY_STATUSES.map((s) => Type.Literal(s))], {
      description: 'Only deliveries in this status; "" = all',
    }),
  ),
});
export type ListDeliveriesInput = Static<typeof ListDeliveriesBody>;

export const ReplayDeliveryBody = Type.Object({ delivery_id: Uuid('Delivery id (the `webhook-id` header)') });

const webhookFields = {
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Type.String({ enum: [...WEBHOOK_EVENTS] })),
  status: Type.String({ enum: ['enabled', 'disabled'] }),
  disabled_reason: NullableField(
    Type.String({ description: 'Why the subscription was disabled automatically; null otherwise' }),
  ),
  failing_since: NullableField(
    Timestamp('The first failed attempt since the last delivered one; null while deliveries succeed'),
  ),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

export const WebhookSchema = Type.Object(webhookFields, {
  $id: 'Webhook',
  description: 'A subscription: where events are POSTed. Its secret is shown only when it is created.',
});
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({
      description:
        'The signing secret: `whsec_` + base64 of the HMAC key. Shown only in this response; store it to verify `webhook-signature`.',
    }),
  },
  { description: 'The new subscription with its signing secret' },
);
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

const AttemptSchema = Type.Object({
  at: Timestamp(),
  status_code: NullableField(Type.Integer({ description: 'The HTTP status answered; null when none was' })),
  error: NullableField(Type.String({ description: 'Why the attempt failed (status, timeout, refused address)' })),
  duration_ms: Type.Integer(),
});

export const DeliverySchema = Type.Object(
  {
    id: Uuid('The `webhook-id` header: the same on every attempt and replay'),
    webhook_id: Uuid(),
    event_type: Type.String({ enum: [...WEBHOOK_EVENTS] }),
    status: Type.String({ enum: [...DELIVERY_STATUSES] }),
    attempts: Type.Integer({ description: 'Attempts since it was queued (or last replayed)' }),
    next_attempt_at: NullableField(
      Timestamp('When it is tried next; null once delivered or failed, or while its subscription is disabled'),
    ),
    last_status_code: NullableField(Type.Integer()),
    last_error: NullableField(Type.String()),
    attempt_log: Type.Array(AttemptSchema, { description: 'The latest attempts, oldest first (at most 20)' }),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The body POSTed' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'WebhookDelivery' },
);
export type Delivery = Static<typeof DeliverySchema>;
export type DeliveryAttempt = Static<typeof AttemptSchema>;
