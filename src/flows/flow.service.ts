import type { Kysely } from 'kysely';
import { cancelJobs } from '../automation/scheduler.js';
import { countByState } from '../automation/state-counts.js';
import { contactRepository, type ContactService } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { checkHeaderMedia } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/index.js';
import { triggerRepository, type FlowRecord } from '../triggers/index.js';
import { flowDefinitionProblems, type FlowDefinition, type FlowNode } from './flow.definition.js';
import type { FlowEngine } from './flow.engine.js';
import { flowRepository } from './flow.repository.js';
import { RUN_STATES, type Flow, type SaveFlowInput, type TriggerFlowInput } from './flow.schema.js';
import type { FlowWebhookClient } from './flow-webhook.js';
import { flowProblems } from './flow.problems.js';

/**
 * Chatbot flows as people and integrations manage them: save (the whole definition checked), read with
 * their runs' counts, start for a contact, stop a run. Running them is the engine's (flow.engine.ts).
 */
export function createFlowService(
  deps: Deps,
  contacts: ContactService,
  engine: FlowEngine,
  webhooks: Pick<FlowWebhookClient, 'targetProblem'>,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  function present(
    row: { id: string; name: string; created_at: string; updated_at: string },
    definition: FlowDefinition,
    runs: Flow['runs'],
  ): Flow {
    return {
      id: row.id,
      name: row.name,
      start: definition.start,
      keywords: definition.keywords ?? [],
      nodes: definition.nodes,
      runs,
      created_at: formatTimestamp(row.created_at),
      updated_at: formatTimestamp(row.updated_at),
    };
  }

  return {
    /** Creates a flow, or replaces the one `id` names, after checking the whole definition. */
    async save(caller: Caller, input: SaveFlowInput): Promise<Flow> {
      const problems = flowDefinitionProblems(input.definition);
      if (problems.length > 0) throw errors.invalid(...problems.map((p) => ({ ...p, field: `/definition${p.field}` })));
      const definition = input.definition as FlowDefinition;
      const targets = definition.nodes.flatMap((node, i) => {
        const problem = node.type === 'webhook' ? webhooks.targetProblem(node.url, `/definition/nodes/${i}/url`) : null;
        return problem ? [problem] : [];
      });
      if (targets.length > 0) throw errors.invalid(...targets);
      const name = input.name.trim();
      const id = await db.transaction().execute(async (trx) => {
        const flows = flowRepository(trx);
        for (const [i, node] of definition.nodes.entries()) {
          if (node.type === 'send_template') await checkTemplateNode(trx, caller.workspaceId, node, i);
        }
        const existing = input.id ? await flows.find(caller.workspaceId, input.id) : undefined;
        if (input.id && !existing) throw errors.notFound('flow', 'id');
        const named = await flows.findByName(caller.workspaceId, name);
        if (named && named.id !== existing?.id)
          throw errors.conflict(`A flow named "${name}" already exists`, { flow_id: named.id });
        const keywords = definition.keywords?.length
          ? JSON.stringify(definition.keywords.map((k) => k.trim().toLowerCase()))
          : null;
        const fields = { name, definition: JSON.stringify(definition), keywords, updated_at: now() };
        if (existing) {
          await trx.updateTable('flows').set(fields).where('id', '=', existing.id).execute();
          return existing.id;
        }
        const flowId = newId();
        await trx
          .insertInto('flows')
          .values({ id: flowId, workspace_id: caller.workspaceId, created_at: fields.updated_at, ...fields })
          .execute();
        return flowId;
      });
      return this.get(caller, { flow_id: id });
    },

    /** get-flow: the definition and how many runs are in each state. */
    async get(caller: Caller, input: { flow_id: string }): Promise<Flow> {
      const flows = flowRepository(db);
      const flow = await flows.find(caller.workspaceId, input.flow_id);
      if (!flow) throw errors.notFound('flow', 'flow_id');
      return present(
        flow,
        flow.definition,
        await countByState(db, RUN_STATES, { table: 'flow_runs', flowId: flow.id }),
      );
    },

    /** trigger-flow: starts a run for the contact and walks it until it waits. */
    async trigger(caller: Caller, input: TriggerFlowInput): Promise<FlowRecord> {
      if (!(await flowRepository(db).find(caller.workspaceId, input.flow_id))) throw errors.notFound('flow', 'flow_id');
      const contact = await contacts.recipientOrNew(caller, input);
      if (contact.opted_out_at) throw errors.optedOut();
      const [runId, queued] = await db.transaction().execute(async (trx) => {
        const fresh = (await contactRepository(trx).findById(caller.workspaceId, contact.id))!;
        return [
          await engine.start(trx, caller.workspaceId, input.flow_id, fresh, input.context ?? {}),
          queuedIn(trx),
        ] as const;
      });
      wakeFor(queued);
      return (await triggerRepository(db).flowRun(caller.workspaceId, runId))!;
    },

    /** stop-flow-run: an agent ends a run that is still going (waiting for the customer, or calling out). */
    async stop(caller: Caller, input: { run_id: string }): Promise<FlowRecord> {
      const id = input.run_id.toLowerCase();
      await db.transaction().execute(async (trx) => {
        const stopped = await trx
          .updateTable('flow_runs')
          .set({ status: 'cancelled', ended_reason: 'stopped', node_id: null, updated_at: now() })
          .where('workspace_id', '=', caller.workspaceId)
          .where('id', '=', id)
          .where('status', 'in', ['active', 'waiting'])
          .executeTakeFirst();
        if (Number(stopped.numUpdatedRows) > 0) return cancelJobs(trx, id);
        const run = await flowRepository(trx).run(id);
        if (!run || run.workspace_id !== caller.workspaceId) throw errors.notFound('flow run', 'run_id');
        throw errors.conflict(`The run has already ended (${run.status})`, { run_status: run.status });
      });
      return (await triggerRepository(db).flowRun(caller.workspaceId, id))!;
    },
  };
}

/** A template node must name a template of the workspace, and give a media header's link unless the template has a sample. */
async function checkTemplateNode(
  trx: Kysely<Database>,
  workspaceId: string,
  node: Extract<FlowNode, { type: 'send_template' }>,
  index: number,
): Promise<void> {
  const templates = templateRepository(trx);
  const template = await templates.findById(workspaceId, node.template_id.toLowerCase());
  if (!template) {
    throw errors.invalid(flowProblems.problem(`/definition/nodes/${index}/template_id`, 'unknown_template'));
  }
  checkHeaderMedia(await templates.translations([template.id]), node, `/definition/nodes/${index}/header_media_url`);
}

export type FlowService = ReturnType<typeof createFlowService>;
