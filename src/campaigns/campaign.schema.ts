import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { TemplateVariables } from '../messages/index.js';

/** scheduled → sending → sent; cancelled by request; failed when the template is unusable when due. */
export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'sent', 'cancelled', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The most contacts an explicit audience may name, and the most campaigns list-campaigns returns. */
export const AUDIENCE_CONTACTS_MAX = 10_000;
export const CAMPAIGN_LIST_CAP = 100;

const TagName = Type.String({ minLength: 1, maxLength: 64, description: 'Tag name (case-insensitive)' });

const SearchFields = {
  query: Type.Optional(
    Type.String({ maxLength: 256, description: 'Case-insensitive substring of name, phone or email; "" = no filter' }),
  ),
  tag: Type.Optional(Type.String({ maxLength: 64, description: 'Only contacts with this tag; "" = no filter' })),
  email: Type.Optional(
    Type.String({ maxLength: 320, description: 'Exact email address (case-insensitive); "" = no filter' }),
  ),
};

export const AudienceSchema = Type.Union(
  [
    Type.Object({ tag: TagName }, { additionalProperties: false, description: 'Every contact with this tag' }),
    Type.Object(
      {
        contact_ids: Type.Array(Uuid('Parley contact id'), {
          minItems: 1,
          maxItems: AUDIENCE_CONTACTS_MAX,
          description: 'Contacts of this workspace; duplicates are sent to once',
        }),
      },
      { additionalProperties: false, description: 'These contacts' },
    ),
    Type.Object(
      {
        search: Type.Object(SearchFields, {
          additionalProperties: false,
          description: 'search-contacts filters: query, tag, email',
        }),
      },
      {
        additionalProperties: false,
        description: 'Every contact a search-contacts with these filters matches (not capped at 50); {} = everyone',
      },
    ),
  ],
  {
    description:
      'Exactly one of `tag`, `contact_ids` or `search`. Resolved when the campaign is dispatched: contacts tagged or created until then are included.',
  },
);
export type Audience = Static<typeof AudienceSchema>;

/**
 * An audience as stored: one create-campaign takes, or a resend's (resend-campaign): the recipients
 * of another campaign whose message was sent or delivered but not read, resolved at dispatch.
 */
export type StoredAudience = Audience | { not_read_of: string };

const Variable = Type.String({
  maxLength: 1024,
  description:
    'A variable value; may use {{contact.name}}, {{contact.phone}}, {{contact.email}}, {{attributes.KEY}}, filled per recipient',
});

/** A template's variables as send-template-message takes them, with per-recipient placeholders. */
export const CampaignVariables = TemplateVariables(
  Variable,
  'Every variable keyed by the ids `/api/v1/dropdowns/template-variables` lists (`{"1":"{{contact.name}}","button_0_1":"ORD-1"}`), or the body placeholder values in order',
);
export type CampaignVariables = Static<typeof CampaignVariables>;

/** The business portfolio's messaging limit where a campaign sends, and the room it leaves (campaign.limit.ts). */
export const MessagingLimitSchema = Type.Object(
  {
    customers_per_24h: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal('unlimited')], {
      description: "Meta's limit: unique customers per moving 24 hours (250, 2000, 10000, 100000) or `unlimited`",
    }),
    used: Type.Integer({
      minimum: 0,
      description:
        "Unique customers the portfolio's numbers in this workspace reached with template messages in the last 24 hours",
    }),
    room: NullableField(Type.Integer({ minimum: 0, description: 'Customers it may still reach now; null: unlimited' })),
  },
  {
    description:
      'The messaging limit of the business portfolio (the WhatsApp Business Account) of the number it sends from (`from_phone_number_id`, else the default channel), as Meta last stated it; null when Meta has stated none',
  },
);

/** What a campaign does with recipients past the room its business portfolio's messaging limit leaves. */
export const OverLimit = Type.Union([Type.Literal('send'), Type.Literal('wait')], {
  description:
    "Recipients past the room left in the business portfolio's messaging limit (unique customers per moving 24 hours, the estimate's `messaging_limit`) when it is dispatched: `send` sends them all now (Meta refuses those past its limit), `wait` sends up to the room now and the rest as room returns (the campaign stays sending until then). Default `send`",
});

