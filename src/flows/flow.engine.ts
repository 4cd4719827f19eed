import type { Kysely } from 'kysely';
import { render } from '../automation/render.js';
import { cancelJobs, scheduleJob, type Job } from '../automation/scheduler.js';
import { type Interactive, textContent, type OutboundContent } from '../content/message-content.js';
import { contactRepository, type ContactRow, type Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import {
  type ReceivedMessage,
  type Outbound,
  type WhatsappFlowMessages,
  filledFlowMessage,
  flowAnswerOf,
  flowSendRepository,
  isFlowSendProblem,
  isRefusal,
  fillVariables,
  templateContent,
} from '../messages/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { Deps } from '../db/deps.js';
import { AppError, errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/index.js';
import {
  ASK_DEFAULTS,
  exitsOf,
  parseDuration,
  WEBHOOK_DEFAULTS,
  type FlowDefinition,
  type FlowNode,
} from './flow.definition.js';
import { accepted, branchTaken, replyOf, WAITED_TOKEN } from './flow.replies.js';
import { flowRepository, TRY_VERSION, type RunRow, type TakenEdge } from './flow.repository.js';
import type { CallOutResult, FlowWebhookClient } from './flow-webhook.js';

/** A flow walk never takes more steps than this without waiting (definitions forbid wait-free loops). */
const MAX_STEPS = 500;

type Json = Record<string, unknown>;
type Trx = Kysely<Database>;

/**
 * The AI assistant as a flow's `ai_assistant` node hands it the conversation (src/assistant/, above this
 * folder: wired in services.ts). It answers the contact's latest message and those that follow.
 */
export interface FlowAssistant {
  takeOver(trx: Trx, workspaceId: string, contact: ContactRow, flowId: string): Promise<void>;
}

/**
 * The flow engine: what runs a chatbot flow. A run walks the graph inside one transaction until it has
 * to wait (a question, a wait for a reply, a webhook call); a reply or a timeout job picks it up from
 * that node. What a node sends is queued in the outbox in the same transaction as the run's new
 * position. A run walks the version of the flow it started on, however many are published after, and
 * records each exit it takes (get-flow-stats). Flows themselves are saved and read by flow.service.ts.
 */
export function createFlowEngine(
  deps: Deps,
  webhooks: FlowWebhookClient,
  outbound: Outbound,
  tagging: Tagging,
  whatsappFlows: WhatsappFlowMessages,
  assistant: () => FlowAssistant,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * Changes the run in memory only: the walk that follows always ends in `update` (it waits,
   * calls out or finishes), which writes them too — one statement per reply instead of one per node.
   */
  function stage(run: RunRow, fields: Partial<RunRow>): void {
    Object.assign(run, fields);
  }

  /** The exits a walk took since the run was last written; `update` records them with it. */
  const taken = new WeakMap<RunRow, TakenEdge[]>();

  async function update(trx: Trx, run: RunRow, fields: Partial<RunRow>): Promise<void> {
    Object.assign(run, fields, { updated_at: now() });
    const { status, node_id, retries, context, ended_reason, updated_at } = run;
    await trx
      .updateTable('flow_runs')
      .set({ status, node_id, retries, context, ended_reason, updated_at })
      .where('id', '=', run.id)
      .execute();
    await flowRepository(trx).recordEdges(run, taken.get(run) ?? []);
    taken.delete(run);
  }

  /** Leaves `node` by `exit`: the node it leads to (noted as taken), or undefined when the flow ends there. */
  function take(run: RunRow, node: FlowNode, exit: string): string | undefined {
    const to = exitsOf(node).find((e) => e.exit === exit)?.target;
    if (to === undefined) return undefined;
    const edges = taken.get(run) ?? [];
    edges.push({ from: node.id, exit, to });
    taken.set(run, edges);
    return to;
  }

  /**
   * Runs known to have no pending job: just started, their wait's timeout cancelled by a reply, or
   * loaded by the job that is running (and was deleted). Finishing them has nothing to cancel.
   */
  const withoutJobs = new WeakSet<RunRow>();

  /** Ends the run; it keeps the node it ended at (`at`; by default the node it is at) for get-flow-stats. */
  async function finish(
    trx: Trx,
    run: RunRow,
    status: string,
    reason: string | null,
    at: string | null = run.node_id,
  ): Promise<void> {
    await update(trx, run, { status, ended_reason: reason, node_id: at });
    if (!withoutJobs.has(run)) await cancelJobs(trx, run.id);
  }

  /** Pauses the run at a node until its job is due: the timeout of a wait, or a webhook call. */
  async function pauseForJob(
    trx: Trx,
    run: RunRow,
    at: Partial<RunRow> & { node_id: string },
    kind: 'flow_timeout' | 'flow_webhook',
    dueAt: Date,
  ): Promise<void> {
    await update(trx, run, at);
    withoutJobs.delete(run);
    await scheduleJob(trx, deps, {
      workspaceId: run.workspace_id,
      kind,
      subjectId: run.id,
      payload: { node_id: at.node_id },
      dueAt,
    });
  }

  /** Queues a message of the run's flow for its contact; what the sending rules refuse is the node's failure. */
  async function send(trx: Trx, run: RunRow, contact: ContactRow, message: OutboundContent): Promise<string | null> {
    const queued = await outbound.queueNow(trx, contact, message, { type: 'flow', id: run.flow_id });
    return isRefusal(queued) ? queued.refused : null;
  }

  async function sendTemplate(
    trx: Trx,
    run: RunRow,
    contact: ContactRow,
    node: Extract<FlowNode, { type: 'send_template' }>,
    scope: Parameters<typeof render>[1],
  ) {
    const templates = templateRepository(trx);
    const template = await templates.findById(contact.workspace_id, node.template_id.toLowerCase());
    if (!template) return 'template_not_found';
    try {
      const variables = fillVariables(node.variables ?? [], scope);
      const content = templateContent(template, await templates.translations([template.id]), {
        template_id: template.id,
        language: node.language,
        variables,
        header_media_url: node.header_media_url,
      });
      return await send(trx, run, contact, { type: 'template', content });
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  }

  /**
   * Sends the node's WhatsApp Flow with a new token, kept with the message (for the answer to name it) and
   * in the run's context (the answer the run waits for); why not, if it is not sent.
   */
  async function sendWhatsappFlow(
    trx: Trx,
    run: RunRow,
    contact: ContactRow,
    node: Extract<FlowNode, { type: 'send_whatsapp_flow' }>,
    scope: Parameters<typeof render>[1],
  ): Promise<string | null> {
    const flowToken = newId();
    const input = filledFlowMessage(node, (text) => render(text, scope));
    const prepared = await whatsappFlows.prepare(trx, contact.workspace_id, input, flowToken);
    if (isFlowSendProblem(prepared)) return prepared.problem;
    const queued = await outbound.queueNow(trx, contact, prepared.content, { type: 'flow', id: run.flow_id });
    if (isRefusal(queued)) return queued.refused;
    await flowSendRepository(trx).record({
      ...prepared.send,
      message_id: queued.id,
      contact_id: contact.id,
      created_at: now(),
    });
    stage(run, { context: JSON.stringify({ ...(JSON.parse(run.context) as Json), [WAITED_TOKEN]: flowToken }) });
    return null;
  }

  async function setAttribute(trx: Trx, contact: ContactRow, name: string, value: unknown): Promise<ContactRow> {
    const attributes = { ...(JSON.parse(contact.custom_attributes) as Json), [name]: value };
    const custom_attributes = JSON.stringify(attributes);
    await contactRepository(trx).update(contact.workspace_id, contact.id, { custom_attributes, updated_at: now() });
    return { ...contact, custom_attributes };
  }

  /**
   * Waits at `node` for a reply, with its timeout as a job (a wait without one waits until a reply
   * comes or the run is stopped). No earlier timeout is pending: a reply cancelled it (`answer`), and a
   * job that led here was deleted as it ran.
   */
  async function waitAt(
    trx: Trx,
    run: RunRow,
    node: Extract<FlowNode, { type: 'ask' | 'wait_for_reply' | 'send_whatsapp_flow' }>,
    retries: number,
  ) {
    const at = { status: 'waiting', node_id: node.id, retries };
    if (node.timeout === undefined) return update(trx, run, at);
    const dueAt = new Date(clock.now().getTime() + parseDuration(node.timeout));
    await pauseForJob(trx, run, at, 'flow_timeout', dueAt);
  }

  /** Walks from `nodeId` (reached from node `from`) until the flow waits or ends. */
  async function walk(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    nodeId: string | undefined,
    start: ContactRow,
    from: string | null,
  ) {
    const nodes = new Map(definition.nodes.map((node) => [node.id, node]));
    let contact = start;
    let current = nodeId;
    let last = from;
    for (let steps = 0; current !== undefined; steps++) {
      const node = nodes.get(current);
      if (!node || steps >= MAX_STEPS) {
        return finish(trx, run, 'failed', node ? 'too_many_steps' : 'unknown_node', node?.id ?? last);
      }
      const context = JSON.parse(run.context) as Json;
      const scope = { contact, context };
      let failure: string | null = null;
      let exit = 'next';
      switch (node.type) {
        case 'send_text':
          failure = await send(trx, run, contact, textContent(render(node.text, scope)));
          break;
        case 'send_template':
          failure = await sendTemplate(trx, run, contact, node, scope);
          break;
        case 'send_buttons':
        case 'send_list':
          failure = await send(trx, run, contact, {
            type: 'interactive',
            content: { interactive: interactiveOf(node, scope), text: render(node.text, scope) },
          });
          break;
        case 'ask':
          failure = await send(trx, run, contact, textContent(render(node.text, scope)));
          if (!failure) return waitAt(trx, run, node, 0);
          break;
        case 'wait_for_reply':
          return waitAt(trx, run, node, 0);
        case 'send_whatsapp_flow':
          failure = await sendWhatsappFlow(trx, run, contact, node, scope);
          if (!failure) return waitAt(trx, run, node, 0);
          break;
        case 'branch':
          exit = await branchTaken(trx, node, context, contact);
          break;
        case 'add_tag':
          await tagging.addTags(trx, contact.workspace_id, [{ contactId: contact.id, names: [node.tag] }]);
          break;
        case 'remove_tag':
          await tagging.removeTags(trx, contact.workspace_id, [contact.id], [node.tag]);
          break;
        case 'set_attribute':
          contact = await setAttribute(trx, contact, node.attribute, render(node.value, scope));
          break;
        case 'webhook':
          // The call happens outside any transaction, as a job: a slow endpoint holds up nothing else.
          return pauseForJob(trx, run, { status: 'active', node_id: node.id }, 'flow_webhook', clock.now());
        case 'handoff':
          await contactRepository(trx).update(contact.workspace_id, contact.id, {
            handoff_at: now(),
            updated_at: now(),
          });
          return finish(trx, run, 'handed_off', node.note ?? null, node.id);
        case 'ai_assistant':
          await assistant().takeOver(trx, contact.workspace_id, contact, run.flow_id);
          return finish(trx, run, 'completed', 'ai_assistant', node.id);
        case 'end':
          return finish(trx, run, 'completed', null, node.id);
      }
      if (failure) return finish(trx, run, 'failed', failure, node.id);
      last = node.id;
      current = take(run, node, exit);
    }
    return finish(trx, run, 'completed', null, last);
  }

  /**
   * Starts a run at the flow's first node; a run the contact was waiting in is cancelled (one at a time).
   * `tried`: a try-run of that definition (kept as TRY_VERSION by try-flow), announced to no integration.
   */
  async function start(
    trx: Trx,
    workspaceId: string,
    flowId: string,
    contact: ContactRow,
    context: Json,
    tried?: FlowDefinition,
  ): Promise<string> {
    const flow = await flowRepository(trx).find(workspaceId, flowId.toLowerCase());
    if (!flow) throw errors.notFound('flow', 'flow_id');
    const definition = tried ?? flow.definition;
    for (const superseded of await flowRepository(trx).waiting(workspaceId, [contact.id])) {
      await finish(trx, superseded.run, 'cancelled', 'superseded');
    }
    const at = now();
    const run: RunRow = {
      id: newId(),
      workspace_id: workspaceId,
      flow_id: flow.id,
      version: tried ? TRY_VERSION : flow.version,
      contact_id: contact.id,
      status: 'active',
      context: JSON.stringify(context),
      node_id: null,
      retries: 0,
      ended_reason: null,
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('flow_runs').values(run).execute();
    withoutJobs.add(run);
    await walk(trx, run, definition, definition.start, contact, null);
    if (!tried) await emitWebhookEvents(trx, deps, 'new-flow-triggered', [{ workspaceId, id: run.id }]);
    return run.id;
  }

  /**
   * A message to a waiting run: what its node waits for takes it on. False when the message is not for the
   * run: while it waits for its WhatsApp Flow's answer, any other message (a text, another send's answer)
   * leaves it waiting, as the Flow can still be answered; the message is then what it is without a run.
   */
  async function answer(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    message: ReceivedMessage,
    contact: ContactRow,
  ): Promise<boolean> {
    const node = definition.nodes.find((n) => n.id === run.node_id);
    if (node?.type === 'send_whatsapp_flow') return flowAnswered(trx, run, definition, node, message, contact);
    if (node?.type === 'ask' || node?.type === 'wait_for_reply')
      await replied(trx, run, definition, node, message, contact);
    else await finish(trx, run, 'failed', 'unknown_node');
    return true;
  }

  /** A reply to a question (validated, saved) or the reply a wait waited for. */
  async function replied(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    node: Extract<FlowNode, { type: 'ask' | 'wait_for_reply' }>,
    message: ReceivedMessage,
    contact: ContactRow,
  ): Promise<void> {
    const reply = replyOf(message);
    const context = { ...(JSON.parse(run.context) as Json), reply };
    await cancelJobs(trx, run.id); // the wait's timeout: whatever the reply leads to, it is moot
    withoutJobs.add(run);
    stage(run, { context: JSON.stringify(context) });
    let current = contact;
    if (node.type === 'ask') {
      const value = accepted(node.validate ?? ASK_DEFAULTS.validate, reply.text);
      if (value === null) {
        if (run.retries >= (node.retries ?? ASK_DEFAULTS.retries)) {
          return node.on_timeout
            ? leaveWait(trx, run, definition, node, 'on_timeout', current)
            : finish(trx, run, 'failed', 'invalid_answer');
        }
        const failure = await send(
          trx,
          run,
          current,
          textContent(render(node.retry_text ?? node.text, { contact, context })),
        );
        return failure ? finish(trx, run, 'failed', failure) : waitAt(trx, run, node, run.retries + 1);
      }
      current = await setAttribute(trx, current, node.attribute, value);
    }
    return leaveWait(trx, run, definition, node, 'next', current);
  }

  /**
   * The answer of the Flow the run sent (named by the send's token): its fields are the context's `answer`
   * (the latest replaces any earlier one) and, as the node asks, contact attributes; the run goes on.
   */
  async function flowAnswered(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    node: Extract<FlowNode, { type: 'send_whatsapp_flow' }>,
    message: ReceivedMessage,
    contact: ContactRow,
  ): Promise<boolean> {
    const { [WAITED_TOKEN]: waited, ...context } = JSON.parse(run.context) as Json;
    const answer = flowAnswerOf(message.type, message.content);
    if (!answer || answer.flowToken === null || answer.flowToken !== waited) return false;
    await cancelJobs(trx, run.id); // the wait's timeout
    withoutJobs.add(run);
    stage(run, { context: JSON.stringify({ ...context, answer: answer.fields }) });
    let current = contact;
    for (const { field, attribute } of node.save_answers ?? []) {
      if (field in answer.fields) current = await setAttribute(trx, current, attribute, answer.fields[field]);
    }
    await leaveWait(trx, run, definition, node, 'next', current);
    return true;
  }

  /** Goes on from the node a run waited at (for a reply, a timeout or a call) by `exit`. */
  async function leaveWait(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    node: FlowNode,
    exit: string,
    contact: ContactRow,
  ) {
    stage(run, { status: 'active', node_id: null, retries: 0 });
    return walk(trx, run, definition, take(run, node, exit), contact, node.id);
  }

  /** Loads what a job needs: the run (still at the job's node), its version's definition and its contact. */
  async function jobSubject(trx: Trx, job: Job, status: string) {
    const run = await flowRepository(trx).run(job.subject_id);
    if (!run || run.status !== status || run.node_id !== job.payload.node_id) return null;
    withoutJobs.add(run);
    const definition = await flowRepository(trx).versionDefinition(run.flow_id, run.version);
    const contact = await contactRepository(trx).findById(run.workspace_id, run.contact_id);
    const node = definition?.nodes.find((n) => n.id === run.node_id);
    return definition && contact && node ? { run, definition, contact, node } : null;
  }

  const handlers = {
    timeout: {
      async run(trx: Trx, job: Job): Promise<void> {
        const subject = await jobSubject(trx, job, 'waiting');
        if (!subject || !('on_timeout' in subject.node)) return;
        const { run, definition, contact, node } = subject;
        if (!node.on_timeout) return finish(trx, run, 'completed', 'no_reply');
        await leaveWait(trx, run, definition, node, 'on_timeout', contact);
      },
    },
    webhook: {
      /** The call itself, outside the transaction. */
      async prepare(job: Job): Promise<CallOutResult | null> {
        const subject = await jobSubject(db, job, 'active');
        if (!subject || subject.node.type !== 'webhook') return null;
        const { run, contact, node } = subject;
        return webhooks.call({
          url: node.url,
          method: node.method ?? WEBHOOK_DEFAULTS.method,
          timeoutMs: node.timeout_ms ?? WEBHOOK_DEFAULTS.timeout_ms,
          body: {
            flow_id: run.flow_id,
            run_id: run.id,
            node_id: node.id,
            contact: {
              id: contact.id,
              phone: contact.phone,
              name: contact.name,
              email: contact.email,
              attributes: JSON.parse(contact.custom_attributes) as Json,
            },
            context: JSON.parse(run.context) as Json,
          },
        });
      },
      async run(trx: Trx, job: Job, prepared: unknown): Promise<void> {
        const subject = await jobSubject(trx, job, 'active');
        const result = prepared as CallOutResult | null;
        if (!subject || subject.node.type !== 'webhook' || !result) return;
        const { run, definition, node } = subject;
        let contact = subject.contact;
        if (!result.ok) {
          stage(run, { ended_reason: result.error });
          return node.on_error
            ? leaveWait(trx, run, definition, node, 'on_error', contact)
            : finish(trx, run, 'failed', `webhook: ${result.error}`);
        }
        if (node.save_as) contact = await setAttribute(trx, contact, node.save_as, result.body);
        const context = { ...(JSON.parse(run.context) as Json), webhook: result.body };
        stage(run, { context: JSON.stringify(context) });
        await leaveWait(trx, run, definition, node, 'next', contact);
      },
    },
  };

  return {
    /** The scheduler's jobs: a wait's timeout, and a webhook node's call. */
    handlers,
    /** Starts a run of the flow for the contact and walks it until it waits; the new run's id. */
    start,

    /** Of these contacts, those a flow holds (waiting for their reply, or calling out): theirs to answer. */
    holding: (trx: Trx, workspaceId: string, contactIds: string[]) =>
      flowRepository(trx).holding(workspaceId, contactIds),

    /**
     * Inbound messages: each answers its contact's waiting run, or starts a flow by keyword. Returns the
     * ids of the messages a flow took (the AI assistant leaves those to the flow).
     */
    async onInbound(trx: Trx, workspaceId: string, messages: ReceivedMessage[]): Promise<Set<string>> {
      const taken = new Set<string>();
      const flows = flowRepository(trx);
      const waiting = new Map(
        (await flows.waiting(workspaceId, [...new Set(messages.map((m) => m.contactId))])).map((entry) => [
          entry.run.contact_id,
          entry,
        ]),
      );
      let keywordFlows: Awaited<ReturnType<typeof flows.keywordFlows>> | undefined;
      const handled = new Set<string>();
      for (const message of messages) {
        // The delivery's row is current for the contact's first message; a second one sees what the first did.
        const contact = handled.has(message.contactId)
          ? await contactRepository(trx).findById(workspaceId, message.contactId)
          : message.contact;
        handled.add(message.contactId);
        if (!contact || contact.opted_out_at) continue;
        const entry = waiting.get(message.contactId);
        // A second message in the same delivery finds the run already moved on.
        if (
          entry &&
          entry.run.status === 'waiting' &&
          (await answer(trx, entry.run, entry.definition, message, contact))
        ) {
          taken.add(message.id);
          continue;
        }
        const text = replyOf(message).text?.trim().toLowerCase();
        if (!text) continue;
        keywordFlows ??= await flows.keywordFlows(workspaceId);
        const flow = keywordFlows.find((f) => f.keywords.includes(text));
        if (!flow) continue;
        await start(trx, workspaceId, flow.id, contact, { keyword: text });
        taken.add(message.id);
      }
      return taken;
    },
  };
}

function interactiveOf(
  node: Extract<FlowNode, { type: 'send_buttons' | 'send_list' }>,
  scope: Parameters<typeof render>[1],
): Interactive {
  const body = { text: render(node.text, scope) };
  if (node.type === 'send_buttons') {
    return {
      type: 'button',
      body,
      action: { buttons: node.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
    };
  }
  return { type: 'list', body, action: { button: node.button, sections: node.sections } };
}

export type FlowEngine = ReturnType<typeof createFlowEngine>;
