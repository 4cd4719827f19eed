import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { OptOutService } from './opt-out.js';
import { OptOutSettingsSchema, UpdateOptOutSettingsBody } from './opt-out.schema.js';

const tags = ['Contacts'];
const settings = Type.Ref(OptOutSettingsSchema);

/** The workspace's opt-out keywords and confirmation setting (also the dashboard's Settings → Opt-out). */
export function registerOptOutRoutes(app: Api, optOut: OptOutService): void {
  app.addSchema(OptOutSettingsSchema);

  app.post(
    '/api/v1/actions/get-opt-out-settings',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getOptOutSettings',
        tags,
        summary: 'The keywords that opt contacts out of marketing and back in',
        body: Type.Object({}),
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => optOut.get(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-opt-out-settings',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'updateOptOutSettings',
        tags,
        summary: 'Change the opt-out keywords or whether contacts are told they are unsubscribed',
        description:
          'Keyword lists are replaced whole; a keyword may not be in both lists. Keywords are matched against the whole message, ignoring case, accents and surrounding punctuation.',
        body: UpdateOptOutSettingsBody,
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => optOut.update(principalOf(request), request.body),
  );
}
