import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableField, Timestamp, Uuid } from '../http/responses.js';
import { ScreenAnswerSchema } from './flows-endpoint.screens.js';

/** What Meta holds for a number's Flows key, as Parley last heard it. */
export const KEY_STATUSES = ['not_set_up', 'valid', 'mismatch', 'missing_at_meta'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** How many of Meta's error notifications a number keeps: the person reads the latest, not a log. */
export const ERRORS_KEPT = 5;

/** Who answers a number's INIT, data_exchange and BACK requests. */
export const ANSWERERS = ['business_endpoint', 'parley'] as const;
export type Answerer = (typeof ANSWERERS)[number];

const ANSWERED_BY = Type.Union(
  ANSWERERS.map((answerer) => Type.Literal(answerer)),
  {
    description:
      "Who answers each screen: `business_endpoint`, the business's own HTTPS endpoint (`business_endpoint_url`, relayed signed); `parley`, Parley's screen table (`screen_answers`).",
  },
);

/** An error notification Meta's Flow client sent (its `data.error`), as kept. */
export const FlowsErrorNotificationSchema = Type.Object(
  {
    error: Type.String({ description: "Meta's error key, e.g. `payload-schema-error`" }),
    error_message: NullableField(Type.String({ description: "Meta's words" })),
    screen: NullableField(Type.String({ description: 'The screen the customer was on' })),
    flow_token: NullableField(Type.String()),
    received_at: Timestamp(),
  },
  { $id: 'FlowsErrorNotification' },
);

const KEY_STATUS =
  "`not_set_up`: no key pair yet (call set-up-flows-encryption); `valid`: Meta holds the number's public key, signed; `mismatch`: Meta says the key's signature does not match (after the number was registered again): set it up again; `missing_at_meta`: Meta holds no key for the number, or another one: set it up again.";

/** get-flows-endpoint's answer: a number's WhatsApp Flows data endpoint. */
export const FlowsEndpointSchema = Type.Object(
  {
    channel_id: Uuid(),
    endpoint_url: Type.String({
      description:
        "Where Meta sends this number's WhatsApp Flows data requests: give it as the Flow's endpoint URI (Meta's `endpoint_uri`).",
    }),
    key_status: Type.Union(
      KEY_STATUSES.map((status) => Type.Literal(status)),
      { description: KEY_STATUS },
    ),
    public_key: NullableField(
      Type.String({ description: 'The public key registered with Meta (PEM); the private key never leaves Parley' }),
    ),
    key_registered_at: NullableField(Timestamp()),
    key_checked_at: NullableField(Timestamp('When Meta last said what it holds')),
    business_endpoint_url: NullableField(
      Type.String({ description: "The business's own HTTPS endpoint that each screen's request is relayed to" }),
    ),
    answered_by: ANSWERED_BY,
    screen_answers: Type.Array(Type.Ref(ScreenAnswerSchema), {
      description: "Parley's screen table, used when `answered_by` is `parley` (set-flows-screen-answers).",
    }),
    error_notifications: Type.Array(Type.Ref(FlowsErrorNotificationSchema), {
      description: `The latest error notifications Meta's Flow client sent to the endpoint (a screen's data it could not use), newest first; the last ${ERRORS_KEPT} are kept.`,
    }),
  },
  { $id: 'FlowsEndpoint' },
);
export type FlowsEndpoint = Static<typeof FlowsEndpointSchema>;

/** set-flows-business-endpoint's answer: the endpoint, and the new signing secret shown this once. */
export const BusinessEndpointSetSchema = Type.Intersect([
  Type.Ref(FlowsEndpointSchema),
  Type.Object({
    signing_secret: NullableField(
      Type.String({
        description:
          'The signing secret of the relayed requests (`whsec_` + base64 of the HMAC key), shown only in this answer; null when the endpoint was removed.',
      }),
    ),
  }),
]);

export const ChannelBody = Type.Object(
  { channel_id: Uuid('The number (list-channels)') },
  { additionalProperties: false },
);

export const SetBusinessEndpointBody = Type.Object(
  {
    channel_id: Uuid('The number (list-channels)'),
    url: Nullable(
      Type.String({
        maxLength: 2048,
        description:
          'https on a public address (loopback and private-network addresses are refused here and, after DNS resolution, on every call); null removes it.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SetScreenAnswersBody = Type.Object(
  {
    channel_id: Uuid('The number (list-channels)'),
    answered_by: ANSWERED_BY,
    screen_answers: Type.Array(Type.Ref(ScreenAnswerSchema), {
      maxItems: 50,
      description:
        'One row per screen the customer submits, and one (`screen` null) for the Flow opening; kept when `answered_by` is `business_endpoint`, to switch back later.',
    }),
  },
  { additionalProperties: false },
);
