import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { AiSettingsService } from './ai-settings.service.js';
import { AiSettingsSchema, AiSettingsTestSchema, AiUsageSchema, SaveAiSettingsBody } from './ai-settings.schema.js';

const tags = ['AI'];

const ABOUT =
  'The workspace brings its own model: any OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp’s server, LM Studio). Off until `enabled`; the API key is encrypted at rest and never shown again.';

/** get-ai-settings, save-ai-settings, test-ai-settings, get-ai-usage: the workspace's own AI model. */
export function registerAiSettingsRoutes(app: Api, settings: AiSettingsService): void {
  app.addSchema(AiSettingsSchema);
  app.addSchema(AiSettingsTestSchema);
  app.addSchema(AiUsageSchema);

  app.post(
    '/api/v1/actions/get-ai-settings',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'getAiSettings',
        tags,
        summary: "The workspace's AI model: its endpoint, model, timeout, budget and prices (never the API key)",
        description: ABOUT,
        body: Type.Object({}),
        response: { 200: Type.Ref(AiSettingsSchema), ...actionErrors() },
      },
    },
    async (request) => settings.get(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/save-ai-settings',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'saveAiSettings',
        tags,
        summary: "Set the workspace's AI model: the fields given are written, the others kept",
        description: `${ABOUT} Turning it on needs a base URL, a model and an API key (saved now or before). Nothing is called: test-ai-settings tries the endpoint.`,
        body: SaveAiSettingsBody,
        response: { 200: Type.Ref(AiSettingsSchema), ...actionErrors() },
      },
    },
    async (request) => settings.save(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/test-ai-settings',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'testAiSettings',
        tags,
        summary: 'Try the AI model with one real round trip, saving nothing',
        description:
          'The saved settings with the fields given written over them (as save-ai-settings would, without saving) ask the model for one word, then the embeddings model (when set) for one vector. The answer says how long the model took, or what is wrong (`problem`: the endpoint’s own words, a timeout, a 429, a spent budget). Works while the model is off; its tokens count as `test` in get-ai-usage.',
        body: SaveAiSettingsBody,
        response: { 200: Type.Ref(AiSettingsTestSchema), ...actionErrors() },
      },
    },
    async (request) => settings.test(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-ai-usage',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'getAiUsage',
        tags,
        summary: "This month's AI model calls and tokens by purpose, against the monthly budget",
        description:
          'Counted per calendar month (UTC) after each call, by every process; the cost follows the saved prices per million tokens.',
        body: Type.Object({}),
        response: { 200: Type.Ref(AiUsageSchema), ...actionErrors() },
      },
    },
    async (request) => settings.usage(principalOf(request)),
  );
}
