import { Type } from '@sinclair/typebox';
import { actionFamily } from '../http/action-family.js';
import type { Api } from '../http/types.js';
import {
  CitationSchema,
  ConversationSummarySchema,
  CopilotStatusSchema,
  RewriteDraftBody,
  RewrittenDraftSchema,
  SuggestedReplySchema,
  SuggestReplyBody,
  SummarizeConversationBody,
} from './copilot.schema.js';
import type { CopilotService } from './copilot.service.js';

const ABOUT =
  'The copilot helps the person answering a conversation with the workspace’s own AI model (save-ai-settings): it only answers text for them to edit and send themselves; it never sends anything nor changes the conversation. Its calls count as `copilot` in get-ai-usage. Without a model turned on it answers 422 `ai_model_not_configured`; with this month’s budget spent, 429 `ai_budget_exhausted`; when the model fails, 502 `ai_model_failed`, is rate limiting 503 `ai_model_rate_limited` (Retry-After), or takes longer than its timeout, 504 `ai_model_timeout`.';

/** The statuses the model's failures are answered with (a gateway's: the model is a server Parley calls). */
const MODEL_ERRORS = [502, 503, 504];

/** get-copilot-status, suggest-reply, summarize-conversation, rewrite-draft. */
export function registerCopilotRoutes(app: Api, copilot: CopilotService): void {
  app.addSchema(CopilotStatusSchema);
  app.addSchema(CitationSchema);
  app.addSchema(SuggestedReplySchema);
  app.addSchema(ConversationSummarySchema);
  app.addSchema(RewrittenDraftSchema);
  // The copilot is the composer's: whoever answers conversations may ask it.
  const action = actionFamily(app, { tags: ['Copilot'], permission: 'conversations', about: ABOUT });

  action(
    'get-copilot-status',
    {
      operationId: 'getCopilotStatus',
      summary: 'Whether the copilot can be asked: the AI model is on and this month’s budget is not spent',
      description:
        'What the inbox’s composer reads to offer the copilot or not. Readable by every role that answers conversations (the model’s settings themselves need manage_workspace). Calls no model.',
      body: Type.Object({}),
      response: Type.Ref(CopilotStatusSchema),
      errors: [],
    },
    'read',
    (caller) => copilot.status(caller),
  );
  action(
    'suggest-reply',
    {
      operationId: 'suggestReply',
      summary: 'A draft reply to the customer, from the knowledge and the conversation',
      description:
        'Reads the conversation’s latest messages and searches the workspace’s knowledge with what the customer last asked, then drafts the business’s next message in the customer’s language (their contact’s `language` attribute, else the language they write in), stating only what the knowledge says: no price, refund, date or promise it does not state. `citations` are the knowledge chunks the draft relies on, to show beside it. A conversation without messages is a 422 `conversation_empty`.',
      body: SuggestReplyBody,
      response: Type.Ref(SuggestedReplySchema),
      errors: [404, ...MODEL_ERRORS],
    },
    'read',
    (caller, body) => copilot.suggestReply(caller, body),
  );
  action(
    'summarize-conversation',
    {
      operationId: 'summarizeConversation',
      summary: 'A short summary of the conversation, for a person taking it over',
      description:
        'What the customer wants, what the business said or did and what is still open, in a few sentences, in `language` (English by default). A long thread is summarised from its latest messages (up to 200, and as many as fit the model’s share); `earlier_left_out` says so. A conversation without messages is a 422 `conversation_empty`.',
      body: SummarizeConversationBody,
      response: Type.Ref(ConversationSummarySchema),
      errors: [404, ...MODEL_ERRORS],
    },
    'read',
    (caller, body) => copilot.summarize(caller, body),
  );
  action(
    'rewrite-draft',
    {
      operationId: 'rewriteDraft',
      summary: 'The agent’s draft rewritten: shorter, friendlier, or in the customer’s language',
      description:
        'Keeps the draft’s meaning and facts and adds none. `translate` writes it in the customer’s language: their contact’s `language` attribute when set, else the language of their latest messages (a customer who never wrote, without the attribute, is a 422 `customer_language_unknown`).',
      body: RewriteDraftBody,
      response: Type.Ref(RewrittenDraftSchema),
      errors: [404, ...MODEL_ERRORS],
    },
    'read',
    (caller, body) => copilot.rewrite(caller, body),
  );
}
