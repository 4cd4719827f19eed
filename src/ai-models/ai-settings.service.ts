import type { Deps } from '../db/deps.js';
import type { Caller } from '../shared/context.js';
import { errors, type FieldError } from '../shared/errors.js';
import { hostOf, isPrivateHost } from '../shared/public-address.js';
import type { SecretBox } from '../shared/secret-box.js';
import { toStoredTimestamp } from '../shared/time.js';
import { ModelUnavailable } from './ai-model.js';
import { monthOf, openEndpoint, type AiLedger } from './ai-models.js';
import { aiSettingsRepository, type AiSettingsRow } from './ai-settings.repository.js';
import { aiSettingsProblems } from './ai-settings.problems.js';
import {
  TIMEOUT_SECONDS,
  type AiSettings,
  type AiSettingsTest,
  type AiUsage,
  type SaveAiSettingsInput,
} from './ai-settings.schema.js';
import type { Endpoint } from './openai-endpoint.js';
import { chatWorstCase, embeddingsWorstCase } from './worst-case.js';

/** What test-ai-settings asks the model: one short word back, so the round trip costs a few tokens. */
const TEST_PROMPT = 'Reply with the single word OK.';
const TEST_MAX_TOKENS = 32;

/**
 * A workspace's AI model settings (get, save, test with a real round trip) and this month's usage: the
 * rules behind the API and the dashboard's Settings → AI model. The API key is sealed as it is saved and
 * opened only for a call.
 */
export function createAiSettingsService(
  deps: Deps,
  secrets: SecretBox,
  ledger: AiLedger,
  options: { allowPrivate: boolean },
) {
  const { db, clock } = deps;

  /** The saved settings with the fields given written over them, checked; the key sealed when one is given. */
  async function merged(caller: Caller, input: SaveAiSettingsInput): Promise<AiSettingsRow> {
    const saved = (await aiSettingsRepository(db).find(caller.workspaceId)) ?? defaults(caller.workspaceId);
    const row: AiSettingsRow = {
      ...saved,
      ...(input.enabled !== undefined && { enabled: input.enabled ? 1 : 0 }),
      ...(input.base_url !== undefined && { base_url: input.base_url?.trim() || null }),
      ...(input.model !== undefined && { model: input.model?.trim() || null }),
      ...(input.api_key?.trim() && { api_key: secrets.seal(input.api_key.trim()) }),
      ...(input.embeddings_model !== undefined && { embeddings_model: input.embeddings_model?.trim() || null }),
      ...(input.timeout_seconds !== undefined && { timeout_seconds: input.timeout_seconds }),
      ...(input.monthly_token_budget !== undefined && { monthly_token_budget: input.monthly_token_budget }),
      ...(input.input_price_per_million !== undefined && { input_price_per_million: input.input_price_per_million }),
      ...(input.output_price_per_million !== undefined && { output_price_per_million: input.output_price_per_million }),
      updated_at: toStoredTimestamp(clock.now()),
    };
    const problems = settingsProblems(row, options.allowPrivate);
    if (problems.length > 0) throw errors.invalid(...problems);
    return row;
  }

  return {
    async get(caller: Caller): Promise<AiSettings> {
      return present((await aiSettingsRepository(db).find(caller.workspaceId)) ?? defaults(caller.workspaceId));
    },

    async save(caller: Caller, input: SaveAiSettingsInput): Promise<AiSettings> {
      const row = await merged(caller, input);
      await aiSettingsRepository(db).save(row);
      return present(row);
    },

    /**
     * One real round trip with the saved settings and the fields given (saving nothing): a one-word
     * chat completion, then one embedding when an embeddings model is set. Counted in the ledger as
     * `test`, refused like any call once the month's budget is spent; works while the model is off.
     */
    async test(caller: Caller, input: SaveAiSettingsInput): Promise<AiSettingsTest> {
      const row = await merged(caller, input);
      let endpoint: Endpoint;
      try {
        endpoint = openEndpoint(row, secrets);
      } catch (error) {
        return failed('chat', error);
      }
      return roundTrip(caller.workspaceId, row, endpoint);
    },

    async usage(caller: Caller): Promise<AiUsage> {
      const month = monthOf(clock.now());
      const repository = aiSettingsRepository(db);
      const settings = (await repository.find(caller.workspaceId)) ?? defaults(caller.workspaceId);
      const rows = await repository.usage(caller.workspaceId, month);
      const used = rows.reduce((sum, row) => sum + row.promptTokens + row.completionTokens, 0);
      const budget = settings.monthly_token_budget;
      const costs = rows.map((row) => tokenCost(row, settings));
      return {
        month,
        purposes: rows.map((row, index) => ({
          purpose: row.purpose,
          calls: row.calls,
          prompt_tokens: row.promptTokens,
          completion_tokens: row.completionTokens,
          cost: costs[index]!,
        })),
        tokens_used: used,
        monthly_token_budget: budget,
        tokens_left: budget === null ? null : Math.max(0, budget - used),
        cost: pricesOf(settings) ? costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0) : null,
      };
    },
  };

  /** The round trip's calls, metered against the month's budget as every call is. */
  async function roundTrip(workspaceId: string, row: AiSettingsRow, endpoint: Endpoint): Promise<AiSettingsTest> {
    const request = {
      purpose: 'test' as const,
      messages: [{ role: 'user' as const, content: TEST_PROMPT }],
      maxTokens: TEST_MAX_TOKENS,
    };
    let chat;
    try {
      chat = await ledger.metered(workspaceId, row, 'test', chatWorstCase(request), {
        call: () => ledger.caller.chat(endpoint, request),
        tokens: (answer) => ({ prompt: answer.usage.promptTokens, completion: answer.usage.completionTokens }),
      });
    } catch (error) {
      return failed('chat', error);
    }
    const answered = { model: chat.model, model_ms: Math.round(chat.modelMs), reply: chat.content };
    if (!endpoint.embeddingsModel) return { ok: true, ...answered, embeddings: null, problem: null };
    try {
      const embedded = await ledger.metered(workspaceId, row, 'embeddings', embeddingsWorstCase([TEST_PROMPT]), {
        call: () => ledger.caller.embed(endpoint, [TEST_PROMPT]),
        tokens: (answer) => ({ prompt: answer.promptTokens, completion: 0 }),
      });
      const embeddings = {
        model: embedded.model,
        dimensions: embedded.vectors[0]?.length ?? 0,
        model_ms: Math.round(embedded.modelMs),
      };
      return { ok: true, ...answered, embeddings, problem: null };
    } catch (error) {
      return { ...failed('embeddings', error), ...answered };
    }
  }
}

