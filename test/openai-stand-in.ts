import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

/**
 * The one stand-in for an AI model's API in the test suite: OpenAI's REST API as its reference
 * documents it, on plain HTTP on a random loopback port. Point a workspace's base URL at `url`
 * (`http://127.0.0.1:PORT/v1`; the server then needs PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS=true).
 *
 *   POST /v1/chat/completions  `model`, `messages`, `response_format` (`json_schema`, checked as strict
 *                              mode checks it), `tools`/`tool_choice`, `max_tokens` (refused by reasoning
 *                              models, as OpenAI does, for `max_completion_tokens`) → a `chat.completion`
 *   POST /v1/embeddings        `input` (a string or strings), `model`, `encoding_format` (`float` or
 *                              `base64`), `dimensions` → a list of `embedding` objects with `usage`
 *   GET  /v1/models            → a list of `model` objects
 *
 * Every request needs `Authorization: Bearer <apiKey>` (else 401); an unknown model is a 404
 * `model_not_found`; errors are OpenAI's `{ error: { message, type, param, code } }`.
 *
 * What a test can turn:
 *   answer(...)       queues the next chat answers: text, a ChatAnswer (tool calls, a refusal, usage,
 *                     finish_reason), or a function of the request; with nothing queued, `respond` answers
 *                     (by default "OK", or the smallest JSON the request's schema accepts)
 *   rateLimitNext()   429 `rate_limit_exceeded` with Retry-After; failNext() 500 `server_error`;
 *   hangNext()        the next requests get no answer at all (a timeout), until close
 *   latencyMs         how long each answer takes, as a model's own time
 *   requests          every request received, refused ones included
 *
 * Embeddings are deterministic and mean something: a hashed bag of words, normalised, so texts that
 * share words are near (cosine) and texts that share none are orthogonal or nearly so.
 */

/** The key a stand-in accepts unless it is started with another. */
export const STAND_IN_API_KEY = 'sk-stand-in-0123456789';
/** The models the stand-in serves unless told of others. */
export const CHAT_MODEL = 'gpt-4.1-mini';
export const REASONING_MODEL = 'o4-mini';
export const EMBEDDINGS_MODEL = 'text-embedding-3-small';
/** text-embedding-3-small answers 1536 dimensions; the stand-in fewer, unless asked (`dimensions`). */
export const EMBEDDING_DIMENSIONS = 256;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body; null when there was none. */
  body: Record<string, unknown> | null;
  at: number;
}

/** One chat answer, as a test scripts it. */
export interface ChatAnswer {
  content?: string | null;
  toolCalls?: { name: string; arguments: unknown }[];
  refusal?: string;
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  usage?: { promptTokens: number; completionTokens: number };
}

export type Responder = (request: ChatCompletionRequest) => string | ChatAnswer;

/** The chat completions request as the stand-in read it. */
export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  response_format?: { type: string; json_schema?: { name: string; schema: JsonSchema; strict?: boolean } };
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: JsonSchema } }[];
  tool_choice?: unknown;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
}

export type JsonSchema = Record<string, unknown>;

export interface OpenAiStandIn {
  /** The base URL, up to and including `/v1`. */
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  /** The chat completions received (the bodies), in order. */
  chats(): ChatCompletionRequest[];
  answer(...answers: (string | ChatAnswer | Responder)[]): void;
  /** Answers every chat nothing is queued for (replaces the default). */
  respond: Responder;
  rateLimitNext(retryAfterSeconds: number, times?: number): void;
  failNext(times?: number): void;
  hangNext(times?: number): void;
  latencyMs: number;
  /** Serves one more model (`reasoning`: refuses `max_tokens`, as OpenAI's o-series do). */
  addModel(id: string, options?: { reasoning?: boolean }): void;
  close(): Promise<void>;
}

interface Scripted {
  kind: 'rate_limit' | 'fail' | 'hang';
  retryAfterSeconds?: number;
}

