import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { AutomationSummary } from './dashboard.schema.js';
import type { Database } from '../db/schema.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { automationRepository } from './automation.repository.js';

/**
 * The Sequences and Flows list pages: every sequence or flow with its counts by state in one call
 * (the public API has get-sequence and get-flow, one at a time, and dropdowns without counts).
 */
export function registerAutomationDashboardRoutes(app: Api, db: Kysely<Database>): void {
  const options = {
    config: { access: 'session' as const, permission: 'automation' as const },
    schema: { response: { 200: Type.Array(AutomationSummary) } },
  };
  app.get('/api/dashboard/sequences', options, async (request) =>
    automationRepository(db).sequences(sessionUserOf(request).workspaceId),
  );
  app.get('/api/dashboard/flows', options, async (request) =>
    automationRepository(db).flows(sessionUserOf(request).workspaceId),
  );
}
