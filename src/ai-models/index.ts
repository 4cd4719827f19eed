/**
 * src/ai-models/'s front door: each workspace's own model (an OpenAI-compatible endpoint), its settings,
 * and the usage ledger with its monthly budget. The knowledge index, the assistant and the copilot ask
 * the model through the AiModels port only.
 */
export {
  type AiModels,
  CHAT_PURPOSES,
  type ChatMessage,
  type ChatPurpose,
  type ChatRequest,
  type ChatResult,
  type Embedder,
  type Embeddings,
  ModelUnavailable,
  type UnavailableReason,
  USAGE_PURPOSES,
  type UsagePurpose,
} from './ai-model.js';
export { type AiModelsOptions, createAiModels } from './ai-models.js';
export { modelProblem } from './model-problem.js';
export { registerAiSettingsRoutes } from './ai-settings.routes.js';
export { type AiSettingsService, createAiSettingsService, tokenCost, type TokenPrices } from './ai-settings.service.js';
