import { Type, type Static } from '@sinclair/typebox';
import { StateCountsSchema } from '../automation/state-counts.js';
import { ContactId, PhoneRef } from '../contacts/index.js';
import { FieldProblemSchema } from '../http/problem.js';
import { Timestamp, Uuid } from '../http/responses.js';
import { checkedByService } from '../http/service-checked.js';
import { FlowDefinitionSchema, FlowNodeSchema, type FlowDefinition, type FlowNode } from './flow.definition.js';

export const RUN_STATES = ['active', 'waiting', 'completed', 'handed_off', 'failed', 'cancelled'] as const;

/** The node vocabulary, documented once (`FlowNode`) for the definitions that list nodes. */
export const FlowNodeApiSchema = Type.Unsafe<FlowNode>({ ...FlowNodeSchema, $id: 'FlowNode' });

/** The definition as the API documents it (`FlowDefinition`): flow.definition.ts's, its nodes by reference. */
export const FlowDefinitionApiSchema = Type.Unsafe<FlowDefinition>({
  ...FlowDefinitionSchema,
  $id: 'FlowDefinition',
  properties: {
    ...FlowDefinitionSchema.properties,
    nodes: { ...FlowDefinitionSchema.properties.nodes, items: Type.Ref(FlowNodeApiSchema) },
  },
});

/** Where the builder drew each node: beside the definition, never part of it (decision 0157). */
const FlowLayoutSchema = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false }),
  {
    maxProperties: 400,
    description:
      'Where the flow builder draws each node, by node id (`{"Welcome": {"x": 16, "y": 40}}`); nodes without a place are laid out automatically',
  },
);
export type FlowLayout = Static<typeof FlowLayoutSchema>;

export const SaveFlowBody = Type.Object({
  id: Type.Optional(Uuid('The flow to replace; absent = a new one')),
  name: Type.String({ minLength: 1, maxLength: 200, description: 'What the team calls the flow' }),
  definition: checkedByService(
    FlowDefinitionApiSchema,
    'The flow: `start`, optional `keywords`, and `nodes`. Checked as a whole: problems name the JSON Pointer of the node or edge at fault (`/definition/nodes/3/next`): unknown node types and missing fields, dangling edges, unreachable nodes, loops without a wait.',
  ),
  layout: Type.Optional(FlowLayoutSchema),
});
export type SaveFlowInput = Static<typeof SaveFlowBody>;

export const SaveFlowDraftBody = Type.Object({
  flow_id: Uuid('The flow whose draft this is'),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A new name, applied at once' })),
  definition: checkedByService(
    FlowDefinitionApiSchema,
    'The definition being built, in the shape of `FlowDefinition`; kept as it is, however incomplete: its problems come back with the draft',
  ),
  layout: Type.Optional(FlowLayoutSchema),
});
export type SaveFlowDraftInput = Static<typeof SaveFlowDraftBody>;

export const PublishFlowBody = Type.Object({ flow_id: Uuid('The flow whose draft to publish') });

export const GetFlowStatsBody = Type.Object({
  flow_id: Uuid('Parley flow id'),
  version: Type.Optional(Type.Integer({ minimum: 1, description: 'Which version’s runs; absent = the live version' })),
  run_id: Type.Optional(
    Uuid('Only this run (a try-run from try-flow, or any run of the flow): the path it took and where it is'),
  ),
});

export const TryFlowBody = Type.Object({
  flow_id: Uuid('The flow to try: its draft if it has one, else its live version'),
});

export const TryRunSchema = Type.Object({
  run_id: Uuid('The try-run: get-flow-stats with `run_id` gives its path'),
  contact_id: Uuid('The try contact, who the person plays in the simulator'),
  contact_phone: Type.String({ description: 'Its number: simulate-inbound-message with it answers the run' }),
  status: Type.String({ description: 'The run’s state once it has walked as far as it can without a reply' }),
});
export type TryRun = Static<typeof TryRunSchema>;

export const GetFlowBody = Type.Object({ flow_id: Uuid('Parley flow id') });

export const StopFlowRunBody = Type.Object({
  run_id: Uuid('The run (the `id` trigger-flow and new-flow-triggered give)'),
});

export const TriggerFlowBody = Type.Object(
  {
    flow_id: Uuid('Parley flow id'),
    contact_id: Type.Optional(ContactId),
    phone: Type.Optional(PhoneRef),
    context: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Free JSON object the nodes read as {{context.KEY}}' }),
    ),
  },
  { description: 'Name the contact by `contact_id` or `phone`; an unknown phone becomes a new contact' },
);
export type TriggerFlowInput = Static<typeof TriggerFlowBody>;

const FlowDraftSchema = Type.Object(
  {
    definition: Type.Unknown({ description: 'As save-flow-draft took it: a `FlowDefinition`, possibly incomplete' }),
    problems: Type.Array(FieldProblemSchema, {
      description:
        'What keeps the draft from being published, each at its JSON Pointer (`/definition/nodes/3/next`), as publish-flow would refuse it; empty: ready to publish',
    }),
    updated_at: Timestamp(),
  },
  {
    description:
      'The flow as it is being edited, not yet live (save-flow-draft); publish-flow makes it the live version',
  },
);

export const FlowSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    start: FlowDefinitionSchema.properties.start,
    keywords: Type.Array(Type.String()),
    nodes: Type.Array(Type.Ref(FlowNodeApiSchema)),
    version: Type.Integer({
      minimum: 1,
      description:
        'The live version (`start`, `keywords`, `nodes` are its definition): 1 at creation, one more at each publish that changes the definition. A run finishes on the version it started on',
    }),
    draft: Type.Union([FlowDraftSchema, Type.Null()], {
      description: 'The unpublished draft, or null when there is none',
    }),
    layout: Type.Union([FlowLayoutSchema, Type.Null()], {
      description: 'Where the flow builder draws the nodes (save-flow-draft’s `layout`), or null',
    }),
    runs: StateCountsSchema(
      RUN_STATES,
      'Runs by state: running (active), waiting for a reply, completed, handed off, failed, cancelled',
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Flow' },
);
export type Flow = Static<typeof FlowSchema>;

const EdgeCountSchema = Type.Object({
  from: Type.String({ description: 'The node the runs left' }),
  exit: Type.String({
    description:
      'Which of its exits, as the path of the field under the node: `next`, `branches/0/next`, `default`, `on_timeout`, `on_error`',
  }),
  to: Type.String({ description: 'The node the exit leads to' }),
  runs: Type.Integer({ description: 'How many runs passed this edge (a run that passed it again counts once)' }),
});

const NodeCountSchema = Type.Object({
  node_id: Type.String(),
  runs: StateCountsSchema(
    RUN_STATES,
    'The runs that are at this node now (running, waiting) or ended there (completed, handed off, failed, cancelled), by state',
  ),
});

export const FlowStatsSchema = Type.Object(
  {
    flow_id: Uuid(),
    version: Type.Integer({ minimum: 1, description: 'The version whose runs are counted' }),
    runs: Type.Integer({ description: 'Runs started on this version' }),
    edges: Type.Array(EdgeCountSchema, { description: 'Each edge at least one run passed' }),
    nodes: Type.Array(NodeCountSchema, { description: 'Each node at least one run is at or ended at' }),
  },
  { $id: 'FlowStats' },
);
export type FlowStats = Static<typeof FlowStatsSchema>;
