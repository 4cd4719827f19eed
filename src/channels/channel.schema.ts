import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Uuid } from '../http/responses.js';
import { errors } from '../shared/errors.js';
import { channelProblems } from './channel.problems.js';
import type { NewChannel } from './channel.service.js';

const Digits = (description: string) => Type.String({ maxLength: 40, description });
const Provider = Type.Union([Type.Literal('simulator'), Type.Literal('whatsapp-cloud')], {
  description: '`whatsapp-cloud` (a number of a WhatsApp Business Account) or `simulator` (nothing leaves Parley)',
});

/** A workspace's channel: one business number (or the simulator), as the API shows it. */
export const ChannelSchema = Type.Object(
  {
    id: NullableField(Uuid('null: the built-in simulator of a workspace that has no channel')),
    provider: Provider,
    phone_number_id: NullableField(Digits("Meta's phone number id; sends name it as `from_phone_number_id`")),
    display_phone_number: NullableField(Type.String({ description: 'The number as Meta displays it' })),
    verified_name: NullableField(Type.String({ description: 'The business name Meta verified for the number' })),
    waba_id: NullableField(Digits('The WhatsApp Business Account id')),
    access_token_set: Type.Boolean({ description: 'The access token is saved (it is never shown)' }),
    messages_per_second: Type.Integer({
      description:
        "Sends are paced to this many per second on this number; 0: no limit. A number also used in the WhatsApp Business app is paced at Meta's 20 at most, whatever was set",
    }),
    is_default: Type.Boolean({
      description:
        'Sends that name no number, to contacts who never wrote to one of the numbers, go out on the default',
    }),
    quality_rating: NullableField(Type.String({ description: "Meta's quality rating: GREEN, YELLOW, RED or UNKNOWN" })),
    messaging_limit_tier: NullableField(
      Type.String({
        description: "Meta's messaging limit tier (e.g. TIER_1K), from its phone_number_quality_update webhooks",
      }),
    ),
    business_app: Type.Boolean({
      description:
        'The business also uses this number in the WhatsApp Business app (coexistence): set once Meta sends its echoes, chat history or contact book',
    }),
    history_import: NullableField(
      Type.Object(
        {
          progress: Type.Integer({ minimum: 0, maximum: 100, description: "Meta's overall progress; 100: complete" }),
          phase: NullableField(
            Type.Integer({
              description:
                "The latest chunk's phase: 0 (the last day), 1 (the 90 days before), 2 (the 90 before those)",
            }),
          ),
          chunks: Type.Integer({ minimum: 0, description: 'Chunks received' }),
          messages: Type.Integer({
            minimum: 0,
            description: 'Messages imported (a chunk delivered twice counts once)',
          }),
          declined: NullableField(
            Type.String({ description: "Meta's reason when the business declined to share its chat history" }),
          ),
          updated_at: Type.String({ format: 'date-time', description: 'When the latest chunk arrived' }),
        },
        { description: "The import of the WhatsApp Business app's chat history; null before Meta sends any" },
      ),
    ),
    disconnection: NullableField(
      Type.Object(
        {
          event: Type.String({ description: "Meta's account_update event, e.g. PARTNER_REMOVED" }),
          at: Type.String({ format: 'date-time', description: 'When Meta reported it' }),
          info: NullableField(
            Type.Record(Type.String(), Type.Unknown(), { description: "Meta's `disconnection_info`, whole" }),
          ),
        },
        {
          description:
            "Meta took the number's account from this app (account_update): its messages wait, queued, until the number is connected again (Meta reconnects it, or its channel is saved again). Null while connected",
        },
      ),
    ),
    account_status: Type.Object(
      {
        violation: AccountFactField('ACCOUNT_VIOLATION', '`violation_info` (`violation_type`)'),
        restriction: AccountFactField('ACCOUNT_RESTRICTION', '`restriction_info` (`restriction_type`, `expiration`)'),
        ban: AccountFactField('DISABLED_UPDATE', '`ban_info` (`waba_ban_state`, `waba_ban_date`)'),
        pricing_tier: AccountFactField(
          'VOLUME_BASED_PRICING_TIER_UPDATE',
          '`volume_tier_info` (`pricing_category`, `region`, `tier`, `effective_month`, `tier_update_time`)',
        ),
        auth_international_eligibility: AccountFactField(
          'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
          '`auth_international_rate_eligibility` (`start_time`, `exception_countries`)',
        ),
        verified: AccountFactField('VERIFIED_ACCOUNT', 'none (null)'),
        business_verification: AccountFactField(
          'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE',
          '`partner_client_certification_info` (`status`, `rejection_reasons`)',
        ),
      },
      {
        description:
          "Meta's latest word on the number's WhatsApp Business Account, from its account_update webhooks: one entry per subject Meta has spoken of (absent before), each the latest by Meta's time",
      },
    ),
    portfolio_limit: NullableField(
      Type.Object(
        {
          customers_per_24h: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal('unlimited')], {
            description:
              "Unique customers the portfolio's numbers may reach with business-initiated (template) messages in a moving 24 hours: 250, 2000, 10000, 100000 or `unlimited`",
          }),
          event: NullableField(
            Type.String({
              description:
                "Meta's event when a number's phone_number_quality_update said it (UPGRADE, DOWNGRADE, FLAGGED, UNFLAGGED, ONBOARDING…); null from a business_capability_update",
            }),
          ),
          previous: NullableField(
            Type.String({ description: 'The limit before, as Meta put it (`old_limit`, e.g. TIER_250), when it said' }),
          ),
          max_phone_numbers: NullableField(
            Type.Integer({ description: 'Business numbers the portfolio may have, when Meta said' }),
          ),
          updated_at: Type.String({ format: 'date-time', description: 'When Meta said it' }),
        },
        {
          description:
            "The messaging limit Meta last stated for the business portfolio (shared by all the WhatsApp Business Account's numbers), from its business_capability_update and phone_number_quality_update webhooks; null until Meta says",
        },
      ),
    ),
  },
  { $id: 'Channel' },
);

