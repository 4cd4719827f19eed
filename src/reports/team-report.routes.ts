import { Type } from '@sinclair/typebox';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { ReportQuery } from './report-filter.js';
import { ReportFormat, reportResponse, sendReport } from './report-response.js';
import { agentRows, teamRows, type TeamReportService } from './team-report.js';
import { AgentReportSchema, TeamReportSchema } from './team-report.schema.js';

const tags = ['Reports'];
const querystring = Type.Composite([ReportQuery, ReportFormat]);
const config = { access: 'read', permission: 'reports' } as const;
const FIGURES =
  'conversations handled (answered first or closed in the range), messages sent by members, first response and resolution times (median and p90, in seconds: first response over every conversation first answered in the range, closed or not; resolution over those closed in it), the open backlog now (how many, oldest and median age), and satisfaction ratings (count, average, share of 4–5).';
const FILTERS =
  ' `from`/`to` are days in the workspace’s time zone (default: the last 30); `phone_number_id`, `team_id` and `label` keep the conversations currently on that number, in that team’s queue or with that label. `format=csv` answers one CSV row per line.';

/** The per-agent and per-team report (`/api/v1/reports/agents`, `/api/v1/reports/teams`), JSON or CSV. */
export function registerTeamReportRoutes(app: Api, reports: TeamReportService): void {
  app.get(
    '/api/v1/reports/agents',
    {
      config,
      schema: {
        operationId: 'getAgentReport',
        tags,
        summary: 'Figures per agent: volume, response times, backlog, satisfaction',
        description: `For each member (and everyone): ${FIGURES}${FILTERS}`,
        querystring,
        response: { 200: reportResponse(AgentReportSchema), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const { filter, report } = await reports.agents(principalOf(request), query);
      return sendReport(reply, { format, name: 'agents', filter }, report, agentRows);
    },
  );

  app.get(
    '/api/v1/reports/teams',
    {
      config,
      schema: {
        operationId: 'getTeamReport',
        tags,
        summary: 'Figures per team: volume, response times, backlog, satisfaction',
        description: `For each team’s queue (the conversations in it now; and everyone): ${FIGURES}${FILTERS}`,
        querystring,
        response: { 200: reportResponse(TeamReportSchema), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const { filter, report } = await reports.teams(principalOf(request), query);
      return sendReport(reply, { format, name: 'teams', filter }, report, teamRows);
    },
  );
}
