import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../http/responses.js';

/** Saved answers per workspace; a workspace keeps at most this many. */
export const QUICK_REPLIES_MAX = 500;

const Shortcut = Type.String({
  minLength: 1,
  maxLength: 33,
  description:
    'What is typed after `/` in the composer: lowercase letters, digits, `-` and `_`, up to 32 (a leading `/` is dropped)',
  examples: ['hours'],
});
const Body = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'The answer it inserts (WhatsApp markup passes through)',
});

export const QuickReplySchema = Type.Object(
  {
    id: Uuid(),
    shortcut: Type.String({ examples: ['hours'] }),
    body: Type.String(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'QuickReply' },
);
export type QuickReply = Static<typeof QuickReplySchema>;

export const ListQuickRepliesBody = Type.Object({
  query: Type.Optional(
    Type.String({ maxLength: 100, description: 'Case-insensitive substring of the shortcut or the answer; "" = all' }),
  ),
});
export const CreateQuickReplyBody = Type.Object({ shortcut: Shortcut, body: Body });
const QuickReplyId = Uuid('The quick reply, by its id from list-quick-replies');
export const UpdateQuickReplyBody = Type.Object({
  quick_reply_id: QuickReplyId,
  shortcut: Type.Optional(Shortcut),
  body: Type.Optional(Body),
});
export const QuickReplyIdBody = Type.Object({ quick_reply_id: QuickReplyId });

export type CreateQuickReplyInput = Static<typeof CreateQuickReplyBody>;
export type UpdateQuickReplyInput = Static<typeof UpdateQuickReplyBody>;
