import { Type, type Static } from '@sinclair/typebox';
import { StateCountsSchema } from '../automation/state-counts.js';
import { ContactId, PhoneRef } from '../contacts/index.js';
import { Timestamp, Uuid } from '../http/responses.js';
import { FlowNodeSchema } from './flow.definition.js';

export const RUN_STATES = ['active', 'waiting', 'completed', 'handed_off', 'failed', 'cancelled'] as const;

const definitionFields = {
  start: Type.String({ minLength: 1, maxLength: 64, description: 'The first node' }),
  keywords: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 20,
      description: 'An inbound text equal to one of these (ignoring case) starts the flow',
    }),
  ),
  nodes: Type.Array(FlowNodeSchema, { minItems: 1, maxItems: 200 }),
};

/** Shape only at the route: the definition's own rules (and their JSON Pointer paths) are checked on save. */
export const SaveFlowBody = Type.Object({
  id: Type.Optional(Uuid('The flow to replace; absent = a new one')),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  definition: Type.Unknown({
    description:
      'The flow: `start`, optional `keywords`, and `nodes` (see the Flow schema). Checked as a whole: problems name the JSON Pointer of the node or edge at fault (unknown node types, dangling edges, unreachable nodes, loops without a wait).',
  }),
});
export type SaveFlowInput = Static<typeof SaveFlowBody>;

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

export const FlowSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    ...definitionFields,
    keywords: Type.Array(Type.String()),
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
