import type { ChatRequest } from './ai-model.js';

/**
 * The most tokens a call can cost, reserved against the month's budget before it is made (0166).
 * Byte-level BPE tokenizers (OpenAI's, Llama 3's, Mistral's, Qwen's) never make a token of less than one
 * byte, so a text's UTF-8 length bounds its tokens; each message adds a few tokens of framing.
 */

/** Caps a chat that names no limit: every call needs a worst case, and a reply or a decision is short. */
export const DEFAULT_MAX_TOKENS = 4096;

/** The framing OpenAI's chat format adds around each message, and once to prime the reply (rounded up). */
const PER_MESSAGE = 4;
const PER_REPLY = 3;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A chat's prompt (messages and the schema asked for, which the endpoint reads too) and its longest answer. */
export function chatWorstCase(request: ChatRequest & { maxTokens: number }): number {
  const messages = request.messages.reduce(
    (sum, message) => sum + bytes(message.role) + bytes(message.content) + PER_MESSAGE,
    PER_REPLY,
  );
  const schema = request.schema ? bytes(request.schema.name) + bytes(JSON.stringify(request.schema.schema)) : 0;
  return messages + schema + request.maxTokens;
}

/** Embeddings cost their input's tokens only. */
export function embeddingsWorstCase(texts: string[]): number {
  return texts.reduce((sum, text) => sum + bytes(text) + 1, 0);
}