/** Starts a stand-in, closed after the file's tests. */
export async function startOpenAiStandIn(options: { apiKey?: string } = {}): Promise<OpenAiStandIn> {
  const apiKey = options.apiKey ?? STAND_IN_API_KEY;
  const models = new Map<string, { reasoning: boolean }>([
    [CHAT_MODEL, { reasoning: false }],
    [REASONING_MODEL, { reasoning: true }],
    ['llama3.2', { reasoning: false }],
    [EMBEDDINGS_MODEL, { reasoning: false }],
    ['nomic-embed-text', { reasoning: false }],
  ]);
  const queued: (string | ChatAnswer | Responder)[] = [];
  const scripted: Scripted[] = [];
  const hanging = new Set<http.ServerResponse>();

  const standIn: OpenAiStandIn = {
    url: '',
    apiKey,
    requests: [],
    chats: () =>
      standIn.requests
        .filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions')
        .map((r) => r.body as unknown as ChatCompletionRequest),
    answer: (...answers) => void queued.push(...answers),
    respond: defaultResponder,
    rateLimitNext: (retryAfterSeconds, times = 1) =>
      scripted.push(...Array.from({ length: times }, () => ({ kind: 'rate_limit' as const, retryAfterSeconds }))),
    failNext: (times = 1) => scripted.push(...Array.from({ length: times }, () => ({ kind: 'fail' as const }))),
    hangNext: (times = 1) => scripted.push(...Array.from({ length: times }, () => ({ kind: 'hang' as const }))),
    latencyMs: 0,
    addModel: (id, modelOptions = {}) => void models.set(id, { reasoning: modelOptions.reasoning ?? false }),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        return send(response, 400, openAiError('We could not parse the JSON body of your request.', null, null));
      }
      const path = (request.url ?? '/').split('?')[0]!;
      standIn.requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body, at: Date.now() });
      void answerRequest(request.method ?? 'GET', path, request.headers.authorization, body, response);
    });
  });

  async function answerRequest(
    method: string,
    path: string,
    authorization: string | undefined,
    body: Record<string, unknown> | null,
    response: http.ServerResponse,
  ): Promise<void> {
    const refusal = authRefusal(authorization, apiKey);
    if (refusal) return send(response, 401, refusal);
    const next = scripted.shift();
    if (next?.kind === 'hang') {
      hanging.add(response);
      return;
    }
    if (standIn.latencyMs > 0) await new Promise((done) => setTimeout(done, standIn.latencyMs));
    if (next?.kind === 'rate_limit') return send(response, 429, rateLimited(body), retryAfter(next));
    if (next?.kind === 'fail') {
      return send(
        response,
        500,
        openAiError(
          'The server had an error while processing your request. Sorry about that!',
          null,
          null,
          'server_error',
        ),
      );
    }
    if (method === 'GET' && path === '/v1/models') return send(response, 200, modelList(models));
    if (method === 'POST' && path === '/v1/chat/completions') return answerChat(body ?? {}, response);
    if (method === 'POST' && path === '/v1/embeddings') return answerEmbeddings(body ?? {}, response);
    return send(response, 404, openAiError(`Invalid URL (${method} ${path})`, null, null));
  }

  function answerChat(body: Record<string, unknown>, response: http.ServerResponse): void {
    const request = body as unknown as ChatCompletionRequest;
    const problem = chatProblem(request, models);
    if (problem) return send(response, problem.status, problem.body);
    const next = queued.shift() ?? standIn.respond;
    const answer = typeof next === 'function' ? next(request) : next;
    send(response, 200, completion(request, typeof answer === 'string' ? { content: answer } : answer));
  }

  function answerEmbeddings(body: Record<string, unknown>, response: http.ServerResponse): void {
    const model = body.model;
    if (typeof model !== 'string') return send(response, 400, missing('model'));
    if (!models.has(model)) return send(response, 404, modelNotFound(model));
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((i) => typeof i !== 'string' || i === '')) {
      return send(response, 400, openAiError("'$.input' is invalid. Please check the API reference.", 'input', null));
    }
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : EMBEDDING_DIMENSIONS;
    const base64 = body.encoding_format === 'base64';
    const texts = inputs as string[];
    send(response, 200, {
      object: 'list',
      data: texts.map((text, index) => {
        const vector = embedText(text, dimensions);
        return {
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
        };
      }),
      model,
      usage: { prompt_tokens: tokensOf(texts.join(' ')), total_tokens: tokensOf(texts.join(' ')) },
    });
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  after(() => standIn.close());
  return standIn;
}

/**
 * A hashed bag of words: each word adds ±1 to one of `dimensions` places (by its SHA-256), and the
 * vector is normalised to length 1 (OpenAI's embeddings are), so cosine similarity is a dot product.
 */
export function embedText(text: string, dimensions = EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    vector[digest.readUInt32BE(0) % dimensions]! += digest[4]! & 1 ? 1 : -1;
  }
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}

