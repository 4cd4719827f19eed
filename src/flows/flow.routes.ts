import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { FlowSchema, GetFlowBody, SaveFlowBody, StopFlowRunBody, TriggerFlowBody } from './flow.schema.js';
import type { FlowService } from './flow.service.js';

const tags = ['Sequences and flows'];

/** trigger-flow and get-flow (spec §4), save-flow to create or change one, stop-flow-run to end a run. */
export function registerFlowRoutes(app: Api, flows: FlowService): void {
  app.addSchema(FlowSchema);
  const flow = Type.Ref(FlowSchema);

  app.post(
    '/api/v1/actions/trigger-flow',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'triggerFlow',
        tags,
        summary: 'Start a flow for a contact',
        description:
          'Starts a run at the flow’s first node for the contact (by `contact_id` or `phone`; an unknown phone becomes a new contact) and walks it until it waits for a reply or ends. `context` is readable by the nodes as `{{context.KEY}}`. A contact waits in at most one run: a run it was waiting in is cancelled. Free-form nodes (text, buttons, lists, questions) need the 24-hour window; outside it the run fails with that reason. Returns the run as new-flow-triggered shows it.',
        body: TriggerFlowBody,
        response: { 200: Type.Ref('FlowTriggeredRecord'), ...actionErrors(404) },
      },
    },
    async (request) => flows.trigger(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-flow',
    {
      config: { access: 'read', permission: 'automation' },
      schema: {
        operationId: 'getFlow',
        tags,
        summary: 'Fetch a flow with its nodes and run counts',
        body: GetFlowBody,
        response: { 200: flow, ...actionErrors(404) },
      },
    },
    async (request) => flows.get(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/save-flow',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'saveFlow',
        tags,
        summary: 'Create a flow, or replace one',
        description:
          'Checks the whole definition first: every problem names its JSON Pointer (`/definition/nodes/3/next`): unknown node types and missing fields, dangling edges, nodes unreachable from `start`, loops without a wait, duplicate ids, templates that are not the workspace’s. Without `id` a new flow is created (names are unique per workspace); with `id` it is replaced — waiting runs continue from their node if it still exists.',
        body: SaveFlowBody,
        response: { 200: flow, ...actionErrors(404) },
      },
    },
    async (request) => flows.save(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/stop-flow-run',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'stopFlowRun',
        tags,
        summary: 'Stop a running flow for its contact',
        description:
          'Ends a run that is still going (waiting for the contact’s reply, or calling a webhook): it becomes `cancelled` and the contact’s next message no longer answers it. 409 when the run has already ended. Returns the run as new-flow-triggered shows it.',
        body: StopFlowRunBody,
        response: { 200: Type.Ref('FlowTriggeredRecord'), ...actionErrors(404) },
      },
    },
    async (request) => flows.stop(principalOf(request), request.body),
  );
}
