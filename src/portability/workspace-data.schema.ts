import { Type, type Static } from '@sinclair/typebox';
import { TemplateInputSchema } from '../templates/template.schema.js';

/**
 * The workspace-as-data format of `parley import` / `parley export`: a whole workspace's
 * configuration and contacts in one JSON document. Published as docs/workspace-data.schema.json.
 */
export const WorkspaceDataSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    version: Type.Literal(1, { description: 'Format version' }),
    tags: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }), {
        description: 'Tags, also created implicitly by contacts that carry them',
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
            email: Type.Optional(Type.String({ maxLength: 320 })),
            tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }))),
            custom_attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
            opted_out: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        { description: 'Contacts, upserted by phone' },
      ),
    ),
  },
  {
    $id: 'urn:parley:schema:workspace-data:v1',
    title: 'Parley workspace data',
    additionalProperties: false,
  },
);
export type WorkspaceData = Static<typeof WorkspaceDataSchema>;
