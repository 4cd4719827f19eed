import { Type, type Static } from '@sinclair/typebox';
import { pageSchema } from '../http/pagination.js';
import { Nullable, NullableField, Timestamp, Uuid } from '../http/responses.js';
import { CODE_EXPIRATION_MINUTES, SUPPORTED_APPS_MAX } from './authentication.js';
import { PARAMETER_FORMATS } from './placeholders.js';

/** Meta's template statuses. */
export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const HEADER_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
/**
 * COPY_CODE: a coupon copied on tap; OTP: an authentication template's one-time-password button;
 * VOICE_CALL: calls the business on WhatsApp (Meta's Calling API; a static button, sent without parameters).
 * FLOW: opens a published WhatsApp Flow (Meta's "Sending a Flow"); each send gets its own flow_token.
 */
export const BUTTON_TYPES = ['URL', 'PHONE_NUMBER', 'QUICK_REPLY', 'COPY_CODE', 'OTP', 'VOICE_CALL', 'FLOW'] as const;
/** How a FLOW button opens its Flow: on `navigate_screen`, or as the Flow's data endpoint answers. */
export const FLOW_BUTTON_ACTIONS = ['navigate', 'data_exchange'] as const;
export const FOOTER_MAX_LENGTH = 60;
/** The server cap on list-templates. */
export const TEMPLATE_LIST_CAP = 1000;
/** list-templates' default page size with `paginate=cursor` (the cap is above the largest page). */
export const TEMPLATE_PAGE_LIMIT = 500;

const literals = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

const buttonFields = {
  type: literals(BUTTON_TYPES, `The button's kind: ${BUTTON_TYPES.join(', ')}`),
  text: Type.String({ minLength: 1, maxLength: 25, description: 'The label on the button' }),
  url: Type.Optional(Type.String({ maxLength: 2000, description: 'May contain one {{n}} placeholder' })),
  phone_number: Type.Optional(
    Type.String({ maxLength: 20, description: 'A PHONE_NUMBER button: the number it calls, in international form' }),
  ),
  otp_type: Type.Optional(
    Type.String({ maxLength: 20, description: "An OTP button's kind as Meta names it: COPY_CODE, ONE_TAP, ZERO_TAP" }),
  ),
  supported_apps: Type.Optional(
    Type.Array(
      Type.Object({
        package_name: Type.String({ minLength: 1, maxLength: 224, description: "The Android app's package name" }),
        signature_hash: Type.String({
          minLength: 11,
          maxLength: 11,
          description: "The app's 11-character signing key hash (Meta's SMS Retriever hash)",
        }),
      }),
      {
        minItems: 1,
        maxItems: SUPPORTED_APPS_MAX,
        description: 'A ONE_TAP or ZERO_TAP OTP button (required there): the Android apps that take the code',
      },
    ),
  ),
  zero_tap_terms_accepted: Type.Optional(
    Type.Boolean({ description: "A ZERO_TAP OTP button: the business accepted Meta's zero-tap terms" }),
  ),
  flow_id: Type.Optional(
    Type.String({
      pattern: '^\\d{1,30}$',
      description:
        "A FLOW button: the published Flow's Meta id (`meta_flow_id` of list-whatsapp-flows); or `flow_name`",
    }),
  ),
  flow_name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "A FLOW button: the Flow's name, instead of `flow_id`" }),
  ),
  flow_action: Type.Optional(
    Type.Union(
      FLOW_BUTTON_ACTIONS.map((v) => Type.Literal(v)),
      {
        description:
          'A FLOW button: `navigate` (default) opens `navigate_screen`; `data_exchange` asks its data endpoint',
      },
    ),
  ),
  navigate_screen: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z_]+$',
      description: "A FLOW button with `navigate`: the screen it opens on (an `id` of the Flow JSON's screens)",
    }),
  ),
};
export const ButtonSchema = Type.Object(buttonFields, { $id: 'TemplateButton' });
export type Button = Static<typeof ButtonSchema>;

/**
 * An authentication template's options as Meta names them ("Authentication templates"): Meta writes the
 * body and footer itself in the template's language, adding the security sentence and the expiry when asked.
 */
const securityRecommendation = (unset: string) =>
  Type.Boolean({
    description: `An authentication template: Meta adds "For your security, do not share this code." to the body${unset}`,
  });
const codeExpiration = (unset: string) =>
  Type.Integer({
    ...CODE_EXPIRATION_MINUTES,
    description: `An authentication template: the footer says the code expires in this many minutes (1–90)${unset}`,
  });