/** About four characters a token, as OpenAI's rule of thumb: deterministic, and enough for budgets. */
export const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function completion(request: ChatCompletionRequest, answer: ChatAnswer) {
  const toolCalls = answer.toolCalls?.map((call) => ({
    id: `call_${randomBytes(12).toString('hex')}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const content = answer.refusal ? null : (answer.content ?? (toolCalls ? null : ''));
  const prompt = tokensOf(request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n'));
  const completionTokens = tokensOf(content ?? JSON.stringify(toolCalls ?? ''));
  const usage = answer.usage ?? { promptTokens: prompt, completionTokens };
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: answer.refusal ?? null,
          annotations: [],
          ...(toolCalls && { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: answer.finishReason ?? (toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: 'default',
    system_fingerprint: null,
  };
}

/** What OpenAI refuses of a chat request before any model runs: the parameters, the model, a strict schema. */
function chatProblem(
  request: ChatCompletionRequest,
  models: Map<string, { reasoning: boolean }>,
): { status: number; body: object } | null {
  if (typeof request.model !== 'string') return { status: 400, body: missing('model') };
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    return {
      status: 400,
      body: openAiError(
        "Invalid 'messages': empty array. Expected an array with minimum length 1.",
        'messages',
        'empty_array',
      ),
    };
  }
  const model = models.get(request.model);
  if (!model) return { status: 404, body: modelNotFound(request.model) };
  if (model.reasoning && request.max_tokens !== undefined) {
    return {
      status: 400,
      body: openAiError(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'max_tokens',
        'unsupported_parameter',
      ),
    };
  }
  const format = request.response_format;
  if (format?.type === 'json_schema' && format.json_schema?.strict) {
    const problem = strictSchemaProblem(format.json_schema.schema, []);
    if (problem) {
      return {
        status: 400,
        body: openAiError(
          `Invalid schema for response_format '${format.json_schema.name}': In context=(${problem.context}), ${problem.message}`,
          'response_format',
          null,
        ),
      };
    }
  }
  return null;
}

/**
 * Structured Outputs' strict mode: every object says `additionalProperties: false` and requires
 * each of its properties (an optional one is written as a union with null).
 */
function strictSchemaProblem(schema: JsonSchema, path: string[]): { context: string; message: string } | null {
  const context = path.map((p) => `'${p}'`).join(', ');
  if (schema.type === 'object' || schema.properties) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    if (schema.additionalProperties !== false) {
      return { context, message: "'additionalProperties' is required to be supplied and to be false." };
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const missingKey = Object.keys(properties).find((key) => !required.includes(key));
    if (missingKey !== undefined) {
      return {
        context,
        message: `'required' is required to be supplied and to be an array including every key in properties. Missing '${missingKey}'.`,
      };
    }
    for (const [key, property] of Object.entries(properties)) {
      const problem = strictSchemaProblem(property, [...path, 'properties', key]);
      if (problem) return problem;
    }
  }
  if (schema.items && typeof schema.items === 'object') {
    return strictSchemaProblem(schema.items as JsonSchema, [...path, 'items']);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    for (const [index, option] of (options as JsonSchema[]).entries()) {
      const problem = strictSchemaProblem(option, [...path, key, String(index)]);
      if (problem) return problem;
    }
  }
  return null;
}

/** "OK", or the smallest JSON the request's schema accepts (an enum's first value, empty strings and lists). */
function defaultResponder(request: ChatCompletionRequest): string {
  const schema = request.response_format?.json_schema?.schema;
  return schema ? JSON.stringify(smallestInstance(schema)) : 'OK';
}

function smallestInstance(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) return smallestInstance(options[0]!);
  const type = Array.isArray(schema.type) ? (schema.type[0] as string) : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([k, v]) => [
          k,
          smallestInstance(v),
        ]),
      );
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function authRefusal(authorization: string | undefined, apiKey: string): object | null {
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!given) {
    return openAiError(
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      null,
      null,
    );
  }
  if (given === apiKey) return null;
  const shown = given.length > 8 ? `${given.slice(0, 3)}*************${given.slice(-4)}` : '****';
  return openAiError(
    `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    null,
    'invalid_api_key',
  );
}

function rateLimited(body: Record<string, unknown> | null) {
  const model = typeof body?.model === 'string' ? body.model : CHAT_MODEL;
  return openAiError(
    `Rate limit reached for ${model} in organization org-standin on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
    null,
    'rate_limit_exceeded',
    'requests',
  );
}

const retryAfter = (scripted: Scripted) => ({ 'retry-after': String(scripted.retryAfterSeconds ?? 1) });

const modelNotFound = (model: string) =>
  openAiError(`The model \`${model}\` does not exist or you do not have access to it.`, null, 'model_not_found');

const missing = (param: string) =>
  openAiError(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');

function modelList(models: Map<string, unknown>) {
  return {
    object: 'list',
    data: [...models.keys()].map((id) => ({ id, object: 'model', created: 1686935002, owned_by: 'system' })),
  };
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openAiError(
  message: string,
  param: string | null,
  code: string | null,
  type = 'invalid_request_error',
) {
  return { error: { message, type, param, code } };
}

function send(response: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_${randomBytes(16).toString('hex')}`,
    'openai-processing-ms': '1',
    ...headers,
  });
  response.end(text);
}
