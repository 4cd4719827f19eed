import { Type, type Static } from '@sinclair/typebox';
import { HELD_SEND_STATUSES } from '../../db/schema.js';
import { NullableField, Timestamp, Uuid } from '../../http/responses.js';
import { SenderSchema, TEXT_MAX_LENGTH } from '../message.schema.js';

/** A send an approval-mode token made, held until a person decides (decision 0160). */
export const HeldSendSchema = Type.Object(
  {
    id: Uuid('The held send; get-held-send follows it'),
    status: Type.String({
      enum: [...HELD_SEND_STATUSES],
      description:
        '`awaiting_approval`: nothing went out yet, a person will approve, edit or reject it; `approved`: sent, as `message_id`; `rejected`: never sent (`note` may say why); `expired`: nobody decided before `expires_at`, never sent',
    }),
    contact_id: Uuid('The contact it goes to'),
    type: Type.String({ description: 'The message type: text, template, image, interactive…' }),
    content: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The content as the agent proposed it (a person may have edited the text: see `edited`)',
    }),
    reasoning: NullableField(Type.String({ description: 'Why the agent sent it, as it said' })),
    created_at: Timestamp(),
    expires_at: Timestamp('When it expires unless a person decides first'),
    decided_at: NullableField(Timestamp('When it was approved, rejected or expired')),
    edited: Type.Boolean({ description: 'Approved with a person’s own text instead of the agent’s' }),
    note: NullableField(Type.String({ description: 'A rejection’s word to the agent, when the person gave one' })),
    message_id: NullableField(Uuid('Once approved: the message sent (get-message follows its delivery)')),
  },
  { $id: 'HeldSend' },
);
export type HeldSend = Static<typeof HeldSendSchema>;

export const GetHeldSendBody = Type.Object({
  held_send_id: Uuid('The id a send answered with status awaiting_approval'),
});

/** A held send as the thread shows it: who proposed it, and a line of it in the dashboard's words. */
export const PendingSendSchema = Type.Object({
  ...HeldSendSchema.properties,
  agent: SenderSchema,
  preview: Type.String({ description: 'One line of the content, in English (the dashboard words it itself)' }),
});
export type PendingSend = Static<typeof PendingSendSchema>;

export const ApproveBody = Type.Object({
  message: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TEXT_MAX_LENGTH,
      description: 'A text send only: the text to send instead of the agent’s',
    }),
  ),
});

export const RejectBody = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 500, description: 'Why, for the agent (get-held-send shows it)' })),
});
