import { Type } from '@sinclair/typebox';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Deps } from '../db/deps.js';
import { costLedger, costLedgerCsv } from './cost-ledger.js';
import { CostLedger, LedgerQuery } from './cost.schema.js';
import { ReportQuery, resolveReportFilter } from './report-filter.js';
import { ReportFormat, reportResponse, sendReport } from './report-response.js';

/** GET /api/v1/reports/costs: what the charged messages cost, by day, number or campaign. */
export function registerCostLedgerRoutes(app: Api, deps: Deps): void {
  app.get(
    '/api/v1/reports/costs',
    {
      config: { access: 'read', permission: 'reports' },
      schema: {
        operationId: 'getCostLedger',
        tags: ['Reports'],
        summary: 'The cost ledger: what Meta charged for messages, by day, number or campaign',
        description:
          "What the messages sent in the range (the workspace's time zone's days; default the last 30) cost: those Meta's status webhooks priced as charged (pricing.type `regular`), each priced by its pricing category and its recipient's market (country calling code) with the workspace's rate card in effect when it was sent, else the workspace's rate for the category, else Meta's shipped USD card (`pricing` names them). `group_by` adds them up by day (every day of the range), by sending number or by campaign (groups with charged messages, the costliest first; a null key: messages outside campaigns). `phone_number_id`, `team_id` and `label` narrow as in every report. `format=csv` answers one row per group.",
        querystring: Type.Object({ ...ReportQuery.properties, ...LedgerQuery.properties, ...ReportFormat.properties }),
        response: { 200: reportResponse(CostLedger), ...readErrors(403) },
      },
    },
    async (request, reply) => {
      const { format, group_by, ...query } = request.query;
      const filter = await resolveReportFilter(deps.db, deps.clock, principalOf(request).workspaceId, query);
      const ledger = await costLedger(deps, filter, group_by ?? 'day');
      return sendReport(reply, { format, name: `costs-by-${ledger.group_by}`, filter }, ledger, costLedgerCsv);
    },
  );
}
