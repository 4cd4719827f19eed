import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { CampaignReviewBody, reviewCampaign, sendSample, SampleSendBody } from '../campaigns/index.js';
import type { Database } from '../db/schema.js';
import { type MessageService, MessageSchema } from '../messages/index.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { estimatedCost, type ReportService } from '../reports/index.js';
import { CampaignReview } from './dashboard.schema.js';

/**
 * The New campaign form's helpers: the confirm step's review (the audience counted, the message as
 * its first recipient will see it, the estimated cost at the workspace's rates) and a sample send.
 */
export function registerCampaignDashboardRoutes(
  app: Api,
  deps: {
    db: Kysely<Database>;
    messages: Pick<MessageService, 'sendTemplate'>;
    reports: Pick<ReportService, 'rates'>;
  },
): void {
  const config = { access: 'session' as const, permission: 'campaigns' as const };
  app.post(
    '/api/dashboard/campaigns/review',
    { config, schema: { body: CampaignReviewBody, response: { 200: CampaignReview } } },
    async (request) => {
      const caller = sessionUserOf(request);
      const review = await reviewCampaign(deps.db, caller, request.body);
      return { ...review, cost: estimatedCost(review.messages, review.category, await deps.reports.rates(caller)) };
    },
  );
  app.post(
    '/api/dashboard/campaigns/sample',
    { config, schema: { body: SampleSendBody, response: { 200: Type.Ref(MessageSchema) } } },
    async (request) => sendSample(deps.messages, sessionUserOf(request), request.body),
  );
}
