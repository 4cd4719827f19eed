import { type AiModels, ModelUnavailable } from '../ai-models/index.js';
import type { KnowledgeMatch, KnowledgeService } from '../knowledge/index.js';
import type { HandoverReason } from './assistant.schema.js';

/** What the assistant asks of the workspace's model (src/ai-models/, injected in services.ts). */
export type AssistantModel = Pick<AiModels, 'chat'>;

/** A chunk of the workspace's knowledge, as retrieval ranks it. */
export type KnowledgeChunk = KnowledgeMatch;

/** What the assistant asks of the knowledge (src/knowledge/, injected in services.ts). */
export type AssistantKnowledge = Pick<KnowledgeService, 'retrieve'>;

/** Why the model gave no decision, as a hand-over reason: ModelUnavailable's own, else a model error. */
export function failureReason(error: unknown): HandoverReason {
  return error instanceof ModelUnavailable ? error.reason : 'model_error';
}