const authenticationInputs = {
  add_security_recommendation: Type.Optional(securityRecommendation('')),
  code_expiration_minutes: Type.Optional(codeExpiration('')),
};
const UNSET = '; null when not an authentication template or Meta did not say';

/** Meta's notice that it will recategorize a template (its template_category_update, a day ahead). */
export const CategoryNoticeSchema = Type.Object(
  {
    category: Type.String({ description: 'The category Meta will give the template' }),
    effective_at: Type.String({ format: 'date-time', description: 'When Meta will change it' }),
  },
  { description: "Meta's announced recategorization of this template; null when none is announced" },
);
export type CategoryNotice = Static<typeof CategoryNoticeSchema>;

/** The Template of spec §2, plus the additive `language` and `translations`. */
export const TemplateSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    category: Type.String({ description: 'MARKETING, UTILITY or AUTHENTICATION' }),
    category_notice: NullableField(CategoryNoticeSchema),
    message_send_ttl_seconds: NullableField(
      Type.Integer({
        description: "Meta's time-to-live of the template's messages, in seconds, as submitted; null: Meta's default",
      }),
    ),
    status: Type.String({ description: `Status of the translation shown: ${TEMPLATE_STATUSES.join(', ')}` }),
    language: Type.String({ description: 'Language of the translation shown (the first approved one, else any)' }),
    languages: Type.Array(Type.String(), { description: 'Language codes of all translations' }),
    body: Type.String({ description: 'Text with numbered placeholders {{n}}' }),
    header_type: NullableField(Type.String({ enum: [...HEADER_TYPES] })),
    header_content: Type.String({ description: 'Header text (TEXT) or media URL; "" when there is no header' }),
    footer: Type.Optional(Type.String({ maxLength: FOOTER_MAX_LENGTH })),
    buttons: Type.Array(Type.Ref(ButtonSchema)),
    placeholders: Type.Array(Type.String(), {
      description: 'Distinct placeholders of the body in the order values are given (numbers ascending, or names)',
    }),
    parameter_format: Type.String({
      enum: [...PARAMETER_FORMATS],
      description: 'POSITIONAL ({{1}}) or NAMED ({{first_name}}) placeholders',
    }),
    header_placeholders: Type.Array(Type.String(), { description: 'Placeholders of a TEXT header' }),
    button_placeholders: Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), placeholder: Type.String() }), {
      description: 'Values buttons take: a URL suffix placeholder, or `coupon_code` for a copy-code button',
    }),
    variables: Type.Array(Type.Object({ id: Type.String(), label: Type.String() }), {
      description:
        'Every key send-template-message `variables` needs: body placeholders, `header_<p>`, `offer_expiration_time_ms`, `button_<index>_<p>`',
    }),
    missing_capabilities: Type.Array(Type.String(), {
      description: 'What Parley cannot send in this template yet (e.g. "carousel"); empty when it can be sent',
    }),
    meta_template_id: NullableField(Type.String({ description: "Meta's id of the translation shown, once submitted" })),
    rejection_reason: NullableField(
      Type.String({ description: 'Why Meta rejected (or paused) the translation shown; null otherwise' }),
    ),
    quality_score: NullableField(
      Type.String({
        description: "Meta's quality score of the translation shown (GREEN, YELLOW, RED, UNKNOWN); null until rated",
      }),
    ),
    translations: Type.Array(Type.Object({ language: Type.String(), status: Type.String() }), {
      description: 'Every translation and its status',
    }),
    add_security_recommendation: NullableField(securityRecommendation(UNSET)),
    code_expiration_minutes: NullableField(codeExpiration(UNSET)),
    library_template_name: NullableField(
      Type.String({ description: 'The Meta Template Library template it was made from; null when it was not' }),
    ),
    created_at: Timestamp(),
  },
  { $id: 'Template' },
);
export type Template = Static<typeof TemplateSchema>;

export const GetTemplateBody = Type.Object({ template_id: Uuid('Parley template id') });

export const ListTemplatesBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 512, description: 'Case-insensitive substring of the name; "" = all' })),
  status: Type.Optional(
    Type.String({
      maxLength: 32,
      description: 'Only templates with a translation in this status (case-insensitive); "" = all',
    }),
  ),
});

export const TemplateList = Type.Array(Type.Ref(TemplateSchema), {
  maxItems: TEMPLATE_LIST_CAP,
  description: `Alphabetical by name; at most ${TEMPLATE_LIST_CAP}`,
});

