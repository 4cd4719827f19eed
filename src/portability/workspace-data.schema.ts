import { Type, type Static } from '@sinclair/typebox';
import { TemplateInputSchema } from '../templates/template.schema.js';
import { AutomationEntrySchema } from './automation-data.js';

/** The pattern of a name that must not be blank (tag names are trimmed, so "  " would be no name). */
export const NOT_BLANK = '\\S';

const TagName = Type.String({ minLength: 1, maxLength: 64, pattern: NOT_BLANK });

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
            phone: Type.String({ minLength: 3, maxLength: 40, description: 'International number; stored as E.164' }),
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
            opted_out: Type.Optional(Type.Boolean({ description: 'The contact opted out of messages' })),
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
