import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { CampaignReviewBody, sendSample, SampleSendBody } from '../campaigns/index.js';
import type { Database } from '../db/schema.js';
import { type MessageService, MessageSchema } from '../messages/index.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { estimateCampaign } from '../reports/index.js';
import type { Deps } from '../db/deps.js';
import { CampaignReview } from './dashboard.schema.js';

/**
 * The New campaign form's helpers: the confirm step's review (the audience counted, the message as
 * its first recipient will see it, the estimated cost by market: estimate-campaign's) and a sample send.
 */
export function registerCampaignDashboardRoutes(
  app: Api,
  deps: {
    db: Kysely<Database>;
    messages: Pick<MessageService, 'sendTemplate'>;
    deps: Deps;
  },
): void {
  const config = { access: 'session' as const, permission: 'campaigns' as const };
  app.post(
    '/api/dashboard/campaigns/review',
    { config, schema: { body: CampaignReviewBody, response: { 200: CampaignReview } } },
    async (request) => {
      const { review, estimate } = await estimateCampaign(deps.deps, sessionUserOf(request), request.body);
      const { contacts, opted_out, preview, category, messages } = review;
      return { contacts, opted_out, preview, category, messages, cost: estimate };
    },
  );
  app.post(
    '/api/dashboard/campaigns/sample',
    { config, schema: { body: SampleSendBody, response: { 200: Type.Ref(MessageSchema) } } },
    async (request) => sendSample(deps.messages, sessionUserOf(request), request.body),
  );
}
