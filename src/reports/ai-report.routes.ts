import { Type } from '@sinclair/typebox';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { aiReportRows, type AiReportService } from './ai-report.js';
import { AiReportSchema } from './ai-report.schema.js';
import { ReportQuery } from './report-filter.js';
import { ReportFormat, reportResponse, sendReport } from './report-response.js';

/** GET /api/v1/reports/ai: how the AI assistant did, JSON or CSV. */
export function registerAiReportRoutes(app: Api, reports: AiReportService): void {
  app.get(
    '/api/v1/reports/ai',
    {
      config: { access: 'read', permission: 'reports' },
      schema: {
        operationId: 'getAiReport',
        tags: ['Reports'],
        summary: 'How the AI assistant did: conversations resolved and handed over, ratings, tokens and cost',
        description:
          'The conversations the AI assistant handled (those whose first turn fell in the range) and how they ended, whenever that was: answered, handed over (and why), resolved without a person (closed with no person taking part and not reopened within 7 days), reopened within 7 days, or still inside those 7 days; every day of the range by its conversations’ first turn. Then the turns of the range (by action; the model’s time and the rest, p50 and p99), customers’ ratings given in the range of conversations the assistant handled alone, with a person, or people alone, the turns’ tokens and their cost at the model’s saved prices, the usage ledger of every purpose for the UTC months the range touches, and what Meta charged for the assistant’s messages (as the cost ledger prices them). `from`/`to` are days in the workspace’s time zone (default: the last 30); `phone_number_id`, `team_id` and `label` keep the conversations currently on that number, in that team’s queue or with that label. `format=csv` answers one figure per row.',
        querystring: Type.Composite([ReportQuery, ReportFormat]),
        response: { 200: reportResponse(AiReportSchema), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const { filter, report } = await reports.report(principalOf(request), query);
      return sendReport(reply, { format, name: 'ai', filter }, report, aiReportRows);
    },
  );
}
