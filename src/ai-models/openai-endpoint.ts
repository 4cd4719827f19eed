import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { performance } from 'node:perf_hooks';
import { Agent, fetch as undiciFetch } from 'undici';
import { publicOnlyLookup } from '../shared/public-address.js';
import { ModelUnavailable, type ChatRequest, type ChatResult, type Embeddings } from './ai-model.js';

/** What one call to a workspace's endpoint needs: opened for the call, never kept (the key is in it). */
export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
  embeddingsModel: string | null;
  timeoutMs: number;
}

/** The connections to every workspace's endpoint, and how each call is made through the `openai` package. */
export interface EndpointCaller {
  chat(endpoint: Endpoint, request: ChatRequest): Promise<ChatResult>;
  /** Throws when the endpoint has no embeddings model (callers check first). */
  embed(endpoint: Endpoint, texts: string[]): Promise<Embeddings & { promptTokens: number; modelMs: number }>;
  close(): Promise<void>;
}

/** How much of an endpoint's own error message is repeated to the person (enough to say what is wrong). */
const DETAIL_MAX = 300;

/**
 * Calls OpenAI-compatible endpoints (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio) with the
 * official client, one per call: built from the workspace's settings and dropped after, so the opened
 * API key lives only as long as the call. No retries (maxRetries 0): the caller decides what a 429
 * means. Unless private endpoints are allowed, the connection refuses names that resolve to private
 * addresses (the address checked is the one connected to).
 */
export function createEndpointCaller(options: { allowPrivate: boolean }): EndpointCaller {
  const agent = new Agent(options.allowPrivate ? {} : { connect: { lookup: publicOnlyLookup } });
  const fetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof globalThis.fetch;

  const clientOf = (endpoint: Endpoint) =>
    new OpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      timeout: endpoint.timeoutMs,
      maxRetries: 0,
      fetch,
      // Named, so nothing is taken from the process's OPENAI_* variables; the client never logs.
      organization: null,
      project: null,
      logLevel: 'off',
    });

  return {
    async chat(endpoint, request) {
      const client = clientOf(endpoint);
      const started = performance.now();
      try {
        const completion = await createCompletion(client, endpoint.model, request);
        const modelMs = performance.now() - started;
        return resultOf(completion, request, modelMs);
      } catch (error) {
        throw classify(error, endpoint);
      }
    },

    async embed(endpoint, texts) {
      if (!endpoint.embeddingsModel) throw new Error('no embeddings model');
      const client = clientOf(endpoint);
      const started = performance.now();
      try {
        // `float`, named: the client would ask for base64, which some local servers do not speak.
        const answer = await client.embeddings.create({
          model: endpoint.embeddingsModel,
          input: texts,
          encoding_format: 'float',
        });
        const modelMs = performance.now() - started;
        const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
        if (vectors.length !== texts.length) {
          throw new ModelUnavailable(
            'model_error',
            `the endpoint answered ${vectors.length} vectors for ${texts.length} texts`,
          );
        }
        return { model: answer.model, vectors, promptTokens: answer.usage?.prompt_tokens ?? 0, modelMs };
      } catch (error) {
        throw classify(error, endpoint);
      }
    },

    close: () => agent.close(),
  };
}

/**
 * One chat completion. `max_tokens` is what every compatible server reads; OpenAI's reasoning models
 * refuse it for `max_completion_tokens`, so that refusal is answered by asking once more with the other.
 */
async function createCompletion(client: OpenAI, model: string, request: ChatRequest) {
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: request.messages,
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.schema && {
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: request.schema.name,
          schema: request.schema.schema as Record<string, unknown>,
          strict: true,
        },
      },
    }),
  };
  if (request.maxTokens === undefined) return client.chat.completions.create(body);
  try {
    return await client.chat.completions.create({ ...body, max_tokens: request.maxTokens });
  } catch (error) {
    if (!(error instanceof APIError && error.status === 400 && error.param === 'max_tokens')) throw error;
    return client.chat.completions.create({ ...body, max_completion_tokens: request.maxTokens });
  }
}

function resultOf(completion: OpenAI.ChatCompletion, request: ChatRequest, modelMs: number): ChatResult {
  const message = completion.choices[0]?.message;
  if (!message) throw new ModelUnavailable('model_error', 'the endpoint answered without a choice');
  if (message.refusal) throw new ModelUnavailable('model_error', `the model refused: ${clip(message.refusal)}`);
  const content = message.content ?? '';
  return {
    content,
    parsed: request.schema ? parseStructured(content) : null,
    model: completion.model,
    usage: {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    },
    modelMs,
  };
}

function parseStructured(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    throw new ModelUnavailable('model_error', 'the model answered text that is not the JSON asked for');
  }
}

/** Every failure of a call, classified once: the port's reasons, with words that name what is wrong. */
export function classify(error: unknown, endpoint: Endpoint): ModelUnavailable {
  if (error instanceof ModelUnavailable) return error;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return new ModelUnavailable('timeout', `no answer within ${endpoint.timeoutMs / 1000} s`);
  }
  if (!(error instanceof APIError)) {
    return new ModelUnavailable('model_error', `the call failed: ${clip(String((error as Error)?.message ?? error))}`);
  }
  const failure = error as APIError;
  if (failure.status === undefined) {
    return new ModelUnavailable('model_error', `could not reach ${endpoint.baseUrl}: ${clip(causeOf(failure))}`);
  }
  const said = clip(redact(endpointMessage(failure), endpoint.apiKey));
  if (failure.status === 429 && failure.code !== 'insufficient_quota') {
    return new ModelUnavailable('rate_limited', `the endpoint is rate limiting (429): ${said}`, retryAfterMs(failure));
  }
  return new ModelUnavailable('model_error', `${whoIsWrong(failure.status)} (${failure.status}): ${said}`);
}

/** What a status says is wrong, in the words a person fixing the settings needs. */
function whoIsWrong(status: number): string {
  if (status === 401) return 'the endpoint refused the API key';
  if (status === 403) return 'the API key may not use this model';
  if (status === 404) return 'the endpoint has no such model or path (check the base URL and the model)';
  if (status >= 500) return 'the endpoint failed';
  return 'the endpoint refused the request';
}

/** The endpoint's own `error.message`, else the client's summary. */
function endpointMessage(error: APIError): string {
  const body: { message?: unknown } | undefined = error.error;
  return typeof body?.message === 'string' ? body.message : error.message;
}

/** The innermost cause of a connection failure (refused, unknown host, a private address refused). */
function causeOf(error: Error): string {
  let cause = error;
  while (cause.cause instanceof Error) cause = cause.cause;
  return cause.message;
}

/** Retry-After-Ms, else Retry-After in seconds or as a date; undefined when the endpoint said nothing. */
function retryAfterMs(error: APIError): number | undefined {
  const headers = error.headers;
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms)) return Math.max(0, ms);
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** An endpoint may repeat the key it refused (OpenAI shows part of it): never pass it on. */
function redact(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
}

const clip = (text: string) => (text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text);
