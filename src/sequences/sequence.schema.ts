import { Type, type Static } from '@sinclair/typebox';
import { DurationSchema, SendingHoursSchema } from '../automation/schedule-time.js';
import { StateCountsSchema } from '../automation/state-counts.js';
import { ContactId, PhoneRef } from '../contacts/index.js';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { HeaderMediaUrl, TEXT_MAX_LENGTH, TemplateVariables } from '../messages/index.js';

const TagName = Type.String({ minLength: 1, maxLength: 64, description: 'A tag name (an unknown tag is created)' });
/** The `type` that names a step's action. */
const action = <K extends string>(type: K) => Type.Literal(type, { description: `The action: ${type}` });
const PlaceholderText = (maxLength: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    description: `${description}; may use {{contact.name}}, {{attributes.KEY}}, {{context.KEY}}`,
  });

export const SequenceActionSchema = Type.Union(
  [
    Type.Object(
      {
        type: action('send_template'),
        template_id: Uuid('An approved template of this workspace'),
        language: Type.Optional(
          Type.String({ maxLength: 16, description: 'Default: the translation get-template shows' }),
        ),
        variables: Type.Optional(
          TemplateVariables(
            PlaceholderText(1024, 'A variable value; may use {{contact.…}}, {{attributes.…}}, {{context.…}}'),
            'Keyed by the ids `/api/v1/dropdowns/template-variables` lists (`{"1": …, "button_0_1": …}`), or the body placeholder values in order',
          ),
        ),
        header_media_url: Type.Optional(HeaderMediaUrl),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: action('send_text'),
        text: PlaceholderText(TEXT_MAX_LENGTH, 'The text'),
        outside_window: Type.Optional(
          Type.Union([Type.Literal('skip'), Type.Literal('fail')], {
            description: 'Outside the 24-hour window: skip this step (default) or fail the enrolment',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: action('send_whatsapp_flow'),
        whatsapp_flow_id: Uuid('A published WhatsApp Flow of this workspace (list-whatsapp-flows)'),
        text: PlaceholderText(1024, 'The message text above the button that opens the Flow'),
        header: Type.Optional(PlaceholderText(60, 'A bold first line')),
        footer: Type.Optional(PlaceholderText(60, 'A grey last line')),
        cta: Type.String({ minLength: 1, maxLength: 30, description: 'The button that opens the Flow' }),
        screen: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'The screen it opens on; default: the first screen of its Flow JSON',
          }),
        ),
        outside_window: Type.Optional(
          Type.Union([Type.Literal('skip'), Type.Literal('fail')], {
            description: 'Outside the 24-hour window: skip this step (default) or fail the enrolment',
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'Sends a WhatsApp Flow (Meta’s form) as an interactive message: inside the 24-hour window only, as send_text. The sequence goes on without waiting; the answer is a reply like any other',
      },
    ),
    Type.Object({ type: action('add_tag'), tag: TagName }, { additionalProperties: false }),
    Type.Object({ type: action('remove_tag'), tag: TagName }, { additionalProperties: false }),
    Type.Object(
      { type: action('start_flow'), flow_id: Uuid('A flow of this workspace') },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: action('wait_for_reply'),
        timeout: DurationSchema,
        on_timeout: Type.Optional(
          Type.Union([Type.Literal('continue'), Type.Literal('exit')], {
            description: 'Without a reply by then: go on with the next step (default) or end the enrolment',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'What the step does' },
);
export type SequenceAction = Static<typeof SequenceActionSchema>;

export const SequenceStepSchema = Type.Object(
  {
    delay: Type.Optional(Type.Union([DurationSchema], { description: 'Wait before this step (default PT0S)' })),
    delay_from: Type.Optional(
      Type.Union([Type.Literal('previous'), Type.Literal('enrolment')], {
        description: 'The delay counts from the previous step (default) or from enrolment',
      }),
    ),
    within_sending_hours: Type.Optional(
      Type.Boolean({ description: "Run only inside the sequence's sending hours (moved to the next opening)" }),
    ),
    action: SequenceActionSchema,
  },
  { additionalProperties: false },
);
export type SequenceStep = Static<typeof SequenceStepSchema>;

export const ExitOnSchema = Type.Object(
  {
    reply: Type.Optional(Type.Boolean({ description: 'A reply from the contact ends the enrolment (default true)' })),
    tags: Type.Optional(Type.Array(TagName, { maxItems: 20, description: 'Getting any of these tags ends it' })),
  },
  { additionalProperties: false, description: 'Exit conditions; opting out always ends an enrolment' },
);

export const sequenceDefinitionFields = {
  steps: Type.Array(SequenceStepSchema, { minItems: 1, maxItems: 50, description: 'The steps, in the order they run' }),
  sending_hours: Type.Optional(SendingHoursSchema),
  exit_on: Type.Optional(ExitOnSchema),
};
export const SequenceDefinitionSchema = Type.Object(sequenceDefinitionFields, { additionalProperties: false });
export type SequenceDefinition = Static<typeof SequenceDefinitionSchema>;

export const SaveSequenceBody = Type.Object(
  {
    id: Type.Optional(Uuid('The sequence to replace; absent = a new one')),
    name: Type.String({ minLength: 1, maxLength: 200, description: 'What the team calls the sequence' }),
    ...sequenceDefinitionFields,
  },
  { additionalProperties: false },
);
export type SaveSequenceInput = Static<typeof SaveSequenceBody>;

export const GetSequenceBody = Type.Object({ sequence_id: Uuid('Parley sequence id') });

export const StopSequenceEnrolmentBody = Type.Object({
  enrolment_id: Uuid('The enrolment (the `id` trigger-sequence and new-sequence-triggered give)'),
});

export const TriggerSequenceBody = Type.Object(
  {
    sequence_id: Uuid('Parley sequence id'),
    contact_id: Type.Optional(ContactId),
    phone: Type.Optional(PhoneRef),
    context: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Free JSON object the steps read as {{context.KEY}}' }),
    ),
  },
  { description: 'Name the contact by `contact_id` or `phone`; an unknown phone becomes a new contact' },
);
export type TriggerSequenceInput = Static<typeof TriggerSequenceBody>;

export const ENROLMENT_STATES = ['active', 'waiting', 'completed', 'exited', 'failed'] as const;

export const SequenceSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    ...sequenceDefinitionFields,
    sending_hours: NullableField(SendingHoursSchema),
    enrolments: StateCountsSchema(
      ENROLMENT_STATES,
      'Enrolments by state: running (active), waiting for a reply, completed, exited, failed',
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Sequence' },
);
export type Sequence = Static<typeof SequenceSchema>;
