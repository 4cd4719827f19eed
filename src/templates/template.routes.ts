import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  ButtonSchema,
  GetTemplateBody,
  ListTemplatesBody,
  TEMPLATE_LIST_CAP,
  TEMPLATE_STATUSES,
  TemplateList,
  TemplateSchema,
} from './template.schema.js';
import type { TemplateService } from './template.service.js';

/** get-template and list-templates (spec §4). */
export function registerTemplateRoutes(app: Api, templates: TemplateService): void {
  app.addSchema(ButtonSchema);
  app.addSchema(TemplateSchema);

  app.post(
    '/api/v1/actions/get-template',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getTemplate',
        tags: ['Templates'],
        summary: 'Fetch a template and the placeholders it expects',
        description:
          'Shows the first approved translation, else any translation (`status` tells which). `placeholders` are the distinct `{{n}}` numbers of the body, ascending. Other translations are listed in `translations`; choosing one to view is a dashboard feature.',
        body: GetTemplateBody,
        response: { 200: Type.Ref(TemplateSchema), ...actionErrors(404) },
      },
    },
    async (request) => templates.get(principalOf(request), request.body.template_id),
  );

  app.post(
    '/api/v1/actions/list-templates',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listTemplates',
        tags: ['Templates'],
        summary: 'List templates',
        description: `Templates whose name contains \`name\` and that have a translation in \`status\` (${TEMPLATE_STATUSES.join(', ')}); "" = no filter. Alphabetical, at most ${TEMPLATE_LIST_CAP}.`,
        body: ListTemplatesBody,
        response: { 200: TemplateList, ...actionErrors() },
      },
    },
    async (request) => templates.list(principalOf(request), request.body),
  );
}
