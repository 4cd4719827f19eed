import type { Deps } from '../db/deps.js';
import type { SecretBox } from '../shared/secret-box.js';
import { ModelUnavailable, type AiModels, type UsagePurpose } from './ai-model.js';
import { toStoredTimestamp } from '../shared/time.js';
import { aiSettingsRepository, type AiSettingsRow, type Tokens } from './ai-settings.repository.js';
import { createEndpointCaller, type Endpoint, type EndpointCaller } from './openai-endpoint.js';
import { chatWorstCase, DEFAULT_MAX_TOKENS, embeddingsWorstCase } from './worst-case.js';

export interface AiModelsOptions {
  /** PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: a model on loopback or the local network (Ollama, vLLM) may be called. */
  allowPrivate: boolean;
}

/** The month a call is counted in: UTC, `YYYY-MM` (every process and the budget agree on it). */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/**
 * Each workspace's own model (ai-model.ts's port): its settings read for every call, so a change
 * holds at once in every process; each call's worst case reserved against the month's budget before it
 * is made, and settled to its real tokens in the ledger after it (0166).
 */
export function createAiModels(deps: Deps, secrets: SecretBox, options: AiModelsOptions): AiModels & AiLedger {
  const caller = createEndpointCaller(options);
  const ledger = createLedger(deps);

  /** The workspace's settings for a call: refused when its model is off. */
  async function enabledSettings(workspaceId: string): Promise<AiSettingsRow> {
    const settings = await aiSettingsRepository(deps.db).find(workspaceId);
    if (!settings?.enabled) throw new ModelUnavailable('not_configured', 'the workspace has no AI model turned on');
    return settings;
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
      const capped = { ...request, maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS };
      return observed(
        request.purpose,
        async () => {
          const settings = await enabledSettings(workspaceId);
          const endpoint = openEndpoint(settings, secrets);
          return ledger.metered(workspaceId, settings, request.purpose, chatWorstCase(capped), {
            call: () => caller.chat(endpoint, capped),
            tokens: (result) => ({ prompt: result.usage.promptTokens, completion: result.usage.completionTokens }),
          });
        },
        (result) => ({ ...result.usage, modelMs: result.modelMs }),
      );
    },

    async embed(workspaceId, texts) {
      const settings = await enabledSettings(workspaceId);
      const endpoint = openEndpoint(settings, secrets);
      const embeddingsModel = endpoint.embeddingsModel;
      if (!embeddingsModel) return null;
      if (texts.length === 0) return { model: embeddingsModel, vectors: [] };
      const embedded = await observed(
        'embeddings',
        () =>
          ledger.metered(workspaceId, settings, 'embeddings', embeddingsWorstCase(texts), {
            call: () => caller.embed(endpoint, texts),
            tokens: (answer) => ({ prompt: answer.promptTokens, completion: 0 }),
          }),
        (answer) => ({ promptTokens: answer.promptTokens, completionTokens: 0, modelMs: answer.modelMs }),
      );
      return { model: embedded.model, vectors: embedded.vectors };
    },

    metered: (...args) => ledger.metered(...args),
    caller,
    close: () => caller.close(),
  };
}

/** An answered call's tokens and time, as the metrics count them. */
type Answered = { promptTokens: number; completionTokens: number; modelMs: number };

/** The settings a call is metered by: the budget, and the timeout that bounds how long it can be in flight. */
export type MeteredSettings = Pick<AiSettingsRow, 'monthly_token_budget' | 'timeout_seconds'>;

/** A call to meter, and how its real tokens are read from its answer. */
export interface MeteredCall<T> {
  call: () => Promise<T>;
  tokens: (answer: T) => Tokens;
}

/** What the settings' own calls (test-ai-settings) share with the port: the metering and the caller. */
export interface AiLedger {
  /**
   * Makes a call within the month's budget: its worst case reserved first (ModelUnavailable
   * `budget_exhausted` when it does not fit beside the ledger and the calls in flight), its real tokens
   * written to the ledger when it answers, the reservation given back when it fails.
   */
  metered<T>(
    workspaceId: string,
    settings: MeteredSettings,
    purpose: UsagePurpose,
    worstCase: number,
    call: MeteredCall<T>,
  ): Promise<T>;
  caller: EndpointCaller;
}

/**
 * How long past its timeout a reservation still counts: a call may ask twice (reasoning models' retry
 * with max_completion_tokens); after that its process has died and the reservation lapses.
 */
const RESERVATION_GRACE_MS = 60_000;

function createLedger({ db, dialect, clock, newId }: Deps): Pick<AiLedger, 'metered'> {
  const repository = aiSettingsRepository(db);

  /** Reserves the worst case (no reservation without a budget); the reservation's id, or null. */
  async function reserve(workspaceId: string, month: string, settings: MeteredSettings, worstCase: number) {
    const budget = settings.monthly_token_budget;
    if (budget === null) return null;
    const now = clock.now();
    const reservation = {
      id: newId(),
      workspaceId,
      month,
      tokens: worstCase,
      expiresAt: toStoredTimestamp(
        new Date(now.getTime() + 2 * settings.timeout_seconds * 1000 + RESERVATION_GRACE_MS),
      ),
    };
    const refused = await repository.reserve(dialect, reservation, budget, toStoredTimestamp(now));
    if (refused) {
      const { used, reserved } = refused;
      const inFlight = reserved > 0 ? `, ${reserved} set aside for calls in flight` : '';
      throw new ModelUnavailable(
        'budget_exhausted',
        `this month's budget of ${budget} tokens has no room for a call of up to ${worstCase} tokens (${used} used${inFlight})`,
      );
    }
    return reservation.id;
  }

  return {
    async metered(workspaceId, settings, purpose, worstCase, { call, tokens }) {
      const month = monthOf(clock.now());
      const reservationId = await reserve(workspaceId, month, settings, worstCase);
      let answer;
      try {
        answer = await call();
      } catch (error) {
        if (reservationId) await repository.release(reservationId);
        throw error;
      }
      await repository.settle(reservationId, { workspaceId, month, purpose, tokens: tokens(answer) });
      return answer;
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
