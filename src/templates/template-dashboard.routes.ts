import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/responses.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { syncWithChanges } from './template-sync-changes.js';
import type { TemplateSyncService } from './template-sync.js';
import { TemplateInputSchema } from './template.schema.js';
import type { TemplateService } from './template.service.js';

const hide = true;
const IdParams = Type.Object({ id: Uuid('Parley template id') });
const TemplateUpdateBody = Type.Omit(TemplateInputSchema, ['name'], { additionalProperties: false });

/**
 * The dashboard's template endpoints (session only): every translation in full, create and edit
 * (the public API only reads templates), and "Sync from WhatsApp". All go through TemplateService.
 */
export function registerTemplateDashboardRoutes(
  app: Api,
  templates: TemplateService,
  templateSync: TemplateSyncService,
): void {
  const caller = (request: Parameters<typeof sessionUserOf>[0]) => ({
    workspaceId: sessionUserOf(request).workspaceId,
  });

  app.get(
    '/api/dashboard/templates/:id',
    { config: { access: 'session' }, schema: { hide, params: IdParams } },
    async (request) => templates.detail(caller(request), request.params.id),
  );

  app.post(
    '/api/dashboard/templates',
    { config: { access: 'session' }, schema: { hide, body: TemplateInputSchema } },
    async (request) => templates.create(caller(request), request.body),
  );

  app.put(
    '/api/dashboard/templates/:id',
    { config: { access: 'session' }, schema: { hide, params: IdParams, body: TemplateUpdateBody } },
    async (request) => templates.update(caller(request), request.params.id, request.body),
  );

  app.post('/api/dashboard/templates/sync', { config: { access: 'session' }, schema: { hide } }, async (request) =>
    syncWithChanges(templates, templateSync, caller(request)),
  );
}
