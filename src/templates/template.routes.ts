import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { TemplateSubmissionService } from './template-submission.js';
import {
  ButtonSchema,
  CreateTemplateBody,
  DeleteTemplateBody,
  DeletedTemplate,
  GetTemplateBody,
  ListTemplatesBody,
  TEMPLATE_LIST_CAP,
  TEMPLATE_PAGE_LIMIT,
  TEMPLATE_STATUSES,
  TemplateList,
  TemplatePage,
  TemplateSchema,
  UpdateTemplateBody,
} from './template.schema.js';
import type { TemplateService } from './template.service.js';

const SUBMITTED =
  "Each translation is submitted to the WhatsApp Business Account for review (`POST /{waba_id}/message_templates`; the simulator approves it after a short delay); its `status` is then PENDING until Meta decides, and `rejection_reason` says why Meta rejected it. A refusal by Meta is a 422 `template_refused` naming the field it most likely concerns, with Meta's words.";

/** get-template and list-templates (spec §4); create-, update- and delete-template submit to Meta. */
export function registerTemplateRoutes(
  app: Api,
  templates: TemplateService,
  submission: TemplateSubmissionService,
): void {
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

  app.post(
    '/api/v1/actions/create-template',
    {
      config: { access: 'write', permission: 'templates' },
      schema: {
        operationId: 'createTemplate',
        tags: ['Templates'],
        summary: 'Create a template and submit it to Meta',
        description: `A new name (Meta's rule: lower case, digits, _). Give \`examples\`: a sample for every variable, which Meta requires. ${SUBMITTED}`,
        body: CreateTemplateBody,
        response: { 200: Type.Ref(TemplateSchema), ...actionErrors() },
      },
    },
    async (request) => submission.create(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/update-template',
    {
      config: { access: 'write', permission: 'templates' },
      schema: {
        operationId: 'updateTemplate',
        tags: ['Templates'],
        summary: 'Edit a template and submit it to Meta again',
        description: `Category and translations, matched by language: a translation Meta knows is edited (\`POST /{template_id}\`), a new language is created; others are left as they are. Meta never renames a template. ${SUBMITTED}`,
        body: UpdateTemplateBody,
        response: { 200: Type.Ref(TemplateSchema), ...actionErrors(404) },
      },
    },
    async (request) => submission.update(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/delete-template',
    {
      config: { access: 'write', permission: 'templates' },
      schema: {
        operationId: 'deleteTemplate',
        tags: ['Templates'],
        summary: 'Delete a template at Meta and in Parley',
        description:
          'Every translation (Meta deletes the name), or only `language` (Meta deletes that translation by its id). Meta refusing is a 422 `template_refused`; then nothing is deleted in Parley.',
        body: DeleteTemplateBody,
        response: { 200: DeletedTemplate, ...actionErrors(404) },
      },
    },
    async (request) => submission.remove(principalOf(request), request.body),
  );
}
