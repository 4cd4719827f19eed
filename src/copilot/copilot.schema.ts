import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Uuid } from '../http/responses.js';
import { TEXT_MAX_LENGTH } from '../messages/index.js';

/** How the copilot rewrites a draft: shorter, friendlier, or translated into the customer's language. */
export const REWRITE_STYLES = ['shorter', 'friendlier', 'translate'] as const;
export type RewriteStyle = (typeof REWRITE_STYLES)[number];

const ContactId = Uuid('The contact whose conversation it is');
const Model = Type.String({ description: 'The model that answered, as the endpoint names it' });
const Language = Type.String({
  description: 'The language of the text, as a BCP 47 tag (`en`, `es`, `pt-BR`) when the model names it so',
});

/** get-copilot-status' answer: whether the composer offers the copilot, and if not, why. */
export const CopilotStatusSchema = Type.Object(
  {
    available: Type.Boolean({ description: 'Whether the copilot can be asked now' }),
    reason: NullableField(
      Type.String({
        enum: ['not_configured', 'budget_exhausted'],
        description:
          '`not_configured`: the workspace has no AI model turned on (Settings → AI model); `budget_exhausted`: this month’s token budget is spent; null when available',
      }),
    ),
  },
  { $id: 'CopilotStatus' },
);
export type CopilotStatus = Static<typeof CopilotStatusSchema>;

/** A knowledge chunk a suggestion relies on, shown beside it so the agent can check it. */
export const CitationSchema = Type.Object(
  {
    chunk_id: Uuid('The knowledge chunk’s id'),
    source_id: Uuid('The knowledge source it is part of'),
    source_kind: Type.String({ description: 'The kind of source: a Q&A pair, a document, a template, a quick reply' }),
    source_title: Type.String(),
    heading: Type.String({ description: 'Where in the source the chunk is (a document’s headings); may be empty' }),
    text: Type.String({ description: 'The chunk’s text, as the model read it' }),
  },
  { $id: 'CopilotCitation' },
);
export type Citation = Static<typeof CitationSchema>;

export const SuggestReplyBody = Type.Object({ contact_id: ContactId });
export const SuggestedReplySchema = Type.Object(
  {
    reply: Type.String({ description: 'The draft: the agent edits it and sends it; nothing is sent' }),
    language: Language,
    citations: Type.Array(Type.Ref(CitationSchema), {
      description: 'The knowledge chunks the draft relies on (only chunks it was given); empty when none',
    }),
    model: Model,
  },
  { $id: 'SuggestedReply' },
);
export type SuggestedReply = Static<typeof SuggestedReplySchema>;

export const SummarizeConversationBody = Type.Object({
  contact_id: ContactId,
  language: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 35,
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
      description:
        'The language to write the summary in, as a BCP 47 tag (the dashboard sends its own); English by default',
    }),
  ),
});
export const ConversationSummarySchema = Type.Object(
  {
    summary: Type.String({ description: 'What the customer wants, what the business said or did, what is open' }),
    messages: Type.Integer({ description: 'How many of the latest messages it covers' }),
    earlier_left_out: Type.Boolean({
      description: 'Whether earlier messages were left out: a long thread is summarised from its latest messages',
    }),
    model: Model,
  },
  { $id: 'ConversationSummary' },
);
export type ConversationSummary = Static<typeof ConversationSummarySchema>;

export const RewriteDraftBody = Type.Object({
  contact_id: ContactId,
  text: Type.String({
    minLength: 1,
    maxLength: TEXT_MAX_LENGTH,
    description: 'The draft as the agent wrote it (WhatsApp markup passes through)',
  }),
  style: Type.Union(
    REWRITE_STYLES.map((style) => Type.Literal(style)),
    {
      description:
        '`shorter` or `friendlier` keep the draft’s language; `translate` writes it in the customer’s language: their contact’s `language` attribute when set, else the language of their messages',
    },
  ),
});
export const RewrittenDraftSchema = Type.Object(
  {
    text: Type.String({ description: 'The rewritten draft: the agent edits it and sends it; nothing is sent' }),
    language: Language,
    model: Model,
  },
  { $id: 'RewrittenDraft' },
);
export type RewrittenDraft = Static<typeof RewrittenDraftSchema>;

export type SuggestReplyInput = Static<typeof SuggestReplyBody>;
export type SummarizeConversationInput = Static<typeof SummarizeConversationBody>;
export type RewriteDraftInput = Static<typeof RewriteDraftBody>;