/** One subject of account_status: the latest account_update event on it, when, and Meta's details. */
function AccountFactField(event: string, details: string) {
  return Type.Optional(
    Type.Object(
      {
        event: Type.String({ description: `Meta's account_update event: ${event}` }),
        at: Type.String({ format: 'date-time', description: 'When Meta reported it' }),
        info: Type.Unknown({ description: `Meta's details, whole: ${details}` }),
      },
      { description: `From account_update ${event}` },
    ),
  );
}

export const ChannelList = Type.Object({ channels: Type.Array(Type.Ref(ChannelSchema)) });

/** The fields that connect a channel (add-channel, and the dashboard's Settings → Channel). */
export const ChannelFields = {
  provider: Provider,
  phone_number_id: Type.Optional(
    Digits(
      "Meta's phone number id (required by add-channel, a simulated number's too; only the built-in simulator has none)",
    ),
  ),
  waba_id: Type.Optional(Digits('The WhatsApp Business Account id (whatsapp-cloud)')),
  access_token: Type.Optional(
    Type.String({
      maxLength: 4096,
      description:
        'A system user token with whatsapp_business_messaging (whatsapp-cloud); stored encrypted, never shown',
    }),
  ),
  messages_per_second: Type.Optional(Type.Integer({ description: 'Pacing of this number (default 80; 0: no limit)' })),
};

export const AddChannelBody = Type.Object(
  {
    ...ChannelFields,
    default: Type.Optional(
      Type.Boolean({ description: "Make it the workspace's default channel (the first channel always is)" }),
    ),
  },
  {
    description:
      'A WhatsApp Cloud number is saved only once Meta confirms, with the given token, that it is the WABA’s',
  },
);
export type AddChannelInput = Static<typeof AddChannelBody>;

export const RemoveChannelBody = Type.Object({ channel_id: Uuid('The channel to remove (list-channels)') });

/** A request's channel fields as the service takes them; a Cloud number's missing field is named. */
export function newChannelOf(body: Static<typeof AddChannelBody>, savedAccessToken = ''): NewChannel {
  const phoneNumberId = body.phone_number_id?.trim() || undefined;
  if (body.provider === 'simulator') return { provider: 'simulator', ...(phoneNumberId && { phoneNumberId }) };
  const accessToken = body.access_token?.trim() || savedAccessToken;
  const missing = [
    ['phone_number_id', phoneNumberId],
    ['waba_id', body.waba_id?.trim()],
    ['access_token', accessToken],
  ].find(([, value]) => !value);
  if (missing) throw errors.invalid(channelProblems.problem(missing[0]!, 'required_for_cloud'));
  return {
    provider: 'whatsapp-cloud',
    phoneNumberId: phoneNumberId!,
    wabaId: body.waba_id!,
    accessToken,
    ...(body.messages_per_second !== undefined && { messagesPerSecond: body.messages_per_second }),
  };
}
