/**
 * The port other folders use to ask a workspace's own model (the knowledge index, the assistant, the
 * copilot, the evaluation harness): what they send, what comes back, and the one error that says why
 * no answer came.
 */

/** Why a model is asked: the usage ledger counts each purpose apart. */
export const CHAT_PURPOSES = ['assistant', 'copilot', 'eval', 'test'] as const;
export type ChatPurpose = (typeof CHAT_PURPOSES)[number];

/** The ledger's purposes: the chat purposes, and the embeddings the knowledge index asks for. */
export const USAGE_PURPOSES = [...CHAT_PURPOSES, 'embeddings'] as const;
export type UsagePurpose = (typeof USAGE_PURPOSES)[number];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  purpose: ChatPurpose;
  messages: ChatMessage[];
  /** JSON-schema structured output (`response_format` `json_schema`, strict): `parsed` holds the answer. */
  schema?: { name: string; schema: object };
  maxTokens?: number;
  temperature?: number;
}

export interface ChatResult {
  content: string;
  /** JSON.parse(content) when a schema was given, else null. */
  parsed: unknown;
  /** The model that answered, as the endpoint names it. */
  model: string;
  usage: { promptTokens: number; completionTokens: number };
  /** Time spent inside the model call, in milliseconds (the rest of a reply's time is Parley's). */
  modelMs: number;
}

export interface Embeddings {
  model: string;
  /** One vector per text, in the order given. */
  vectors: number[][];
}

/** What the knowledge index is given to embed texts with: null when no embeddings model is configured. */
export type Embedder = (workspaceId: string, texts: string[]) => Promise<Embeddings | null>;

/** A workspace's model, asked through the OpenAI-compatible API it configured. */
export interface AiModels {
  /** One chat completion; throws ModelUnavailable when no answer can be had. */
  chat(workspaceId: string, request: ChatRequest): Promise<ChatResult>;
  /** Embeds texts with the configured embeddings model; null when there is none. Throws ModelUnavailable. */
  embed: Embedder;
  /** Closes the connections kept to the endpoints. */
  close(): Promise<void>;
}

/**
 * Why a model gave no answer: `not_configured` (off, or no settings), `timeout` (no answer within the
 * workspace's timeout), `rate_limited` (the endpoint said 429; `retryAfterMs` when it said how long),
 * `budget_exhausted` (this month's token budget is spent), `model_error` (anything else the endpoint
 * or the connection said: the message names it).
 */
export type UnavailableReason = 'not_configured' | 'timeout' | 'rate_limited' | 'budget_exhausted' | 'model_error';

export class ModelUnavailable extends Error {
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelUnavailable';
  }
}
