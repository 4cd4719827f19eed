import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  AssistantSettingsSchema,
  AssistantTurnSchema,
  ListAssistantTurnsBody,
  UpdateAssistantSettingsBody,
} from './assistant.schema.js';
import type { AssistantService } from './assistant.service.js';

const tags = ['AI assistant'];

/** The AI assistant's settings (also the dashboard's Settings → AI assistant) and a conversation's AI turns. */
export function registerAssistantRoutes(app: Api, assistant: AssistantService): void {
  app.addSchema(AssistantSettingsSchema);
  app.addSchema(AssistantTurnSchema);
  const settings = Type.Ref(AssistantSettingsSchema);

  app.post(
    '/api/v1/actions/get-assistant-settings',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getAssistantSettings',
        tags,
        summary: 'Where and how the AI assistant answers customers',
        description:
          'Until saved: switched off, on every number and team, always, with a limit of 5 replies per conversation and a confidence floor of 0.6. Every role reads it; changing it is update-assistant-settings (automation).',
        body: Type.Object({}),
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => assistant.settings(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-assistant-settings',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'updateAssistantSettings',
        tags,
        summary: 'Switch the AI assistant on or off, and say where and how it answers',
        description:
          'Replaces the whole setting. The assistant answers a customer’s message inside the 24-hour window, from the knowledge only, with a structured decision: reply (citing the knowledge), hand over to a person (the conversation goes to "Needs a person" with a summary note; the customer is told once), or close. It stops in a conversation a person replied in or was assigned, and hands over on a stop word, past the reply limit, below the confidence floor, on a claim its knowledge does not state, and when the model fails.',
        body: UpdateAssistantSettingsBody,
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => assistant.updateSettings(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/list-assistant-turns',
    {
      config: { access: 'read', permission: 'conversations' },
      schema: {
        operationId: 'listAssistantTurns',
        tags,
        summary: 'The AI assistant’s turns in a conversation, newest first',
        description:
          'Each time the assistant acted on a customer’s message: what it did (reply, hand_over, close) and why, the knowledge it cited (the text kept as it was), its confidence, the tokens and time it took. A reply’s message is `reply_message_id` (list-messages shows it with `sender.type` `ai`).',
        body: ListAssistantTurnsBody,
        response: {
          200: Type.Object({ turns: Type.Array(Type.Ref(AssistantTurnSchema)) }),
          ...actionErrors(404),
        },
      },
    },
    async (request) => assistant.turns(principalOf(request), request.body.contact_id, request.body.limit),
  );
}
