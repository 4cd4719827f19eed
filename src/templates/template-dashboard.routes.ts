import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/responses.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { syncWithChanges } from './template-sync-changes.js';
import type { TemplateSubmissionService } from './template-submission.js';
import type { TemplateSyncService } from './template-sync.js';
import { CreateTemplateBody, UpdateTemplateBody } from './template.schema.js';
import type { TemplateService } from './template.service.js';
import { TemplateDetail, TemplateSyncResult } from './template-dashboard.schema.js';

const IdParams = Type.Object({ id: Uuid('Parley template id') });
const TemplateUpdateBody = Type.Omit(UpdateTemplateBody, ['template_id'], { additionalProperties: false });

/**
 * The dashboard's template endpoints (session only): every translation in full, create and edit
 * (submitted to Meta, as create- and update-template do), and "Sync from WhatsApp".
 */
export function registerTemplateDashboardRoutes(
  app: Api,
  templates: TemplateService,
  templateSync: TemplateSyncService,
  submission: TemplateSubmissionService,
): void {
  const caller = (request: Parameters<typeof sessionUserOf>[0]) => ({
    workspaceId: sessionUserOf(request).workspaceId,
  });

  app.get(
    '/api/dashboard/templates/:id',
    { config: { access: 'session' }, schema: { params: IdParams, response: { 200: TemplateDetail } } },
    async (request) => templates.detail(caller(request), request.params.id),
  );

  app.post(
    '/api/dashboard/templates',
    {
      config: { access: 'session', permission: 'templates' },
      schema: { body: CreateTemplateBody, response: { 200: TemplateDetail } },
    },
    async (request) => {
      const created = await submission.create(caller(request), request.body);
      return templates.detail(caller(request), created.id);
    },
  );

  app.put(
    '/api/dashboard/templates/:id',
    {
      config: { access: 'session', permission: 'templates' },
      schema: { params: IdParams, body: TemplateUpdateBody, response: { 200: TemplateDetail } },
    },
    async (request) => {
      const input = { ...request.body, template_id: request.params.id };
      const updated = await submission.update(caller(request), input);
      return templates.detail(caller(request), updated.id);
    },
  );

  app.post(
    '/api/dashboard/templates/sync',
    { config: { access: 'session', permission: 'templates' }, schema: { response: { 200: TemplateSyncResult } } },
    async (request) => syncWithChanges(templates, templateSync, caller(request)),
  );
}
