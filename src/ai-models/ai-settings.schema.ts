import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableField } from '../http/responses.js';
import { USAGE_PURPOSES } from './ai-model.js';

/** The bounds of a call's timeout: a slow local model may take minutes; a wait without end is never wanted. */
export const TIMEOUT_SECONDS = { min: 1, max: 600, default: 30 } as const;

const ABOUT_BASE_URL =
  'The OpenAI-compatible API base, up to and including `/v1`: `https://api.openai.com/v1`, Azure OpenAI’s `https://RESOURCE.openai.azure.com/openai/v1`, a local Ollama `http://localhost:11434/v1` (vLLM, llama.cpp’s server and LM Studio alike). https on a public address; loopback and private-network addresses (and plain http to them) only when the operator sets PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS.';

const fields = {
  enabled: 'Whether the workspace’s AI features may call the model. Off by default.',
  model: 'The chat model’s name at the endpoint, e.g. `gpt-4.1-mini` or `llama3.2`.',
  embeddings:
    'The embeddings model for the knowledge index (e.g. `text-embedding-3-small`, `nomic-embed-text`); null: full-text search only.',
  timeout: `How long one call may take, in seconds (${TIMEOUT_SECONDS.min}–${TIMEOUT_SECONDS.max}; ${TIMEOUT_SECONDS.default} by default).`,
  budget:
    "Tokens (prompt and completion, every purpose) the workspace may use in a calendar month (UTC). Each call sets its worst case aside first (its prompt and the longest answer it may get) and is refused when that does not fit beside the month's usage and the calls in flight; it then counts what the model reported. Null: no budget.",
  inputPrice:
    'What a million prompt tokens cost, in the currency you are billed in, for the cost in usage reports; null: no cost shown.',
  outputPrice: 'What a million completion tokens cost, in the same currency; null: no cost shown.',
};

/** get-ai-settings' answer: the settings as saved; the API key only as whether one is set. */
export const AiSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: fields.enabled }),
    base_url: NullableField(Type.String({ description: ABOUT_BASE_URL })),
    model: NullableField(Type.String({ description: fields.model })),
    api_key_set: Type.Boolean({ description: 'Whether an API key is saved; the key itself is never shown again.' }),
    embeddings_model: NullableField(Type.String({ description: fields.embeddings })),
    timeout_seconds: Type.Integer({ description: fields.timeout }),
    monthly_token_budget: NullableField(Type.Integer({ description: fields.budget })),
    input_price_per_million: NullableField(Type.Number({ description: fields.inputPrice })),
    output_price_per_million: NullableField(Type.Number({ description: fields.outputPrice })),
  },
  { $id: 'AiSettings' },
);
export type AiSettings = Static<typeof AiSettingsSchema>;

const name = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** save-ai-settings' body (and test-ai-settings'): the fields given are written, the others kept. */
export const SaveAiSettingsBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: fields.enabled })),
    base_url: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048, description: ABOUT_BASE_URL }))),
    model: Type.Optional(Nullable(name(fields.model))),
    api_key: Type.Optional(
      Type.String({
        maxLength: 4096,
        description:
          'The endpoint’s API key, encrypted at rest and never shown again; omitted or empty keeps the saved one. A local server that checks none takes any, e.g. `ollama`.',
      }),
    ),
    embeddings_model: Type.Optional(Nullable(name(fields.embeddings))),
    timeout_seconds: Type.Optional(
      Type.Integer({ minimum: TIMEOUT_SECONDS.min, maximum: TIMEOUT_SECONDS.max, description: fields.timeout }),
    ),
    monthly_token_budget: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: fields.budget })),
    ),
    input_price_per_million: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: fields.inputPrice })),
    ),
    output_price_per_million: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: fields.outputPrice })),
    ),
  },
  { additionalProperties: false },
);
export type SaveAiSettingsInput = Static<typeof SaveAiSettingsBody>;

const REASONS = ['not_configured', 'timeout', 'rate_limited', 'budget_exhausted', 'model_error'] as const;

/** test-ai-settings' answer: what one real round trip to the endpoint gave. */
export const AiSettingsTestSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'Whether the model answered (and the embeddings model, when one is set).' }),
    model: NullableField(Type.String({ description: 'The model that answered, as the endpoint names it' })),
    model_ms: NullableField(Type.Number({ description: 'How long the model took to answer, in milliseconds' })),
    reply: NullableField(Type.String({ description: 'What the model answered to a one-word prompt' })),
    embeddings: Type.Union(
      [
        Type.Object({
          model: Type.String(),
          dimensions: Type.Integer({ description: 'The length of its vectors' }),
          model_ms: Type.Number(),
        }),
        Type.Null(),
      ],
      { description: 'The embeddings model’s answer; null when none is set (or the chat model failed first).' },
    ),
    problem: Type.Union(
      [
        Type.Object({
          step: Type.Union([Type.Literal('chat'), Type.Literal('embeddings')]),
          reason: Type.Union(REASONS.map((reason) => Type.Literal(reason))),
          message: Type.String({ description: 'What is wrong, in words: the endpoint’s own when it gave some' }),
          retry_after_ms: NullableField(Type.Integer()),
        }),
        Type.Null(),
      ],
      { description: 'Why the round trip failed; null when it succeeded.' },
    ),
  },
  { $id: 'AiSettingsTest' },
);
export type AiSettingsTest = Static<typeof AiSettingsTestSchema>;

/** get-ai-usage's answer: this month's calls and tokens by purpose, against the budget. */
export const AiUsageSchema = Type.Object(
  {
    month: Type.String({ description: 'The calendar month counted (UTC), `YYYY-MM`' }),
    purposes: Type.Array(
      Type.Object({
        purpose: Type.Union(
          USAGE_PURPOSES.map((purpose) => Type.Literal(purpose)),
          {
            description:
              '`assistant` (answers to customers), `copilot` (help in the composer), `eval` (the evaluation harness), `test` (test-ai-settings), `embeddings` (the knowledge index)',
          },
        ),
        calls: Type.Integer(),
        prompt_tokens: Type.Integer(),
        completion_tokens: Type.Integer(),
        cost: NullableField(Type.Number({ description: 'By the saved prices; null without them' })),
      }),
    ),
    tokens_used: Type.Integer({ description: 'Prompt and completion tokens of every purpose this month' }),
    monthly_token_budget: NullableField(Type.Integer()),
    tokens_left: NullableField(
      Type.Integer({ description: 'What the budget leaves this month (0 once spent); null without one' }),
    ),
    cost: NullableField(Type.Number({ description: 'This month’s cost by the saved prices; null without them' })),
  },
  { $id: 'AiUsage' },
);
export type AiUsage = Static<typeof AiUsageSchema>;
