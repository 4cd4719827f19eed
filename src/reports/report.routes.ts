import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import type { ReportService } from './report.service.js';

const config = { access: 'session' as const, permission: 'reports' as const };
const manage = { access: 'session' as const, permission: 'manage_workspace' as const };
/** Meta's pricing categories (marketing, utility, authentication, service, …) → price per billable message. */
const Rates = Type.Object({
  currency: Type.String({ maxLength: 3 }),
  rates: Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Type.Number(), { maxProperties: 20 }),
});

const RateCard = Type.Object({
  effective_from: Type.String({ description: 'The day it prices from (YYYY-MM-DD, the workspace’s time zone)' }),
  currency: Type.String(),
  source: Type.String(),
  imported_at: Type.String(),
  markets: Type.Integer(),
  rates: Type.Record(Type.String(), Type.Record(Type.String(), Type.Number()), {
    description: 'Market → pricing category → price per charged message',
  }),
});

/** Meta's rate card CSV to import: the dashboard's import and `parley rates import` take the same. */
export const ImportRateCardBody = Type.Object({
  csv: Type.String({ minLength: 1, maxLength: 200_000, description: "Meta's rate card as CSV, one row per market" }),
  effective_from: Type.String({ maxLength: 10 }),
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'When the file has no Currency column' })),
  source: Type.Optional(Type.String({ maxLength: 200 })),
});

const EffectiveFrom = Type.Object({ effective_from: Type.String({ maxLength: 10 }) });

/**
 * The workspace's message rates and rate cards, which the Reports page reads and sets (the reports
 * themselves are /api/v1/reports/…). They price every report and campaign estimate.
 */
export function registerReportRoutes(app: Api, reports: ReportService): void {
  app.get('/api/dashboard/reports/rates', { config, schema: { response: { 200: Rates } } }, async (request) =>
    reports.rates(sessionUserOf(request)),
  );
  app.put(
    '/api/dashboard/reports/rates',
    { config: manage, schema: { body: Rates, response: { 200: Rates } } },
    async (request) => reports.saveRates(sessionUserOf(request), request.body),
  );

  app.get(
    '/api/dashboard/reports/rate-cards',
    { config, schema: { response: { 200: Type.Array(RateCard) } } },
    async (request) => reports.rateCards(sessionUserOf(request)),
  );
  app.post(
    '/api/dashboard/reports/rate-cards',
    { config: manage, schema: { body: ImportRateCardBody, response: { 201: RateCard } } },
    async (request, reply) => reply.code(201).send(await reports.importRateCard(sessionUserOf(request), request.body)),
  );
  app.delete(
    '/api/dashboard/reports/rate-cards/:effective_from',
    { config: manage, schema: { params: EffectiveFrom, response: { 200: Type.Array(RateCard) } } },
    async (request) => {
      await reports.deleteRateCard(sessionUserOf(request), request.params.effective_from);
      return reports.rateCards(sessionUserOf(request));
    },
  );
}
