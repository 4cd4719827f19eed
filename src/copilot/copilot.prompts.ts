/**
 * Everything the copilot tells the model, in one place: the system prompts of its three actions, the
 * rules no draft may break, and the JSON each answer must be (Structured Outputs, strict: every
 * property required, nothing more).
 */
import type { ChatMessage } from '../ai-models/index.js';
import type { RewriteStyle } from './copilot.schema.js';
import type { CustomerLanguage } from './customer-language.js';
import { formatTranscript, type TranscriptLine } from './transcript.js';

/** A knowledge chunk as the model is shown it: its id first, so it can cite it. */
export interface PromptChunk {
  id: string;
  source_title: string;
  heading: string;
  text: string;
}

/**
 * The knowledge-only rule: a draft states no fact the business's knowledge does not, above all none
 * that binds the business (a price, a refund, a date), because an agent in a hurry may send it as it is.
 */
const KNOWLEDGE_ONLY =
  'Use only the knowledge below and what the conversation itself says. Never state a price, amount, percentage, discount, refund, date, time or deadline, and never promise anything, that the knowledge does not state in those words. Where the knowledge does not answer, say that you will check and come back; invent nothing.';

/** What a rewrite keeps: the agent's facts are theirs, the copilot only changes how they are said. */
const KEEP_THE_FACTS =
  'Keep the meaning and every fact of the draft, and add none: no price, date, refund or promise the draft does not have. Keep WhatsApp formatting (*bold*, _italic_), links, numbers, codes and names as they are.';

const ANSWER_LANGUAGE = 'In "language", give the language you wrote in as a BCP 47 tag (en, es, pt-BR…).';

/** Which language a message to the customer is written in: their contact's, else the one they write in. */
function writeIn(language: CustomerLanguage | null): string {
  return language
    ? `Write in the customer's language, ${language.described}, as their contact states.`
    : "Write in the customer's language: the language of their latest messages.";
}

function chunkBlock(chunk: PromptChunk): string {
  // A Q&A pair's heading is its question, as its title is: said once.
  const where = [chunk.source_title, chunk.heading !== chunk.source_title && chunk.heading].filter(Boolean).join(' — ');
  return `[chunk ${chunk.id}] ${where}\n${chunk.text}`;
}

/** suggest-reply: a draft of the business's next message, from the knowledge found for the customer's question. */
export function suggestReplyPrompt(context: {
  lines: TranscriptLine[];
  chunks: PromptChunk[];
  customerName: string | null;
  language: CustomerLanguage | null;
}): ChatMessage[] {
  const knowledge =
    context.chunks.length > 0 ? context.chunks.map(chunkBlock).join('\n\n') : 'No knowledge matches this conversation.';
  const system = [
    'You draft the next WhatsApp message of a business to its customer, for a person of its team: they read your draft, edit it and send it themselves.',
    'Rules:',
    `- ${KNOWLEDGE_ONLY}`,
    `- ${writeIn(context.language)}`,
    '- Be brief: one WhatsApp message, friendly and plain, that answers what the customer last asked.',
    '- In "citations", list the id of every knowledge chunk the draft relies on; cite no other ids.',
    `- ${ANSWER_LANGUAGE}`,
    context.customerName && `The customer's name: ${context.customerName}`,
    `Knowledge:\n${knowledge}`,
  ];
  return [
    { role: 'system', content: system.filter(Boolean).join('\n') },
    {
      role: 'user',
      content: `The conversation so far, oldest first:\n${formatTranscript(context.lines)}\n\nDraft the business's next message.`,
    },
  ];
}

export const SUGGESTION_SCHEMA = {
  name: 'suggested_reply',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['reply', 'language', 'citations'],
    properties: {
      reply: { type: 'string', description: 'The draft message to the customer' },
      language: { type: 'string', description: 'The draft’s language, as a BCP 47 tag' },
      citations: {
        type: 'array',
        items: { type: 'string' },
        description: 'The ids of the knowledge chunks the draft relies on',
      },
    },
  },
};

/** summarize-conversation: what a person taking the conversation over needs to know. */
export function summaryPrompt(context: {
  lines: TranscriptLine[];
  earlierLeftOut: boolean;
  summaryLanguage: string;
}): ChatMessage[] {
  const system = [
    'You summarise a WhatsApp conversation between a business and one of its customers for a person of the team who is taking it over.',
    'In at most five short sentences: what the customer wants, what the business has said or done, and what is still open.',
    'Use only what the conversation says; add nothing, and guess nothing it does not say.',
    `Write the summary in ${context.summaryLanguage}, whatever language the conversation is in.`,
  ];
  const earlier = context.earlierLeftOut ? '(The conversation is long: its earlier messages are left out.)\n' : '';
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: `${earlier}The conversation, oldest first:\n${formatTranscript(context.lines)}` },
  ];
}

export const SUMMARY_SCHEMA = {
  name: 'conversation_summary',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['summary'],
    properties: { summary: { type: 'string', description: 'The summary' } },
  },
};

/** What each rewrite style asks; a translation's target is the customer's language. */
function styleRule(style: RewriteStyle, language: CustomerLanguage | null): string {
  switch (style) {
    case 'shorter':
      return 'Make it shorter and plainer: the same message in fewer words, in the draft’s own language.';
    case 'friendlier':
      return 'Make it warmer and friendlier, still professional and as clear, in the draft’s own language.';
    case 'translate':
      return language
        ? `Translate it into the customer's language, ${language.described}, as their contact states.`
        : 'Translate it into the language the customer writes in: judge it from their messages below. If the draft is in that language already, return it as it is.';
  }
}

/** rewrite-draft: the agent's draft said another way, or in the customer's language. */
export function rewritePrompt(context: {
  text: string;
  style: RewriteStyle;
  language: CustomerLanguage | null;
  customerMessages: string[];
}): ChatMessage[] {
  const system = [
    'You rewrite a draft that a person of a business’s team wrote to a customer on WhatsApp.',
    styleRule(context.style, context.language),
    KEEP_THE_FACTS,
    `Answer with the rewritten message in "text". ${ANSWER_LANGUAGE}`,
  ];
  const theirs =
    context.customerMessages.length > 0
      ? `\n\nThe customer's latest messages:\n${context.customerMessages.map((text) => `- ${text}`).join('\n')}`
      : '';
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: `The draft:\n${context.text}${theirs}` },
  ];
}

export const REWRITE_SCHEMA = {
  name: 'rewritten_draft',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['text', 'language'],
    properties: {
      text: { type: 'string', description: 'The rewritten message' },
      language: { type: 'string', description: 'Its language, as a BCP 47 tag' },
    },
  },
};
