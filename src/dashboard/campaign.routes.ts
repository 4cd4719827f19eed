import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { countAudience } from '../campaigns/campaign.audience.js';
import { sendSample, SampleSendBody } from '../campaigns/campaign.sample.js';
import { AudienceSchema } from '../campaigns/campaign.schema.js';
import type { Database } from '../db/schema.js';
import type { MessageService } from '../messages/message.service.js';
import { sessionUserOf, type Api } from '../http/types.js';

/**
 * The New campaign form's helpers: how many contacts the audience reaches (shown before the confirm
 * step) and a sample send to one number.
 */
export function registerCampaignDashboardRoutes(
  app: Api,
  deps: { db: Kysely<Database>; messages: Pick<MessageService, 'sendTemplate'> },
): void {
  const config = { access: 'session' as const };
  app.post(
    '/api/dashboard/campaigns/audience',
    { config, schema: { hide: true, body: Type.Object({ audience: AudienceSchema }) } },
    async (request) => countAudience(deps.db, sessionUserOf(request).workspaceId, request.body.audience),
  );
  app.post(
    '/api/dashboard/campaigns/sample',
    { config, schema: { hide: true, body: SampleSendBody } },
    async (request) => sendSample(deps.messages, sessionUserOf(request), request.body),
  );
}
