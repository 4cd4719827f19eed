import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AUDIENCE_CONTACTS_MAX, CAMPAIGN_STATUSES, CampaignVariables, OverLimit } from '../campaigns/index.js';
import { PortableKnowledgeSchema } from '../knowledge/index.js';
import { TemplateInputSchema, TranslationInputSchema } from '../templates/index.js';
import { AutomationEntrySchema } from './automation-data.js';

/** The pattern of a name that must not be blank (tag names are trimmed, so "  " would be no name). */
export const NOT_BLANK = '\\S';

const TagName = Type.String({ minLength: 1, maxLength: 64, pattern: NOT_BLANK });
const Phone = Type.String({ minLength: 3, maxLength: 40, description: 'International number; stored as E.164' });
/** A template translation's language code rule (the campaign sends one of them). */
const { minLength, maxLength, pattern } = TranslationInputSchema.properties.language;
const LANGUAGE = { minLength, maxLength, pattern };
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** create-campaign's audience, with contacts named by phone (ids differ from one workspace to the next). */
const CampaignAudienceSchema = Type.Union(
  [
    Type.Object({ tag: TagName }, { additionalProperties: false, description: 'Every contact with this tag' }),
    Type.Object(
      {
        contact_phones: Type.Array(Phone, {
          minItems: 1,
          maxItems: AUDIENCE_CONTACTS_MAX,
          description: 'Contacts of the workspace or of this document',
        }),
      },
      { additionalProperties: false, description: 'These contacts' },
    ),
    Type.Object(
      {
        search: Type.Object(
          {
            query: Type.Optional(Type.String({ maxLength: 256 })),
            tag: Type.Optional(Type.String({ maxLength: 64 })),
            email: Type.Optional(Type.String({ maxLength: 320 })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: "Every contact search-contacts' filters match; {} = everyone" },
    ),
  ],
  { description: 'Exactly one of `tag`, `contact_phones` or `search`, resolved when the campaign is dispatched' },
);

const CampaignEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK }),
    template_name: OrNull(
      Type.String({ minLength: 1, maxLength: 512, description: 'null: the template was deleted (history only)' }),
    ),
    language: Type.Optional(
      OrNull(Type.String({ ...LANGUAGE, description: 'The translation sent; default: the one get-template shows' })),
    ),
    variables: Type.Optional(CampaignVariables),
    audience: CampaignAudienceSchema,
    scheduled_at: Type.Optional(
      OrNull(Type.String({ format: 'date-time', description: 'ISO 8601 with an offset; null or past: at once' })),
    ),
    status: Type.Union(
      CAMPAIGN_STATUSES.map((status) => Type.Literal(status)),
      { description: 'Only `scheduled` campaigns are imported; the others are history, skipped' },
    ),
    over_limit: Type.Optional(OverLimit),
  },
  { additionalProperties: false },
);

/** A rate card the workspace imported (Reports → Message rates), as its export writes it. */
const RateCardEntrySchema = Type.Object(
  {
    effective_from: Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'The day it prices from (YYYY-MM-DD, the workspace’s time zone)',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217: the workspace prices in one currency' }),
    source: Type.String({ minLength: 1, maxLength: 200, description: 'Where it came from (the file’s name)' }),
    rates: Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Type.Number({ minimum: 0, maximum: 100_000 })),
      { description: 'Market (as Meta’s card names it) → pricing category (marketing, utility…) → price per message' },
    ),
  },
  { additionalProperties: false },
);

/**
 * The workspace-as-data format of `parley import` / `parley export`: a whole workspace's
 * configuration and contacts in one JSON document. Published as docs/workspace-data.schema.json
 * by scripts/generate-schemas.ts.
 */
export const WorkspaceDataSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'The JSON Schema this document follows (ignored on import)' })),
    version: Type.Literal(1, { description: 'Format version' }),
    tags: Type.Optional(
      Type.Array(Type.Object({ name: TagName }, { additionalProperties: false }), {
        description: 'Tags, also created implicitly by contacts that carry them; names compare case-insensitively',
      }),
    ),
    templates: Type.Optional(
      Type.Array(TemplateInputSchema, { description: 'Templates, upserted by name; translations by language' }),
    ),
    contacts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            phone: Phone,
            name: Type.Optional(Type.String({ maxLength: 256 })),
            email: Type.Optional(Type.String({ maxLength: 320, description: 'An email address; "" means none' })),
            tags: Type.Optional(
              Type.Array(TagName, {
                description: 'Added to the tags the contact already has; unknown tags are created',
              }),
            ),
            custom_attributes: Type.Optional(
              Type.Record(Type.String(), Type.Unknown(), {
                description: 'Merged into the existing attributes, one level deep; null removes a key',
              }),
            ),
            opted_out: Type.Optional(Type.Boolean({ description: 'The contact opted out of marketing messages' })),
          },
          { additionalProperties: false },
        ),
        { description: 'Contacts, upserted by phone: fields left out keep their current values' },
      ),
    ),
    flows: Type.Optional(
      Type.Array(AutomationEntrySchema, {
        description: 'Chatbot flows, upserted by name (imported before sequences, which may start them)',
      }),
    ),
    sequences: Type.Optional(Type.Array(AutomationEntrySchema, { description: 'Drip sequences, upserted by name' })),
    campaigns: Type.Optional(
      Type.Array(CampaignEntrySchema, {
        description:
          'Broadcast campaigns, oldest first, matched by name. A `scheduled` one is created, or replaces the definition of a campaign of that name that is still scheduled, and is sent when due; the others are history and are never re-sent',
      }),
    ),
    rate_cards: Type.Optional(
      Type.Array(RateCardEntrySchema, {
        description:
          'Rate cards by market, added unless the workspace has one from that day (never replaced); in the currency the workspace prices in',
      }),
    ),
    knowledge: Type.Optional(PortableKnowledgeSchema),
  },
  {
    $id: 'urn:parley:schema:workspace-data:v1',
    title: 'Parley workspace data',
    description:
      'A workspace as one document: `parley export` writes it, `parley import` upserts it (validated as a whole first, so a bad file changes nothing).',
    additionalProperties: false,
  },
);
export type WorkspaceData = Static<typeof WorkspaceDataSchema>;
/** One campaign of the document. */
export type CampaignEntry = Static<typeof CampaignEntrySchema>;
