import type { Deps } from '../db/deps.js';
import type { SecretBox } from '../shared/secret-box.js';
import { ModelUnavailable, type AiModels, type UsagePurpose } from './ai-model.js';
import { aiSettingsRepository, type AiSettingsRow, type Tokens } from './ai-settings.repository.js';
import { createEndpointCaller, type Endpoint, type EndpointCaller } from './openai-endpoint.js';

export interface AiModelsOptions {
  /** PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: a model on loopback or the local network (Ollama, vLLM) may be called. */
  allowPrivate: boolean;
}

/** The month a call is counted in: UTC, `YYYY-MM` (every process and the budget agree on it). */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/**
 * Each workspace's own model (ai-model.ts's port): its settings read for every call, so a change
 * holds at once in every process; the month's budget checked before the call against the ledger every
 * process writes; the call's tokens added to the ledger after it.
 */
export function createAiModels(deps: Deps, secrets: SecretBox, options: AiModelsOptions): AiModels & AiLedger {
  const caller = createEndpointCaller(options);
  const ledger = createLedger(deps);

  /** The workspace's endpoint for a call: refused when it is off or its month's budget is spent. */
  async function endpointFor(workspaceId: string): Promise<Endpoint> {
    const settings = await aiSettingsRepository(deps.db).find(workspaceId);
    if (!settings?.enabled) throw new ModelUnavailable('not_configured', 'the workspace has no AI model turned on');
    await ledger.checkBudget(workspaceId, settings);
    return openEndpoint(settings, secrets);
  }

  /** Reports a call's end to the metrics: answered with its tokens and time, or refused and why. */
  function observed<T>(purpose: UsagePurpose, call: () => Promise<T>, answered: (value: T) => Answered): Promise<T> {
    return call().then(
      (value) => {
        deps.signals?.modelCalled({ purpose, outcome: 'answered', ...answered(value) });
        return value;
      },
      (error: unknown) => {
        const outcome = error instanceof ModelUnavailable ? error.reason : 'model_error';
        deps.signals?.modelCalled({ purpose, outcome, promptTokens: 0, completionTokens: 0, modelMs: 0 });
        throw error;
      },
    );
  }

  return {
    chat(workspaceId, request) {
      return observed(
        request.purpose,
        async () => {
          const result = await caller.chat(await endpointFor(workspaceId), request);
          const { promptTokens: prompt, completionTokens: completion } = result.usage;
          await ledger.record(workspaceId, request.purpose, { prompt, completion });
          return result;
        },
        (result) => ({ ...result.usage, modelMs: result.modelMs }),
      );
    },

    async embed(workspaceId, texts) {
      const endpoint = await endpointFor(workspaceId);
      const embeddingsModel = endpoint.embeddingsModel;
      if (!embeddingsModel) return null;
      if (texts.length === 0) return { model: embeddingsModel, vectors: [] };
      const embedded = await observed(
        'embeddings',
        async () => {
          const answer = await caller.embed(endpoint, texts);
          await ledger.record(workspaceId, 'embeddings', { prompt: answer.promptTokens, completion: 0 });
          return answer;
        },
        (answer) => ({ promptTokens: answer.promptTokens, completionTokens: 0, modelMs: answer.modelMs }),
      );
      return { model: embedded.model, vectors: embedded.vectors };
    },

    checkBudget: (workspaceId, settings) => ledger.checkBudget(workspaceId, settings),
    record: (workspaceId, purpose, tokens) => ledger.record(workspaceId, purpose, tokens),
    caller,
    close: () => caller.close(),
  };
}

/** An answered call's tokens and time, as the metrics count them. */
type Answered = { promptTokens: number; completionTokens: number; modelMs: number };

/** What the settings' own calls (test-ai-settings) share with the port: the budget, the ledger, the caller. */
export interface AiLedger {
  checkBudget(workspaceId: string, settings: Pick<AiSettingsRow, 'monthly_token_budget'>): Promise<void>;
  record(workspaceId: string, purpose: UsagePurpose, tokens: Tokens): Promise<void>;
  caller: EndpointCaller;
}

function createLedger({ db, clock }: Deps) {
  return {
    /** Refuses a call once the month's tokens reach the budget (a call's own tokens are known only after it). */
    async checkBudget(workspaceId: string, settings: Pick<AiSettingsRow, 'monthly_token_budget'>): Promise<void> {
      const budget = settings.monthly_token_budget;
      if (budget === null) return;
      const used = await aiSettingsRepository(db).tokensUsed(workspaceId, monthOf(clock.now()));
      if (used >= budget) {
        throw new ModelUnavailable(
          'budget_exhausted',
          `this month's budget of ${budget} tokens is spent (${used} used)`,
        );
      }
    },

    async record(workspaceId: string, purpose: UsagePurpose, tokens: Tokens): Promise<void> {
      await aiSettingsRepository(db).addUsage(workspaceId, monthOf(clock.now()), purpose, tokens);
    },
  };
}

/** The settings as one call's endpoint, the API key opened for it. */
export function openEndpoint(settings: AiSettingsRow, secrets: SecretBox): Endpoint {
  if (!settings.base_url || !settings.model || !settings.api_key) {
    throw new ModelUnavailable('not_configured', 'the AI model needs a base URL, a model and an API key');
  }
  return {
    baseUrl: settings.base_url,
    model: settings.model,
    apiKey: secrets.open(settings.api_key),
    embeddingsModel: settings.embeddings_model,
    timeoutMs: settings.timeout_seconds * 1000,
  };
}
