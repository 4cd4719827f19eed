import { type AiModels, ModelUnavailable } from '../ai-models/index.js';
import type { HandoverReason } from './assistant.schema.js';

/** What the assistant asks of the workspace's model (src/ai-models/, injected in services.ts). */
export type AssistantModel = Pick<AiModels, 'chat'>;

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

/** Why the model gave no decision, as a hand-over reason: ModelUnavailable's own, else a model error. */
export function failureReason(error: unknown): HandoverReason {
  return error instanceof ModelUnavailable ? error.reason : 'model_error';
}
