import { Type } from '@sinclair/typebox';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Deps } from '../db/deps.js';
import { campaignReport, campaignReportCsv } from './campaign-report.js';
import { CampaignReport } from './campaign-report.schema.js';
import { ReportQuery, resolveReportFilter } from './report-filter.js';
import { ReportFormat, reportResponse, sendReport } from './report-response.js';

/** GET /api/v1/reports/campaigns: each campaign's funnel, Meta's reasons for failures, and its cost. */
export function registerCampaignReportRoutes(app: Api, deps: Deps): void {
  app.get(
    '/api/v1/reports/campaigns',
    {
      config: { access: 'read', permission: 'reports' },
      schema: {
        operationId: 'getCampaignReport',
        tags: ['Reports'],
        summary: 'Campaign outcomes: the funnel, why messages failed, and what they cost',
        description:
          "For each campaign dispatched in the range (the days are the workspace's time zone's; default the last 30), newest first: the funnel sent → delivered → read → replied → opted out, and failed (cumulative: a read message was also delivered and sent), failures grouped by Meta's error code with what each means, `not_read` (whom resend-campaign would message), and the cost of the messages Meta reported billable, each priced by its pricing category and the recipient's market (country calling code): the workspace's own rates where set, else Meta's published rate card in USD (`pricing` names it). `phone_number_id`, `team_id` and `label` narrow to the messages sent from that number, or to recipients whose conversation is in that team's queue or has that label. `format=csv` answers one row per campaign.",
        querystring: Type.Object({ ...ReportQuery.properties, ...ReportFormat.properties }),
        response: { 200: reportResponse(CampaignReport), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const filter = await resolveReportFilter(deps.db, deps.clock, principalOf(request).workspaceId, query);
      const report = await campaignReport(deps, filter);
      return sendReport(reply, { format, name: 'campaigns', filter }, report, campaignReportCsv);
    },
  );
}
