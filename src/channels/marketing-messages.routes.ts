import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  MarketingMessagesSettingsSchema,
  UpdateMarketingMessagesBody,
  type MarketingMessagesSettingsService,
} from './marketing-messages.js';

const tags = ['Channels'];

/** Whether marketing templates go through Meta's Marketing Messages API (also the dashboard's Settings → Channel). */
export function registerMarketingMessagesRoutes(app: Api, marketingMessages: MarketingMessagesSettingsService): void {
  app.addSchema(MarketingMessagesSettingsSchema);
  const settings = Type.Ref(MarketingMessagesSettingsSchema);

  app.post(
    '/api/v1/actions/get-marketing-messages-settings',
    {
      config: { access: 'read', permission: 'manage_channel' },
      schema: {
        operationId: 'getMarketingMessagesSettings',
        tags,
        summary: "Whether marketing templates go through Meta's Marketing Messages API",
        body: Type.Object({}),
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => marketingMessages.settings(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-marketing-messages-settings',
    {
      config: { access: 'write', permission: 'manage_channel' },
      schema: {
        operationId: 'updateMarketingMessagesSettings',
        tags,
        summary: "Turn Meta's Marketing Messages API for marketing templates on or off",
        description:
          "Turning it on needs `meta_terms_accepted: true`: the business accepted Meta's Marketing Messages API terms (in WhatsApp Manager); without it the answer is 400 naming that field. Who confirmed it and when are kept.",
        body: UpdateMarketingMessagesBody,
        response: { 200: settings, ...actionErrors() },
      },
    },
    async (request) => marketingMessages.update(principalOf(request), request.body),
  );
}
