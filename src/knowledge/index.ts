/**
 * src/knowledge/'s front door: what the workspace's AI teammate answers from — sources, their chunks,
 * full-text and vector indexes, and retrieval. Other folders import it only through here.
 */
export { registerKnowledgeRoutes } from './knowledge.routes.js';
export type { KnowledgeMatch, KnowledgeSearchResult } from './knowledge.schema.js';
export { createKnowledgeService, type KnowledgeService } from './knowledge.service.js';
export type { Embedder } from './vectors.js';
export { type PortableKnowledge, PortableKnowledgeSchema, portableKnowledgeProblems } from './knowledge-transfer.js';
