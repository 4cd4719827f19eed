import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { ContactSchema } from './contact.schema.js';

// What the dashboard's contact endpoints answer (docs/dashboard-openapi.yaml).

/** One page of the contacts table. */
export const ContactTablePage = Type.Object({
  contacts: Type.Array(Type.Ref(ContactSchema)),
  next: NullableField(Type.String({ description: 'Opaque cursor for the next page; null on the last page' })),
});

export const TagsChanged = Type.Object({ changed: Type.Integer({ description: 'Contacts whose tags changed' }) });

/** A CSV import's outcome (or, with `dry_run`, what it would be). */
export const ImportResult = Type.Object({
  rows: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  duplicates: Type.Integer(),
  errors: Type.Array(
    Type.Object({
      row: Type.Integer(),
      field: Type.String(),
      message: Type.String(),
      phone: Type.String(),
      value: Type.String(),
    }),
  ),
});

export const PhoneCountries = Type.Array(
  Type.Object({ code: Type.String({ description: 'ISO 3166-1 alpha-2' }), calling_code: Type.String() }),
);

/** A run of a sequence or flow, as a contact's activity lists it. */
const Run = Type.Object({
  id: Uuid(),
  definition_id: Uuid(),
  name: Type.String(),
  status: Type.String(),
  ended_reason: NullableField(Type.String()),
  started_at: Timestamp(),
  updated_at: Timestamp(),
});

/** A contact's page: recent messages, sequence and flow runs, and campaigns sent to them. */
export const ContactActivity = Type.Object({
  messages: Type.Array(
    Type.Object({
      id: Uuid(),
      direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
      type: Type.String(),
      status: Type.String(),
      text: Type.String(),
      created_at: Timestamp(),
    }),
  ),
  sequences: Type.Array(Run),
  flows: Type.Array(Run),
  campaigns: Type.Array(Type.Object({ id: Uuid(), name: Type.String(), status: Type.String(), sent_at: Timestamp() })),
});