export const CreateCampaignBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'What the team calls the campaign' }),
  template_id: Uuid('A template of this workspace; the translation sent must be APPROVED'),
  language: Type.Optional(
    Type.String({ maxLength: 16, description: 'Translation to send; default: the one get-template shows' }),
  ),
  variables: Type.Optional(CampaignVariables),
  audience: AudienceSchema,
  header_media_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        "https URL of the image, video or document of a media header (as send-template-message takes it); default: the template's own sample",
    }),
  ),
  from_phone_number_id: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,30}$',
      description:
        "The workspace's number to send from (list-channels); default: each contact's conversation number, else the default channel",
    }),
  ),
  scheduled_at: Type.Optional(
    Type.Union([Timestamp(), Type.Literal('')], {
      description: 'When to send (ISO 8601 with an offset); absent, "" or in the past: now',
    }),
  ),
  over_limit: Type.Optional(OverLimit),
});
export type CreateCampaignInput = Static<typeof CreateCampaignBody>;

export const CampaignIdBody = Type.Object({ campaign_id: Uuid('Parley campaign id') });

export const ResendCampaignBody = Type.Object({
  campaign_id: Uuid('A sent campaign of this workspace'),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Default: the campaign’s name with “(resend)”' }),
  ),
  scheduled_at: CreateCampaignBody.properties.scheduled_at,
});
export type ResendCampaignInput = Static<typeof ResendCampaignBody>;

export const ListCampaignsBody = Type.Object({
  status: Type.Optional(
    Type.Union([...CAMPAIGN_STATUSES.map((status) => Type.Literal(status)), Type.Literal('')], {
      description: 'Only campaigns in this status; "" = all',
    }),
  ),
});

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const CampaignSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    status: Type.String({ enum: [...CAMPAIGN_STATUSES] }),
    template_id: NullableField(Uuid('Null once the template is deleted')),
    template_name: NullableField(Type.String()),
    language: NullableField(Type.String({ description: 'The translation sent, fixed when the campaign was created' })),
    variables: Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.String())], {
      description: 'As given (in order, or keyed by variable id): placeholders are filled per recipient',
    }),
    audience: Type.Object(
      {
        tag: Type.Optional(Type.String()),
        contact_ids: Type.Optional(Type.Array(Type.String())),
        search: Type.Optional(
          Type.Object({
            query: Type.Optional(Type.String()),
            tag: Type.Optional(Type.String()),
            email: Type.Optional(Type.String()),
          }),
        ),
        not_read_of: Type.Optional(
          Uuid(
            'A resend (resend-campaign): the recipients of this campaign whose message was sent or delivered but not read when it is dispatched',
          ),
        ),
      },
      { description: 'Exactly one of `tag`, `contact_ids`, `search`, as given, or `not_read_of` for a resend' },
    ),
    header_media_url: NullableField(
      Type.String({
        description: "The media header's https link; null: the template's own sample (or no media header)",
      }),
    ),
    channel_id: NullableField(
      Uuid(
        "The channel it sends from (from_phone_number_id); null: each contact's conversation number, else the default",
      ),
    ),
    over_limit: OverLimit,
    scheduled_at: NullableField(Timestamp('When it was scheduled to send; null: sent on creation')),
    sent_at: NullableField(
      Timestamp('When every message had left the outbox (sent or failed); the campaign then enters new-campaign-sent'),
    ),
    counts: Type.Object(
      {
        recipients: Count('Messages queued at dispatch: the audience less those skipped'),
        skipped: Count(
          'Audience members not messaged: opted out at dispatch, or a placeholder had no value for them (a contact without a name for {{contact.name}})',
        ),
        opted_out: Count('Of the skipped, those who had opted out of marketing when the campaign was dispatched'),
        queued: Count('Messages still waiting in the outbox'),
        sent: Count('Accepted by WhatsApp (delivered and read ones included)'),
        delivered: Count('Delivered to the phone (read ones included: a read message was delivered)'),
        read: Count('Read by the recipient'),
        failed: Count("Not delivered: Meta's error, or cancelled before it was sent"),
        replied: Count('Recipients who wrote in after the campaign was dispatched'),
      },
      {
        description:
          'Live. Statuses only move forward, so each count includes the messages that went further: sent ≥ delivered ≥ read (a read message is also counted as delivered and sent). `queued` and `failed` stand alone.',
      },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Campaign' },
);
export type Campaign = Static<typeof CampaignSchema>;

export const CampaignList = Type.Array(Type.Ref(CampaignSchema), {
  maxItems: CAMPAIGN_LIST_CAP,
  description: `Newest first; at most ${CAMPAIGN_LIST_CAP}`,
});
