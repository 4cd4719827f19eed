import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import type { ReportService } from './report.service.js';

const config = { access: 'session' as const, permission: 'reports' as const };
/** Meta's pricing categories (marketing, utility, authentication, service, …) → price per billable message. */
const Rates = Type.Object({
  currency: Type.String({ maxLength: 3 }),
  rates: Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Type.Number(), { maxProperties: 20 }),
});

/** The workspace's message rates, which the Reports page reads and sets (the reports themselves are /api/v1/reports/…). */
export function registerReportRoutes(app: Api, reports: ReportService): void {
  app.get('/api/dashboard/reports/rates', { config, schema: { response: { 200: Rates } } }, async (request) =>
    reports.rates(sessionUserOf(request)),
  );

  // The message rates are the workspace's setting, used by every report and campaign estimate.
  app.put(
    '/api/dashboard/reports/rates',
    {
      config: { access: 'session', permission: 'manage_workspace' },
      schema: { body: Rates, response: { 200: Rates } },
    },
    async (request) => reports.saveRates(sessionUserOf(request), request.body),
  );
}