/** A page of list-templates (`paginate=cursor`). */
export const TemplatePage = pageSchema(Type.Ref(TemplateSchema), 'TemplatePage');

/** Sample values Meta reviews a template with, keyed by the template-variables pick-list's ids. */
const Examples = Type.Record(
  Type.String({ pattern: '^(\\d+|header_1|button_\\d+_1)$' }),
  Type.String({ minLength: 1, maxLength: 1024 }),
  {
    description:
      'A sample value for every variable, which Meta requires to review a template: body placeholders "1", "2"…, "header_1" for a text header\'s variable, "button_<index>_1" for a URL button\'s',
    examples: [{ '1': 'Pablo', '2': '860198-230332', button_0_1: 'summer2023' }],
  },
);

/** A translation as imported or synced. */
export const TranslationInputSchema = Type.Object(
  {
    language: Type.String({
      minLength: 2,
      maxLength: 15,
      pattern: '^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,8})*$',
      description: 'The translation’s language code, as Meta names it: en_US, es, pt_BR…',
    }),
    status: literals(TEMPLATE_STATUSES, "Meta's review of the translation"),
    body: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The message text, with placeholders {{1}}, {{2}}… (or named ones with parameter_format NAMED)',
    }),
    header_type: Type.Optional(
      Nullable(literals(HEADER_TYPES, `The header's kind: ${HEADER_TYPES.join(', ')}; null: no header`)),
    ),
    header_content: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          description: 'A TEXT header’s text (may hold {{1}}), or a media header’s sample URL',
        }),
      ),
    ),
    footer: Type.Optional(
      Nullable(
        Type.String({ maxLength: FOOTER_MAX_LENGTH, description: 'Small grey text under the body; null: none' }),
      ),
    ),
    buttons: Type.Optional(
      Type.Array(Type.Object(buttonFields, { additionalProperties: false }), {
        maxItems: 10,
        description: 'The buttons under the message, in order',
      }),
    ),
    parameter_format: Type.Optional(
      literals(PARAMETER_FORMATS, 'How placeholders are written: POSITIONAL ({{1}}) or NAMED ({{first_name}})'),
    ),
    ...authenticationInputs,
    library_template_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'The Meta Template Library template it was made from' }),
    ),
    other_components: Type.Optional(
      Type.Array(
        Type.Object({
          type: Type.String({ minLength: 1, maxLength: 40, description: "The component's type, as Meta names it" }),
        }),
        {
          maxItems: 10,
          description:
            "Meta's components beyond header, body, footer and buttons, kept whole (LIMITED_TIME_OFFER, CAROUSEL)",
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TranslationInput = Static<typeof TranslationInputSchema>;

export const TemplateInputSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 512,
      pattern: '^[a-z0-9_]+$',
      description: "Meta's rule: lower case, digits, _",
    }),
    category: literals(
      TEMPLATE_CATEGORIES,
      `What Meta charges and allows the template as: ${TEMPLATE_CATEGORIES.join(', ')}`,
    ),
    translations: Type.Array(TranslationInputSchema, {
      minItems: 1,
      maxItems: 100,
      description: 'One per language',
    }),
  },
  { additionalProperties: false },
);
export type TemplateInput = Static<typeof TemplateInputSchema>;

/** A translation to submit to Meta: its status is Meta's to give; sample values for Meta's review. */
export const SubmittedTranslationSchema = Type.Composite(
  [
    Type.Omit(TranslationInputSchema, ['status', 'library_template_name']),
    Type.Object({ examples: Type.Optional(Examples) }),
  ],
  { additionalProperties: false },
);
export type SubmittedTranslation = Static<typeof SubmittedTranslationSchema>;

const submittedTranslations = Type.Array(SubmittedTranslationSchema, {
  minItems: 1,
  maxItems: 100,
  description: 'Each translation (language) is submitted to Meta for review on its own',
});

/**
 * Meta's time-to-live of a template's messages (`message_send_ttl_seconds`), in Meta's range for its
 * category: developers.facebook.com/documentation/business-messaging/whatsapp/templates/time-to-live.
 */
export const TTL_RANGES: Record<(typeof TEMPLATE_CATEGORIES)[number], { min: number; max: number }> = {
  AUTHENTICATION: { min: 30, max: 900 },
  UTILITY: { min: 30, max: 43_200 },
  // Marketing templates' TTL applies to messages sent through Meta's Marketing Messages API only.
  MARKETING: { min: 43_200, max: 2_592_000 },
};

