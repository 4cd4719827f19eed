import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableField, Timestamp, Uuid } from '../http/responses.js';

/** What Meta holds for a number's Flows key, as Parley last heard it. */
export const KEY_STATUSES = ['not_set_up', 'valid', 'mismatch', 'missing_at_meta'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

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
