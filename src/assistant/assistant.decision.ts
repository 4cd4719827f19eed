import type { Citation, HandoverReason } from './assistant.schema.js';
import { unsupportedClaims } from './assistant.claims.js';

/** What the model decides on a customer's message, as its structured output gives it. */
export interface Decision {
  action: 'reply' | 'hand_over' | 'close';
  reply: string | null;
  confidence: number;
  citations: string[];
  hand_over: { reason: string; summary: string } | null;
  tags: string[];
  attributes: { name: string; value: string }[];
}

/**
 * The decision's JSON schema, sent as the request's structured output (OpenAI's `json_schema` response
 * format, strict): every property required, optional ones nullable, no free-form objects — the subset
 * every OpenAI-compatible server accepts. Ranges are said in words and checked here, not by the server.
 */
export const DECISION_SCHEMA = {
  name: 'assistant_decision',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['action', 'reply', 'confidence', 'citations', 'hand_over', 'tags', 'attributes'],
    properties: {
      action: {
        type: 'string',
        enum: ['reply', 'hand_over', 'close'],
        description:
          'reply: answer the customer from the knowledge; hand_over: give the conversation to a person; close: the customer needs nothing more',
      },
      reply: {
        type: ['string', 'null'],
        description:
          "The message to the customer, in the customer's language: the answer (reply) or a short goodbye (close); null for hand_over",
      },
      confidence: {
        type: 'number',
        description: 'How sure you are, from 0 to 1, that the reply is right and fully backed by the knowledge cited',
      },
      citations: {
        type: 'array',
        items: { type: 'string' },
        description: 'The ids of the knowledge chunks the reply relies on, as given in the context',
      },
      hand_over: {
        type: ['object', 'null'],
        additionalProperties: false,
        required: ['reason', 'summary'],
        properties: {
          reason: { type: 'string', description: 'Why a person is needed, in a few words' },
          summary: {
            type: 'string',
            description: 'For the person taking over: who the customer is, what they asked, what was said',
          },
        },
        description: 'Set for hand_over, else null',
      },
      tags: {
        type: 'array',
        items: { type: 'string' },
        description: 'Tags to add to the contact (a topic, an interest); usually none',
      },
      attributes: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'value'],
          properties: {
            name: { type: 'string', description: 'Letters, digits and _ only' },
            value: { type: 'string' },
          },
        },
        description: 'Contact attributes to set from what the customer said (e.g. order_number); usually none',
      },
    },
  },
} as const;

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const ACTIONS = new Set(['reply', 'hand_over', 'close']);

/** The model's output as a decision; null when it is not one (the assistant then hands over). */
export function parseDecision(value: unknown): Decision | null {
  if (!isObject(value) || !ACTIONS.has(value.action as string)) return null;
  const { reply, confidence, citations, hand_over, tags, attributes } = value;
  if (reply !== null && !isString(reply)) return null;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence)) return null;
  if (!Array.isArray(citations) || !citations.every(isString)) return null;
  if (hand_over !== null && !(isObject(hand_over) && isString(hand_over.reason) && isString(hand_over.summary))) {
    return null;
  }
  return {
    action: value.action as Decision['action'],
    reply,
    confidence,
    citations,
    hand_over: hand_over && { reason: hand_over.reason as string, summary: hand_over.summary as string },
    tags: Array.isArray(tags) ? tags.filter(isString) : [],
    attributes: Array.isArray(attributes) ? attributes.filter(isAttribute) : [],
  };
}

const isAttribute = (value: unknown): value is { name: string; value: string } =>
  isObject(value) && isString(value.name) && isString(value.value);

/** What the assistant does with a decision once checked. */
export type Verdict =
  | { action: 'hand_over'; reason: HandoverReason; summary: string | null }
  | {
      action: 'reply' | 'close';
      text: string | null;
      citations: Citation[];
      tags: string[];
      attributes: { name: string; value: string }[];
    };

const TAG_MAX = 64;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_]{1,64}$/;
const ATTRIBUTE_VALUE_MAX = 1024;
/** The most tags and attributes one turn may change: a model gone astray does not rewrite a contact. */
const CHANGES_MAX = 5;

/**
 * Holds a decision to the rules before anything is sent: it may cite only the chunks it was given; its
 * confidence must reach the floor; a reply must say something, and every price, amount, percentage,
 * date or time in it must be stated by a chunk it cites. Otherwise a person takes over, and why is kept.
 */
export function judge(decision: Decision, given: ReadonlyMap<string, Citation>, floor: number): Verdict {
  const summary = decision.hand_over?.summary.trim() || null;
  if (decision.action === 'hand_over') return { action: 'hand_over', reason: 'model_decided', summary };
  if (decision.citations.some((id) => !given.has(id)))
    return { action: 'hand_over', reason: 'unknown_citation', summary };
  if (!(decision.confidence >= floor)) return { action: 'hand_over', reason: 'low_confidence', summary };
  const text = decision.reply?.trim() || null;
  if (decision.action === 'reply' && text === null) return { action: 'hand_over', reason: 'invalid_decision', summary };
  const citations = [...new Set(decision.citations)].map((id) => given.get(id)!);
  const claims =
    text === null
      ? []
      : unsupportedClaims(
          text,
          citations.map((citation) => citation.text),
        );
  if (claims.length > 0) return { action: 'hand_over', reason: 'unsupported_claim', summary };
  return {
    action: decision.action,
    text,
    citations,
    tags: [...new Set(decision.tags.map((tag) => tag.trim()))]
      .filter((tag) => tag !== '' && tag.length <= TAG_MAX)
      .slice(0, CHANGES_MAX),
    attributes: decision.attributes
      .filter(({ name, value }) => ATTRIBUTE_NAME.test(name) && value.length <= ATTRIBUTE_VALUE_MAX)
      .slice(0, CHANGES_MAX),
  };
}
