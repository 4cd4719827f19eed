import {
  ModelUnavailable,
  modelProblem,
  type AiModels,
  type AiSettingsService,
  type ChatMessage,
} from '../ai-models/index.js';
import { contactRepository, type ContactRow } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import { latestMessages, TEXT_MAX_LENGTH } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import {
  REWRITE_SCHEMA,
  rewritePrompt,
  SUGGESTION_SCHEMA,
  suggestReplyPrompt,
  SUMMARY_SCHEMA,
  summaryPrompt,
} from './copilot.prompts.js';
import type {
  Citation,
  ConversationSummary,
  CopilotStatus,
  RewriteDraftInput,
  RewrittenDraft,
  SuggestedReply,
  SuggestReplyInput,
  SummarizeConversationInput,
} from './copilot.schema.js';
import { copilotProblems } from './copilot.problems.js';
import { customerLanguage, describeLanguage } from './customer-language.js';
import { newestWithin, openQuestion, transcriptOf, type TranscriptLine } from './transcript.js';

/** A chunk of the workspace's knowledge, as retrieval ranks it (src/knowledge/'s KnowledgeMatch has these). */
export interface KnowledgeChunk {
  id: string;
  source_id: string;
  source_kind: string;
  source_title: string;
  heading: string;
  text: string;
}

/** What the copilot asks of the knowledge (src/knowledge/, injected in services.ts). */
export interface CopilotKnowledge {
  retrieve(workspaceId: string, query: string, options: { limit: number }): Promise<{ chunks: KnowledgeChunk[] }>;
}

/** How much of the conversation each action reads: the latest messages, then the newest that fit in so many characters. */
const READS = {
  suggest: { messages: 30, chars: 12_000 },
  summary: { messages: 200, chars: 24_000 },
  translate: { messages: 30, chars: 4_000 },
} as const;
/** The knowledge chunks a suggestion is given. */
const CHUNKS = 5;
/** The customer's messages a translation is shown to judge their language by. */
const LANGUAGE_SAMPLE = 5;
/** The most tokens each answer may take: a WhatsApp message, a short summary, a rewritten 4,096-character draft. */
const MAX_TOKENS = { suggest: 800, summary: 600, rewrite: 2_000 } as const;

/**
 * The copilot: helps a person of the team answer a conversation (a suggested reply from the knowledge,
 * a summary, a rewrite of their draft). It only ever answers text for the person to edit; nothing it
 * does sends a message or changes the conversation.
 */
