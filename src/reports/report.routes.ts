import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import { REPORT_TABLES, reportCsv } from './report.csv.js';
import type { ReportService } from './report.service.js';

const hide = true;
const config = { access: 'session' as const, permission: 'reports' as const };
/** YYYY-MM-DD; the service checks the calendar and the range's order and length. */
const Range = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 10 })),
  to: Type.Optional(Type.String({ maxLength: 10 })),
});
/** Meta's pricing categories (marketing, utility, authentication, service, …) → price per billable message. */
const Rates = Type.Object({
  currency: Type.String({ maxLength: 3 }),
  rates: Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Type.Number(), { maxProperties: 20 }),
});

/** The Reports page's endpoints: the report over a date range, each table as CSV, and the workspace's message rates. */
export function registerReportRoutes(app: Api, reports: ReportService): void {
  app.get('/api/dashboard/reports', { config, schema: { hide, querystring: Range } }, async (request) =>
    reports.report(sessionUserOf(request), request.query),
  );

  app.get(
    '/api/dashboard/reports/:table.csv',
    {
      config,
      schema: {
        hide,
        params: Type.Object({ table: Type.Union(REPORT_TABLES.map((table) => Type.Literal(table))) }),
        querystring: Range,
      },
    },
    async (request, reply) => {
      const report = await reports.report(sessionUserOf(request), request.query);
      const { table } = request.params;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${table}-${report.range.from}-${report.range.to}.csv"`)
        .header('cache-control', 'no-store')
        .send(reportCsv(report, table));
    },
  );

  app.get('/api/dashboard/reports/rates', { config, schema: { hide } }, async (request) =>
    reports.rates(sessionUserOf(request)),
  );

  // The message rates are the workspace's setting, used by every report and campaign estimate.
  app.put(
    '/api/dashboard/reports/rates',
    { config: { access: 'session', permission: 'manage_workspace' }, schema: { hide, body: Rates } },
    async (request) => reports.saveRates(sessionUserOf(request), request.body),
  );
}
