import { Type, type Static } from '@sinclair/typebox';
import { pageSchema } from '../http/pagination.js';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** A contact as every endpoint returns it. */
/** The contact's latest answer to the business's request to call them on WhatsApp (Meta's call_permission_reply). */
export const CallPermissionSchema = Type.Object(
  {
    response: Type.Union([Type.Literal('accept'), Type.Literal('reject')]),
    permanent: Type.Boolean({ description: 'They allowed calls until they revoke it, not for a time' }),
    expires_at: NullableField(Timestamp('Until when calls are allowed; null when permanent or declined')),
    answered_at: Timestamp(),
    source: NullableField(
      Type.String({ description: "Meta's `response_source`: `user_action`, or `automatic` when they called first" }),
    ),
  },
  { $id: 'CallPermission', description: 'Null until they answer a call permission request' },
);
export type CallPermission = Static<typeof CallPermissionSchema>;

export const ContactSchema = Type.Object(
  {
    id: Uuid(),
    phone: Type.String({
      description:
        'E.164, e.g. +14155550100; for a WhatsApp sender whose wa_id is no valid number, that id with `+`; for a sender known only by a business-scoped user id, that id (replies go to it)',
    }),
    name: NullableField(Type.String()),
    email: NullableField(Type.String()),
    tags: Type.Array(Type.String(), { description: 'Tag names, alphabetical' }),
    custom_attributes: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Free attributes; `metadata` in create/update requests is merged into them',
    }),
    opted_out: Type.Boolean({
      description:
        'The contact opted out of marketing (a keyword such as STOP, the marketing opt-out button, their WhatsApp settings, or set here): campaigns, sequences and marketing templates skip them',
    }),
    last_message_at: NullableField(Timestamp('Latest message in either direction; null if never messaged')),
    wa_id: NullableField(
      Type.String({ description: "Meta's wa_id where it differs from the phone (e.g. Mexico's `521…` form)" }),
    ),
    bsuid: NullableField(
      Type.String({ description: "WhatsApp's business-scoped user id (e.g. `US.13491208655302741918`)" }),
    ),
    first_touch: NullableField(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'The click-to-WhatsApp ad `referral` of the first message that carried one, as Meta sent it',
      }),
    ),
    call_permission: NullableField(CallPermissionSchema),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Contact' },
);
export type Contact = Static<typeof ContactSchema>;

/** Integration tools send `""` for unmapped fields, so a reference may be empty (= absent). */
export const ContactId = Type.Union([Uuid(), Type.Literal('')], { description: 'Parley contact id' });
const PHONE_DESCRIPTION = 'International number; formatting is normalised (`+1 (415) 555-0100` = `+14155550100`)';
const Phone = Type.String({ minLength: 1, maxLength: 40, description: PHONE_DESCRIPTION, examples: ['+14155550100'] });
export const PhoneRef = Type.String({ maxLength: 40, description: PHONE_DESCRIPTION, examples: ['+14155550100'] });
const Tags = (description: string) =>
  Type.Union([Type.String({ maxLength: 4000 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })], {
    description,
  });
const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Merged into custom_attributes (shallow); a key set to null is removed',
});
const Name = Type.String({ maxLength: 256, description: 'The contact’s name, as the team sees it' });
const Email = Type.String({ maxLength: 320, description: 'An email address; `""` means none' });
const OptedOut = Type.Boolean({
  description: 'Opts the contact out of marketing (true) or back in (false); an existing opt-out keeps its date',
});

export const CreateContactBody = Type.Object({
  phone: Phone,
  name: Type.Optional(Name),
  email: Type.Optional(Email),
  tags: Type.Optional(
    Tags('Tag names, comma-separated (`"vip,fr"`) or an array; added to the contact, unknown tags are created'),
  ),
  metadata: Type.Optional(Metadata),
  opted_out: Type.Optional(OptedOut),
});
export type CreateContactInput = Static<typeof CreateContactBody>;

export const UpdateContactBody = Type.Object(
  {
    contact_id: Type.Optional(ContactId),
    phone: Type.Optional(PhoneRef),
    name: Type.Optional(Type.String({ maxLength: 256, description: 'New name; `""` clears it' })),
    email: Type.Optional(Type.String({ maxLength: 320, description: 'New email; `""` clears it' })),
    tags: Type.Optional(Tags('Tag names, comma-separated or an array; replaces the tag set, unknown tags are created')),
    metadata: Type.Optional(Metadata),
    opted_out: Type.Optional(OptedOut),
  },
  {
    description:
      'Identify the contact by `contact_id` or `phone`. With `contact_id`, a `phone` changes the number. Only fields present are written.',
  },
);
export type UpdateContactInput = Static<typeof UpdateContactBody>;

export const GetContactBody = Type.Object(
  {
    contact_id: Type.Optional(ContactId),
    phone: Type.Optional(PhoneRef),
    email: Type.Optional(Type.String({ maxLength: 320, description: 'The contact’s email, case-insensitive' })),
  },
  { description: 'Exactly one of contact_id, phone, email (empty strings count as absent)' },
);
export type GetContactInput = Static<typeof GetContactBody>;

export const SearchContactsBody = Type.Object({
  query: Type.Optional(
    Type.String({ maxLength: 256, description: 'Case-insensitive substring of name, phone or email' }),
  ),
  tag: Type.Optional(Type.String({ maxLength: 64, description: 'The contact carries this tag' })),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'Exact email, case-insensitive' })),
});
export type SearchContactsInput = Static<typeof SearchContactsBody>;

export const TagContactBody = Type.Object(
  {
    contact_id: Type.Optional(ContactId),
    phone: Type.Optional(PhoneRef),
    tag: Type.String({ minLength: 1, maxLength: 64, description: 'Tag name' }),
  },
  { description: 'Identify the contact by `contact_id` or `phone`' },
);
export type TagContactInput = Static<typeof TagContactBody>;

/** Names a contact: by id, or by phone. */
export interface ContactRef {
  contact_id?: string | undefined;
  phone?: string | undefined;
}

export const ContactList = Type.Array(Type.Ref(ContactSchema), { maxItems: 50 });

/** A page of search-contacts (`paginate=cursor`). */
export const ContactPage = pageSchema(Type.Ref(ContactSchema), 'ContactPage');
