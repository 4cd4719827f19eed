import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { cancelJobs } from '../automation/scheduler.js';
import { countByState } from '../automation/state-counts.js';
import { contactRepository, type ContactService } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { checkHeaderMedia, type WhatsappFlowMessages } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { AppError, errors, type FieldError } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/index.js';
import { triggerRepository, type FlowRecord } from '../triggers/index.js';
import { flowDefinitionProblems, withStatedDefaults, type FlowDefinition, type FlowNode } from './flow.definition.js';
import type { FlowEngine } from './flow.engine.js';
import { flowRepository, type FlowRow } from './flow.repository.js';
import {
  RUN_STATES,
  type Flow,
  type FlowStats,
  type SaveFlowDraftInput,
  type FlowLayout,
  type SaveFlowInput,
  type TriggerFlowInput,
  type TryRun,
} from './flow.schema.js';
import type { FlowWebhookClient } from './flow-webhook.js';
import { flowProblems } from './flow.problems.js';

/**
 * Chatbot flows as people and integrations manage them: drafts kept however incomplete, published as
 * numbered versions once valid (save-flow does both at once), read with their runs' counts and the
 * edges runs took, started for a contact, a run stopped. Running them is the engine's (flow.engine.ts).
 */
export function createFlowService(
  deps: Deps,
  contacts: ContactService,
  engine: FlowEngine,
  webhooks: Pick<FlowWebhookClient, 'targetProblem'>,
  whatsappFlows: Pick<WhatsappFlowMessages, 'problem'>,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
  /** Whether the workspace sends through the simulator (try-flow's messages must reach no one). */
  simulated: (workspaceId: string) => Promise<boolean>,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * What keeps a definition from going live, stage by stage as save-flow has always refused it: the
   * definition's own problems, else the webhook addresses, else each template node's and each WhatsApp
   * Flow node's (a stage reads fields the ones before it checked). Publishing throws the first; a draft
   * lists them all.
   */
  async function definitionErrors(trx: Kysely<Database>, workspaceId: string, definition: unknown) {
    const problems = flowDefinitionProblems(definition);
    if (problems.length > 0)
      return [errors.invalid(...problems.map((p) => ({ ...p, field: `/definition${p.field}` })))];
    const { nodes } = definition as FlowDefinition;
    const targets = nodes.flatMap((node, i) => {
      const problem = node.type === 'webhook' ? webhooks.targetProblem(node.url, `/definition/nodes/${i}/url`) : null;
      return problem ? [problem] : [];
    });
    if (targets.length > 0) return [errors.invalid(...targets)];
    const templateErrors: AppError[] = [];
    for (const [i, node] of nodes.entries()) {
      if (node.type !== 'send_template') continue;
      const error = await templateNodeError(trx, workspaceId, node, i);
      if (error) templateErrors.push(error);
    }
    const sendable = await whatsappFlowNodeProblems(trx, workspaceId, nodes);
    return sendable.length > 0 ? [...templateErrors, errors.invalid(...sendable)] : templateErrors;
  }

  /** A WhatsApp Flow node must name a Flow of the workspace that can be sent: PUBLISHED, with a screen to open. */
  async function whatsappFlowNodeProblems(trx: Kysely<Database>, workspaceId: string, nodes: FlowNode[]) {
    const problems: FieldError[] = [];
    for (const [i, node] of nodes.entries()) {
      if (node.type !== 'send_whatsapp_flow') continue;
      const found = await whatsappFlows.problem(trx, workspaceId, node);
      if (!found) continue;
      const at = `/definition/nodes/${i}`;
      if (found.problem === 'whatsapp_flow_not_published') {
        problems.push(flowProblems.problem(`${at}/whatsapp_flow_id`, found.problem, { status: found.status }));
      } else {
        const field = found.problem === 'unknown_whatsapp_flow' ? 'whatsapp_flow_id' : 'screen';
        problems.push(flowProblems.problem(`${at}/${field}`, found.problem));
      }
    }
    return problems;
  }

  async function present(flow: FlowRow): Promise<Flow> {
    const { definition } = flow;
    return {
      id: flow.id,
      name: flow.name,
      start: definition.start,
      keywords: definition.keywords ?? [],
      nodes: definition.nodes.map(withStatedDefaults),
      version: flow.version,
      draft: flow.draft === null ? null : await presentDraft(flow),
      layout: flow.layout === null ? null : (JSON.parse(flow.layout) as FlowLayout),
      runs: await countByState(db, RUN_STATES, { table: 'flow_runs', flowId: flow.id }),
      created_at: formatTimestamp(flow.created_at),
      updated_at: formatTimestamp(flow.updated_at),
    };
  }

  async function presentDraft(flow: FlowRow): Promise<NonNullable<Flow['draft']>> {
    const definition = JSON.parse(flow.draft!) as unknown;
    const problems = (await definitionErrors(db, flow.workspace_id, definition)).flatMap((e) => e.fieldErrors);
    return { definition, problems, updated_at: formatTimestamp(flow.draft_updated_at!) };
  }

  /** The flow `id` names in the caller's workspace, or a 404 naming `field`. */
  async function existing(trx: Kysely<Database>, workspaceId: string, id: string, field: string) {
    const flow = await flowRepository(trx).find(workspaceId, id);
    if (!flow) throw errors.notFound('flow', field);
    return flow;
  }

  /** Names are unique per workspace (the flow `id` may keep its own). */
  async function checkName(trx: Kysely<Database>, workspaceId: string, name: string, id?: string): Promise<void> {
    const named = await flowRepository(trx).findByName(workspaceId, name);
    if (named && named.id !== id) throw errors.conflict(`A flow named "${name}" already exists`, { flow_id: named.id });
  }

  /**
   * Makes a checked definition live: the next version, or the same one when nothing changed (a repeated
   * save makes no new version). The draft, now published or replaced, goes.
   */
  async function publishIn(trx: Kysely<Database>, flow: FlowRow, name: string, definition: FlowDefinition) {
    const changed = !isDeepStrictEqual(definition, flow.definition);
    const live = { definition, keywords: keywordsOf(definition), at: now() };
    await flowRepository(trx).publish(flow.id, name, live, changed);
  }

  return {
    /** save-flow: creates a flow, or replaces the one `id` names, and publishes it: checked whole first. */
    async save(caller: Caller, input: SaveFlowInput): Promise<Flow> {
      const name = input.name.trim();
      const id = await db.transaction().execute(async (trx) => {
        const [error] = await definitionErrors(trx, caller.workspaceId, input.definition);
        if (error) throw error;
        const definition = input.definition as FlowDefinition;
        const flow = input.id ? await existing(trx, caller.workspaceId, input.id, 'id') : undefined;
        await checkName(trx, caller.workspaceId, name, flow?.id);
        const flowId = flow?.id ?? newId();
        if (flow) await publishIn(trx, flow, name, definition);
        else {
          const live = { definition, keywords: keywordsOf(definition), at: now() };
          await flowRepository(trx).create({ id: flowId, workspaceId: caller.workspaceId, name }, live);
        }
        if (input.layout) await flowRepository(trx).saveLayout(flowId, input.layout);
        return flowId;
      });
      return this.get(caller, { flow_id: id });
    },

    /** save-flow-draft: keeps the definition as the flow's draft, however incomplete; the live version stays. */
    async saveDraft(caller: Caller, input: SaveFlowDraftInput): Promise<Flow> {
      await db.transaction().execute(async (trx) => {
        const flow = await existing(trx, caller.workspaceId, input.flow_id, 'flow_id');
        const name = input.name?.trim() ?? flow.name;
        await checkName(trx, caller.workspaceId, name, flow.id);
        await flowRepository(trx).saveDraft(flow.id, name, input.definition, now(), input.layout);
      });
      return this.get(caller, { flow_id: input.flow_id });
    },

    /** publish-flow: makes the draft the live version, refused (as save-flow refuses) while it has problems. */
    async publish(caller: Caller, input: { flow_id: string }): Promise<Flow> {
      await db.transaction().execute(async (trx) => {
        const flow = await existing(trx, caller.workspaceId, input.flow_id, 'flow_id');
        if (flow.draft === null)
          throw errors.conflict('The flow has no draft to publish: save one with save-flow-draft');
        const draft = JSON.parse(flow.draft) as unknown;
        const [error] = await definitionErrors(trx, caller.workspaceId, draft);
        if (error) throw error;
        await publishIn(trx, flow, flow.name, draft as FlowDefinition);
      });
      return this.get(caller, { flow_id: input.flow_id });
    },

    /** get-flow: the live definition and version, the draft with its problems, and how many runs are in each state. */
    async get(caller: Caller, input: { flow_id: string }): Promise<Flow> {
      return present(await existing(db, caller.workspaceId, input.flow_id, 'flow_id'));
    },

    /** get-flow-stats: how many runs of a version (or the path of one run) took each edge, and where they are or ended. */
    async stats(caller: Caller, input: { flow_id: string; version?: number; run_id?: string }): Promise<FlowStats> {
      const flow = await existing(db, caller.workspaceId, input.flow_id, 'flow_id');
      const flows = flowRepository(db);
      let version = input.version ?? flow.version;
      if (version > flow.version) throw errors.notFound('flow version', 'version');
      if (input.run_id) {
        const run = await flows.run(input.run_id.toLowerCase());
        if (!run || run.flow_id !== flow.id) throw errors.notFound('flow run', 'run_id');
        version = run.version;
      }
      const scope = input.run_id
        ? { flowId: flow.id, runId: input.run_id.toLowerCase() }
        : { flowId: flow.id, version };
      const [runs, edges, nodes] = await Promise.all([
        flows.runCount(scope),
        flows.edgeCounts(scope),
        flows.nodeCounts(scope),
      ]);
      return { flow_id: flow.id, version, runs, edges: edges.map(presentEdge), nodes: byNode(nodes) };
    },

    /**
     * try-flow: runs the flow's draft (else its live version) for the workspace's try contact, whom the
     * person plays in the simulator. Only on the simulator, so nothing reaches a customer; the run is
     * of TRY_VERSION, which no count, feed or integration sees. A draft with problems is refused as publish-flow refuses it.
     */
    async tryOut(caller: Caller, input: { flow_id: string }): Promise<TryRun> {
      if (!(await simulated(caller.workspaceId))) {
        throw errors.conflict('Trying a flow needs the simulator channel: this workspace sends through WhatsApp Cloud');
      }
      const flow = await existing(db, caller.workspaceId, input.flow_id, 'flow_id');
      const tried = flow.draft === null ? flow.definition : (JSON.parse(flow.draft) as unknown);
      const contact = await contacts.recipientOrNew(caller, { phone: TRY_PHONE }, TRY_NAME);
      const [runId, queued] = await db.transaction().execute(async (trx) => {
        const [error] = await definitionErrors(trx, caller.workspaceId, tried);
        if (error) throw error;
        await flowRepository(trx).keepTryVersion(flow.id, tried as FlowDefinition, now());
        // The person playing the customer is there: their 24-hour window is open, as if they had written in.
        const [open] = await contactRepository(trx).openWindows(
          deps.dialect,
          caller.workspaceId,
          new Map([[contact.phone, now()]]),
        );
        const id = await engine.start(trx, caller.workspaceId, flow.id, open!, {}, tried as FlowDefinition);
        return [id, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      const run = (await flowRepository(db).run(runId))!;
      return { run_id: run.id, contact_id: contact.id, contact_phone: contact.phone, status: run.status };
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
          .set({ status: 'cancelled', ended_reason: 'stopped', updated_at: now() })
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

/**
 * Whom a try-run talks to: one contact per workspace, at a number set aside for fiction (555-01XX), so a
 * try never writes to a customer's conversation.
 */
const TRY_PHONE = '+14155550199';
const TRY_NAME = 'Flow try-out';

/** A template node must name a template of the workspace, and give a media header's link unless the template has a sample. */
async function templateNodeError(
  trx: Kysely<Database>,
  workspaceId: string,
  node: Extract<FlowNode, { type: 'send_template' }>,
  index: number,
): Promise<AppError | null> {
  const templates = templateRepository(trx);
  const template = await templates.findById(workspaceId, node.template_id.toLowerCase());
  if (!template) {
    return errors.invalid(flowProblems.problem(`/definition/nodes/${index}/template_id`, 'unknown_template'));
  }
  const translations = await templates.translations([template.id]);
  try {
    checkHeaderMedia(translations, node, `/definition/nodes/${index}/header_media_url`);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** Start keywords as matched: lower-cased, trimmed, as a JSON array; null when none. */
function keywordsOf(definition: FlowDefinition): string | null {
  const keywords = definition.keywords ?? [];
  return keywords.length > 0 ? JSON.stringify(keywords.map((k) => k.trim().toLowerCase())) : null;
}

function presentEdge(row: { from_node: string; exit: string; to_node: string; runs: number | string }) {
  return { from: row.from_node, exit: row.exit, to: row.to_node, runs: Number(row.runs) };
}

/** Per node, its runs by state (every state present). */
function byNode(rows: { node_id: string | null; status: string; runs: number | string }[]): FlowStats['nodes'] {
  const nodes = new Map<string, FlowStats['nodes'][number]['runs']>();
  for (const row of rows) {
    const counts = nodes.get(row.node_id!) ?? Object.fromEntries(RUN_STATES.map((state) => [state, 0]));
    if (row.status in counts) counts[row.status as (typeof RUN_STATES)[number]] = Number(row.runs);
    nodes.set(row.node_id!, counts as FlowStats['nodes'][number]['runs']);
  }
  return [...nodes].map(([node_id, runs]) => ({ node_id, runs }));
}

export type FlowService = ReturnType<typeof createFlowService>;
