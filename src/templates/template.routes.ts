import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  ButtonSchema,
  GetTemplateBody,
  ListTemplatesBody,
  TEMPLATE_LIST_CAP,
  TEMPLATE_PAGE_LIMIT,
  TEMPLATE_STATUSES,
  TemplateList,
  TemplatePage,
  TemplateSchema,
} from './template.schema.js';
import type { TemplateService } from './template.service.js';

/** get-template and list-templates (spec §4). */
export function registerTemplateRoutes(app: Api, templates: TemplateService): void {
  app.addSchema(ButtonSchema);
  app.addSchema(TemplateSchema);
  app.addSchema(TemplatePage);

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
        description: `Templates whose name contains \`name\` and that have a translation in \`status\` (${TEMPLATE_STATUSES.join(', ')}); "" = no filter. Alphabetical, at most ${TEMPLATE_LIST_CAP}. With \`paginate=cursor\`, every matching template page by page, in creation (id) order.`,
        querystring: Type.Object(pageQuery(TEMPLATE_PAGE_LIMIT)),
        body: ListTemplatesBody,
        response: { 200: listingResponse(TemplateList, TemplatePage), ...actionErrors() },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.query, TEMPLATE_PAGE_LIMIT);
      const caller = principalOf(request);
      const listing = page
        ? await templates.listPage(caller, request.body, page)
        : await templates.list(caller, request.body);
      return sendListing(reply, listing, { list: TemplateList, page: TemplatePage });
    },
  );
}