export function createCopilotService(
  deps: Deps,
  model: Pick<AiModels, 'chat'>,
  knowledge: CopilotKnowledge,
  settings: Pick<AiSettingsService, 'get' | 'usage'>,
) {
  /** The conversation's contact: a 404 for one not in the caller's workspace, as for an unknown one. */
  async function contactOf(caller: Caller, contactId: string) {
    const contact = await contactRepository(deps.reads).findById(caller.workspaceId, contactId);
    if (!contact) throw errors.notFound('contact', 'contact_id');
    return contact;
  }

  /** The contact's latest `messages` as transcript lines, oldest first; `more`: earlier ones exist. */
  async function conversation(caller: Caller, contact: ContactRow, messages: number) {
    const latest = await latestMessages(deps.reads, caller.workspaceId, contact, messages + 1);
    const lines = transcriptOf(latest.slice(0, messages).reverse());
    return { lines, more: latest.length > messages };
  }

  /** One structured answer from the workspace's model; its failure as the API's problem (never a 500). */
  async function ask(
    caller: Caller,
    messages: ChatMessage[],
    schema: { name: string; schema: object },
    maxTokens: number,
  ) {
    try {
      return await model.chat(caller.workspaceId, { purpose: 'copilot', messages, schema, maxTokens });
    } catch (error) {
      if (error instanceof ModelUnavailable) throw modelProblem(error, deps.clock.now());
      throw error;
    }
  }

  return {
    /** Whether the composer offers the copilot: the model is on, and this month's budget is not spent. */
    async status(caller: Caller): Promise<CopilotStatus> {
      if (!(await settings.get(caller)).enabled) return { available: false, reason: 'not_configured' };
      if ((await settings.usage(caller)).tokens_left === 0) return { available: false, reason: 'budget_exhausted' };
      return { available: true, reason: null };
    },

    /** A draft of the business's next message, in the customer's language, with the knowledge it relies on. */
    async suggestReply(caller: Caller, input: SuggestReplyInput): Promise<SuggestedReply> {
      const contact = await contactOf(caller, input.contact_id);
      const { lines } = await conversation(caller, contact, READS.suggest.messages);
      const read = newestWithin(lines, READS.suggest.chars).lines;
      if (read.length === 0) throw errors.conversationEmpty();
      const { chunks } = await knowledge.retrieve(caller.workspaceId, openQuestion(read), { limit: CHUNKS });
      const prompt = suggestReplyPrompt({
        lines: read,
        chunks,
        customerName: contact.name,
        language: customerLanguage(contact.custom_attributes),
      });
      const answer = await ask(caller, prompt, SUGGESTION_SCHEMA, MAX_TOKENS.suggest);
      const parsed = answer.parsed as { reply?: unknown; language?: unknown; citations?: unknown };
      return {
        reply: draftOf(parsed.reply),
        language: languageOf(parsed.language),
        citations: cited(parsed.citations, chunks),
        model: answer.model,
      };
    },

    /** What the conversation is about, from its latest messages that fit (a long thread's start is left out). */
    async summarize(caller: Caller, input: SummarizeConversationInput): Promise<ConversationSummary> {
      const contact = await contactOf(caller, input.contact_id);
      const { lines, more } = await conversation(caller, contact, READS.summary.messages);
      const { lines: read, leftOut } = newestWithin(lines, READS.summary.chars);
      if (read.length === 0) throw errors.conversationEmpty();
      const earlierLeftOut = leftOut > 0 || more;
      const prompt = summaryPrompt({
        lines: read,
        earlierLeftOut,
        summaryLanguage: describeLanguage(input.language ?? 'en'),
      });
      const answer = await ask(caller, prompt, SUMMARY_SCHEMA, MAX_TOKENS.summary);
      const summary = textOf((answer.parsed as { summary?: unknown }).summary, 'summary');
      return { summary, messages: read.length, earlier_left_out: earlierLeftOut, model: answer.model };
    },

    /** The agent's draft shorter, friendlier, or in the customer's language; nothing else of theirs changes. */
    async rewrite(caller: Caller, input: RewriteDraftInput): Promise<RewrittenDraft> {
      if (!input.text.trim()) throw errors.invalid(copilotProblems.problem('text', 'draft_empty'));
      const contact = await contactOf(caller, input.contact_id);
      const language = customerLanguage(contact.custom_attributes);
      // Without a stated language, a translation's target is judged from the customer's own messages.
      let customerMessages: string[] = [];
      if (input.style === 'translate' && !language) {
        const { lines } = await conversation(caller, contact, READS.translate.messages);
        customerMessages = theirLatest(newestWithin(lines, READS.translate.chars).lines);
        if (customerMessages.length === 0) throw errors.customerLanguageUnknown();
      }
      const prompt = rewritePrompt({ text: input.text, style: input.style, language, customerMessages });
      const answer = await ask(caller, prompt, REWRITE_SCHEMA, MAX_TOKENS.rewrite);
      const parsed = answer.parsed as { text?: unknown; language?: unknown };
      return { text: draftOf(parsed.text), language: languageOf(parsed.language), model: answer.model };
    },
  };
}

export type CopilotService = ReturnType<typeof createCopilotService>;

/** The customer's latest messages that say something (a reaction or an image tells no language). */
function theirLatest(lines: TranscriptLine[]): string[] {
  return lines
    .filter((line) => line.from === 'customer' && /\p{L}{2,}/u.test(line.text))
    .slice(-LANGUAGE_SAMPLE)
    .map((line) => line.text);
}

/** A string the model had to give; a model that ignores the JSON schema (some local ones do) has failed. */
function textOf(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) {
    throw errors.aiModelFailed(`the model answered no ${name}`);
  }
  return value.trim();
}

/** A message for the composer: at most what one WhatsApp text may hold, which the agent then edits. */
const draftOf = (value: unknown) => textOf(value, 'text').slice(0, TEXT_MAX_LENGTH);

const languageOf = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 35) : '');

/** The chunks the model cited, in its order, among those it was given (an id it made up is dropped). */
function cited(ids: unknown, chunks: KnowledgeChunk[]): Citation[] {
  const given = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  const named = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  return [...new Set(named)].flatMap((id) => {
    const chunk = given.get(id.trim());
    if (!chunk) return [];
    const { source_id, source_kind, source_title, heading, text } = chunk;
    return [{ chunk_id: chunk.id, source_id, source_kind, source_title, heading, text }];
  });
}
