import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  FlowDefinitionApiSchema,
  FlowNodeApiSchema,
  FlowSchema,
  FlowStatsSchema,
  GetFlowBody,
  GetFlowStatsBody,
  PublishFlowBody,
  SaveFlowBody,
  SaveFlowDraftBody,
  StopFlowRunBody,
  TriggerFlowBody,
  TryFlowBody,
  TryRunSchema,
} from './flow.schema.js';
import type { FlowService } from './flow.service.js';

const tags = ['Sequences and flows'];

/**
 * trigger-flow and get-flow (spec §4); save-flow to create or change one in one step, or
 * save-flow-draft and publish-flow; get-flow-stats for the edges runs took; try-flow to try one in the
 * simulator; stop-flow-run to end a run.
 */
export function registerFlowRoutes(app: Api, flows: FlowService): void {
  app.addSchema(FlowNodeApiSchema);
  app.addSchema(FlowDefinitionApiSchema);
  app.addSchema(FlowSchema);
  app.addSchema(FlowStatsSchema);
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
        description:
          'The live version’s definition (`start`, `keywords`, `nodes`) and its number (`version`), the unpublished `draft` with the problems that keep it from being published (or null), and how many runs are in each state.',
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
          'Checks the whole definition first: every problem names its JSON Pointer (`/definition/nodes/3/next`): unknown node types and missing fields, dangling edges, nodes unreachable from `start`, loops without a wait, duplicate ids, templates that are not the workspace’s. Without `id` a new flow is created (names are unique per workspace) at version 1; with `id` the definition is published as the next version (the same version when nothing changed) and any draft is dropped. Runs in progress finish on the version they started on.',
        body: SaveFlowBody,
        response: { 200: flow, ...actionErrors(404) },
      },
    },
    async (request) => flows.save(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/save-flow-draft',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'saveFlowDraft',
        tags,
        summary: 'Keep a draft of a flow, however incomplete',
        description:
          'Keeps `definition` as the flow’s draft, replacing any earlier draft, without checking it first: an incomplete or invalid draft is kept, and the answer (the flow as get-flow shows it) lists its `draft.problems` at their JSON Pointers, as publish-flow would refuse them. The live version, and the runs, are untouched. `name`, if given, renames the flow at once.',
        body: SaveFlowDraftBody,
        response: { 200: flow, ...actionErrors(404) },
      },
    },
    async (request) => flows.saveDraft(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/publish-flow',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'publishFlow',
        tags,
        summary: 'Make a flow’s draft its live version',
        description:
          'Checks the draft whole, as save-flow checks a definition (a 400 naming each problem’s JSON Pointer, `/definition/nodes/3/next`), then makes it the live version: the next version number (the same when nothing changed), and the draft is gone. Runs in progress finish on the version they started on; new runs start on this one. 409 when the flow has no draft.',
        body: PublishFlowBody,
        response: { 200: flow, ...actionErrors(404) },
      },
    },
    async (request) => flows.publish(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-flow-stats',
    {
      config: { access: 'read', permission: 'automation' },
      schema: {
        operationId: 'getFlowStats',
        tags,
        summary: 'Count the runs along each edge of a flow',
        description:
          'For one version (the live one unless `version` is given): how many runs started on it, how many passed each edge (from a node, by one of its exits, to a node; a run that passed an edge again counts once), and how many are at each node now or ended there, by state. Runs are counted from when they record their steps (runs that ended before the upgrade that added this are in `runs` only). With `run_id`, the same counts for that one run: the path a try-run (try-flow) took and where it is.',
        body: GetFlowStatsBody,
        response: { 200: Type.Ref(FlowStatsSchema), ...actionErrors(404) },
      },
    },
    async (request) => flows.stats(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/try-flow',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'tryFlow',
        tags,
        summary: 'Try a flow in the simulator (its draft, else its live version)',
        description:
          'Starts a try-run of the flow’s draft (the live version when it has no draft) for the workspace’s try contact (+14155550199, “Flow try-out”), whom you play with simulate-inbound-message: it reads the flow’s messages and answers them. Only while the workspace uses the built-in simulator (409 otherwise), so nothing reaches a customer. A draft with problems is refused as publish-flow refuses it (400). Try-runs are counted nowhere (get-flow’s runs, get-flow-stats’ versions, new-flow-triggered) and announce nothing to integrations; get-flow-stats with `run_id` gives the path one took. A new try ends the try contact’s earlier run.',
        body: TryFlowBody,
        response: { 200: TryRunSchema, ...actionErrors(404) },
      },
    },
    async (request) => flows.tryOut(principalOf(request), request.body),
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
