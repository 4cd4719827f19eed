import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { CsatService } from './csat.service.js';

const tags = ['Workspace'];

const ENABLED =
  'When true, an agent closing a conversation sends the customer a WhatsApp list message asking for a 1–5 rating — only while their 24-hour window is open, and not to contacts who opted out. The answer is kept with the conversation and its agent (Reports). Off by default.';

const CsatSettingsSchema = Type.Object({ enabled: Type.Boolean({ description: ENABLED }) }, { $id: 'CsatSettings' });

/** Whether closing a conversation asks the customer for a rating (also the dashboard's Settings → Workspace). */
export function registerCsatRoutes(app: Api, csat: CsatService): void {
  app.addSchema(CsatSettingsSchema);
  const settings = Type.Ref(CsatSettingsSchema);

  app.post(
    '/api/v1/actions/get-satisfaction-survey-settings',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'getSatisfactionSurveySettings',
        tags,
        summary: 'Whether closing a conversation asks the customer for a rating',
        body: Type.Object({}),
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => csat.settings(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-satisfaction-survey-settings',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'updateSatisfactionSurveySettings',
        tags,
        summary: 'Turn the satisfaction survey after a closed conversation on or off',
        body: Type.Object({ enabled: Type.Boolean({ description: ENABLED }) }, { additionalProperties: false }),
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => csat.updateSettings(principalOf(request), request.body),
  );
}
