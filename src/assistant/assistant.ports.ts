import type { HandoverReason } from './assistant.schema.js';

/** One message of a chat request, as OpenAI's chat completions take it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the assistant asks of the workspace's model (src/ai-models/, injected in services.ts). */
export interface AssistantModel {
  chat(
    workspaceId: string,
    request: {
      purpose: 'assistant';
      messages: ChatMessage[];
      schema: { name: string; schema: Record<string, unknown> };
    },
  ): Promise<{
    content: string;
    parsed: unknown;
    model: string;
    usage: { promptTokens: number; completionTokens: number };
    modelMs: number;
  }>;
}

/** A chunk of the workspace's knowledge, as retrieval ranks it (src/knowledge/). */
export interface KnowledgeChunk {
  id: string;
  source: { id: string; title: string };
  heading: string | null;
  text: string;
  score: number;
}

/** What the assistant asks of the knowledge (src/knowledge/, injected in services.ts). */
export interface AssistantKnowledge {
  retrieve(workspaceId: string, query: string, options: { limit: number }): Promise<KnowledgeChunk[]>;
}

const MODEL_FAILURES = new Set<HandoverReason>(['not_configured', 'timeout', 'rate_limited', 'budget_exhausted']);

/**
 * Why the model gave no decision, as a hand-over reason: the model port's own reason (ModelUnavailable's
 * `reason`: not configured, timed out, rate limited, over budget), else a model error.
 */
export function failureReason(error: unknown): HandoverReason {
  const reason = (error as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && MODEL_FAILURES.has(reason as HandoverReason)
    ? (reason as HandoverReason)
    : 'model_error';
}