const MessageSendTtl = Type.Optional(
  Type.Integer({
    description:
      "How long Meta tries to deliver the template's messages, in seconds (Meta's `message_send_ttl_seconds`): AUTHENTICATION 30–900, UTILITY 30–43200, MARKETING 43200–2592000 (marketing: through the Marketing Messages API only). Omitted: Meta's default (10 minutes for authentication, else 30 days), or unchanged on update.",
  }),
);

/** Meta's "Template Library": what a library template's buttons take (`library_template_button_inputs`). */
const LibraryButtonInput = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      maxLength: 20,
      description: "The button Meta's library template has: URL, PHONE_NUMBER, OTP…",
    }),
    url: Type.Optional(
      Type.Object(
        {
          base_url: Type.String({
            minLength: 1,
            maxLength: 2000,
            description: 'The URL, with {{1}} where a send fills it',
          }),
          url_suffix_example: Type.Optional(
            Type.String({ minLength: 1, maxLength: 2000, description: 'A whole sample URL, for a URL with {{1}}' }),
          ),
        },
        { additionalProperties: false, description: 'A URL button: its link' },
      ),
    ),
    phone_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'A PHONE_NUMBER button: the number it calls' }),
    ),
    otp_type: buttonFields.otp_type,
    supported_apps: buttonFields.supported_apps,
    zero_tap_terms_accepted: buttonFields.zero_tap_terms_accepted,
  },
  { additionalProperties: false },
);

/** Meta's "Template Library": the optional parts of a library template's body (`library_template_body_inputs`). */
const LibraryBodyInputs = Type.Object(
  {
    add_contact_number: Type.Optional(Type.Boolean({ description: 'Add the sentence with a number to call' })),
    add_learn_more_link: Type.Optional(Type.Boolean({ description: 'Add the sentence with a link to learn more' })),
    add_track_package_link: Type.Optional(
      Type.Boolean({ description: 'Add the sentence with a link to track the package' }),
    ),
    ...authenticationInputs,
  },
  { additionalProperties: false, description: "The optional sentences of the library template's body to include" },
);

/** What create-template takes to make a template from Meta's Template Library (Meta writes its content). */
export const libraryTemplateFields = {
  library_template_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        "Instead of translations: a template of Meta's Template Library, created in `language`; its content comes from Meta",
    }),
  ),
  language: Type.Optional(TranslationInputSchema.properties.language),
  library_template_button_inputs: Type.Optional(
    Type.Array(LibraryButtonInput, {
      maxItems: 10,
      description: "What the library template's buttons take, one per button, in order",
    }),
  ),
  library_template_body_inputs: Type.Optional(LibraryBodyInputs),
};

/** create-template: translations written here, or one translation of a Template Library template. */
export const CreateTemplateBody = Type.Object(
  {
    name: TemplateInputSchema.properties.name,
    category: TemplateInputSchema.properties.category,
    message_send_ttl_seconds: MessageSendTtl,
    translations: Type.Optional(submittedTranslations),
    ...libraryTemplateFields,
  },
  { additionalProperties: false },
);
export type LibraryTemplateRequest = Required<Pick<CreateTemplateInput, 'library_template_name' | 'language'>> &
  Pick<CreateTemplateInput, 'library_template_button_inputs' | 'library_template_body_inputs'>;
export type CreateTemplateInput = Static<typeof CreateTemplateBody>;

/** update-template: translations are matched by language (a new language is submitted as new). */
export const UpdateTemplateBody = Type.Object(
  {
    template_id: Uuid('Parley template id'),
    category: TemplateInputSchema.properties.category,
    message_send_ttl_seconds: MessageSendTtl,
    translations: submittedTranslations,
  },
  { additionalProperties: false },
);
export type UpdateTemplateInput = Static<typeof UpdateTemplateBody>;

export const DeletedTemplate = Type.Object({
  deleted: Type.Array(Type.String(), { description: 'Languages of the translations deleted' }),
});

/** delete-template: the whole template (every language), or one translation. */
export const DeleteTemplateBody = Type.Object(
  {
    template_id: Uuid('Parley template id'),
    language: Type.Optional(
      Type.String({ minLength: 2, maxLength: 15, description: 'Deletes only this translation; omit for all' }),
    ),
  },
  { additionalProperties: false },
);
export type DeleteTemplateInput = Static<typeof DeleteTemplateBody>;