export type AiSettingsService = ReturnType<typeof createAiSettingsService>;

/** A failed round trip, in words; anything but the model's own failure is Parley's bug and is thrown. */
function failed(step: 'chat' | 'embeddings', error: unknown): AiSettingsTest {
  if (!(error instanceof ModelUnavailable)) throw error;
  return {
    ok: false,
    model: null,
    model_ms: null,
    reply: null,
    embeddings: null,
    problem: { step, reason: error.reason, message: error.message, retry_after_ms: error.retryAfterMs ?? null },
  };
}

function defaults(workspaceId: string): AiSettingsRow {
  return {
    workspace_id: workspaceId,
    enabled: 0,
    base_url: null,
    model: null,
    api_key: null,
    embeddings_model: null,
    timeout_seconds: TIMEOUT_SECONDS.default,
    monthly_token_budget: null,
    input_price_per_million: null,
    output_price_per_million: null,
    updated_at: '',
  };
}

function present(row: AiSettingsRow): AiSettings {
  return {
    enabled: row.enabled === 1,
    base_url: row.base_url,
    model: row.model,
    api_key_set: row.api_key !== null,
    embeddings_model: row.embeddings_model,
    timeout_seconds: row.timeout_seconds,
    monthly_token_budget: row.monthly_token_budget,
    input_price_per_million: row.input_price_per_million,
    output_price_per_million: row.output_price_per_million,
  };
}

/** Every field problem of settings about to be saved or tried. */
function settingsProblems(row: AiSettingsRow, allowPrivate: boolean): FieldError[] {
  const problems: FieldError[] = [];
  const urlProblem = row.base_url === null ? null : baseUrlProblem(row.base_url, allowPrivate);
  if (urlProblem) problems.push(urlProblem);
  if (row.enabled === 1) {
    for (const field of ['base_url', 'model', 'api_key'] as const) {
      if (row[field] === null) problems.push(aiSettingsProblems.problem(field, 'required_to_enable'));
    }
  }
  return problems;
}

/**
 * Why a base URL may not be called, or null: http(s) with no credentials in it; unless the operator
 * allows private endpoints, https and not loopback nor a private IP (names are checked again as they
 * are resolved, on every call: openai-endpoint.ts). With them allowed, plain http too: a local
 * server (Ollama, a compose service) rarely has a certificate.
 */
export function baseUrlProblem(raw: string, allowPrivate: boolean): FieldError | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return aiSettingsProblems.problem('base_url', 'absolute_url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !hostOf(url)) {
    return aiSettingsProblems.problem('base_url', 'absolute_url');
  }
  if (url.username || url.password) return aiSettingsProblems.problem('base_url', 'credentials_in_url');
  if (allowPrivate) return null;
  if (isPrivateHost(url)) return aiSettingsProblems.problem('base_url', 'private_target');
  if (url.protocol !== 'https:') return aiSettingsProblems.problem('base_url', 'https_required');
  return null;
}

const pricesOf = (settings: TokenPrices) =>
  settings.input_price_per_million !== null || settings.output_price_per_million !== null;

/** The prices per million tokens a workspace saved (ai_settings), as tokenCost reads them. */
export type TokenPrices = Pick<AiSettingsRow, 'input_price_per_million' | 'output_price_per_million'>;

/**
 * What tokens cost by the saved prices (a price not set counts as free); null without any price. The one
 * rule for the usage answer, the AI report and `parley ai eval`.
 */
export function tokenCost(tokens: { promptTokens: number; completionTokens: number }, prices: TokenPrices) {
  if (!pricesOf(prices)) return null;
  const input = prices.input_price_per_million ?? 0;
  const output = prices.output_price_per_million ?? 0;
  return (tokens.promptTokens * input + tokens.completionTokens * output) / 1_000_000;
}
