import { CampaignReviewBody } from '../campaigns/index.js';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Deps } from '../db/deps.js';
import { estimateCampaign } from './campaign-estimate.js';
import { CampaignEstimate } from './cost.schema.js';

/** POST /api/v1/actions/estimate-campaign: a campaign's cost before it is created (a dry run of create-campaign). */
export function registerCampaignEstimateRoutes(app: Api, deps: Deps): void {
  app.post(
    '/api/v1/actions/estimate-campaign',
    {
      config: { access: 'read', permission: 'campaigns' },
      schema: {
        operationId: 'estimateCampaign',
        tags: ['Campaigns'],
        summary: 'Estimate what a campaign would cost, without creating it',
        description:
          "Takes create-campaign's template, variables and audience, checks them as create-campaign does (404, 422), and answers without creating or sending anything: the messages it would send now (recipients not opted out whose placeholders all have values), and their cost by the recipients' market (country calling code), each counted as charged and priced by the rates in effect now: the workspace's rate card for the market and category, else its rate for the category, else Meta's shipped USD card. Markets no rate prices have `rate` null and are counted in `unpriced`, never as free.",
        body: CampaignReviewBody,
        response: { 200: CampaignEstimate, ...actionErrors(404) },
      },
    },
    async (request) => (await estimateCampaign(deps, principalOf(request), request.body)).estimate,
  );
}
