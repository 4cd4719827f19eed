import { Type } from '@sinclair/typebox';
import { readErrors, Uuid } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { DropdownService } from './dropdown.service.js';

const ChoiceList = Type.Array(Type.Object({ id: Type.String(), label: Type.String() }));

/** GET /v1/dropdowns/*: pick-lists that integration tools show when configuring an action. */
export function registerDropdownRoutes(app: Api, dropdowns: DropdownService): void {
  const options = (operationId: string, summary: string, extra: object = {}) => ({
    config: { access: 'read' as const },
    schema: { operationId, tags: ['Dropdowns'], summary, response: { 200: ChoiceList, ...readErrors() }, ...extra },
  });

  app.get('/api/v1/dropdowns/templates', options('dropdownTemplates', 'Templates as {id, label}'), (request) =>
    dropdowns.templates(principalOf(request)),
  );
  app.get('/api/v1/dropdowns/sequences', options('dropdownSequences', 'Sequences as {id, label}'), (request) =>
    dropdowns.sequences(principalOf(request)),
  );
  app.get('/api/v1/dropdowns/flows', options('dropdownFlows', 'Flows as {id, label}'), (request) =>
    dropdowns.flows(principalOf(request)),
  );
  app.get(
    '/api/v1/dropdowns/template-variables',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'dropdownTemplateVariables',
        tags: ['Dropdowns'],
        summary: 'Every variable of a template as {id, label}: body "1" (or a name), then "header_1", "button_0_1"',
        querystring: Type.Object({ template_id: Uuid('Parley template id') }, { required: ['template_id'] }),
        response: { 200: ChoiceList, ...readErrors(404) },
      },
    },
    (request) => dropdowns.templateVariables(principalOf(request), request.query.template_id),
  );
}
