import type { Kysely } from 'kysely';
import { render } from '../automation/render.js';
import { cancelJobs, scheduleJob, type Job } from '../automation/scheduler.js';
import { type Interactive, textContent, type OutboundContent } from '../content/message-content.js';
import { parseEmail, parsePhone, contactRepository, type ContactRow, type Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import {
  messageText,
  type ReceivedMessage,
  type Outbound,
  isRefusal,
  fillVariables,
  templateContent,
} from '../messages/index.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import type { Deps } from '../db/deps.js';
import { AppError, errors, validOrNull } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/index.js';
import { parseDuration, type FlowCondition, type FlowDefinition, type FlowNode } from './flow.definition.js';
import { flowRepository, type RunRow } from './flow.repository.js';
import type { CallOutResult, FlowWebhookClient } from './flow-webhook.js';

/** A flow walk never takes more steps than this without waiting (definitions forbid wait-free loops). */
const MAX_STEPS = 500;

type Json = Record<string, unknown>;
type Trx = Kysely<Database>;
interface Reply {
  text: string | null;
  button_id: string | null;
  type: string;
}

/**
 * The flow engine: what runs a chatbot flow. A run walks the graph inside one transaction until it has
 * to wait (a question, a wait for a reply, a webhook call); a reply or a timeout job picks it up from
 * that node. What a node sends is queued in the outbox in the same transaction as the run's new
 * position. Flows themselves are saved and read by flow.service.ts.
 */
export function createFlowEngine(deps: Deps, webhooks: FlowWebhookClient, outbound: Outbound, tagging: Tagging) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * Changes the run in memory only: the walk that follows always ends in `update` (it waits,
   * calls out or finishes), which writes them too — one statement per reply instead of one per node.
   */
  function stage(run: RunRow, fields: Partial<RunRow>): void {
    Object.assign(run, fields);
  }

  async function update(trx: Trx, run: RunRow, fields: Partial<RunRow>): Promise<void> {
    Object.assign(run, fields, { updated_at: now() });
    const { status, node_id, retries, context, ended_reason, updated_at } = run;
    await trx
      .updateTable('flow_runs')
      .set({ status, node_id, retries, context, ended_reason, updated_at })
      .where('id', '=', run.id)
      .execute();
  }

  /**
   * Runs known to have no pending job: just started, their wait's timeout cancelled by a reply, or
   * loaded by the job that is running (and was deleted). Finishing them has nothing to cancel.
   */
  const withoutJobs = new WeakSet<RunRow>();

  async function finish(trx: Trx, run: RunRow, status: string, reason: string | null): Promise<void> {
    await update(trx, run, { status, ended_reason: reason, node_id: null });
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

  async function setAttribute(trx: Trx, contact: ContactRow, name: string, value: unknown): Promise<ContactRow> {
    const attributes = { ...(JSON.parse(contact.custom_attributes) as Json), [name]: value };
    const custom_attributes = JSON.stringify(attributes);
    await contactRepository(trx).update(contact.workspace_id, contact.id, { custom_attributes, updated_at: now() });
    return { ...contact, custom_attributes };
  }

  async function holds(
    trx: Trx,
    condition: FlowCondition,
    reply: Reply | undefined,
    contact: ContactRow,
  ): Promise<boolean> {
    const text = (reply?.text ?? '').trim().toLowerCase();
    if ('reply_equals' in condition) return text === condition.reply_equals.trim().toLowerCase();
    if ('reply_contains' in condition) return text.includes(condition.reply_contains.toLowerCase());
    if ('button_id' in condition) return reply?.button_id === condition.button_id;
    if ('has_tag' in condition) {
      const tags = await contactRepository(trx).tagNamesOf(contact.id);
      return tags.some((tag) => tag.toLowerCase() === condition.has_tag.toLowerCase());
    }
    const value = (JSON.parse(contact.custom_attributes) as Json)[condition.attribute];
    if ('exists' in condition) return (value !== undefined && value !== null) === condition.exists;
    return (typeof value === 'string' ? value : JSON.stringify(value ?? null)) === condition.equals;
  }

  /**
   * Waits at `node` for a reply, with its timeout as a job. No earlier timeout is pending: a reply
   * cancelled it (`answer`), and a job that led here was deleted as it ran.
   */
  async function waitAt(
    trx: Trx,
    run: RunRow,
    node: Extract<FlowNode, { type: 'ask' | 'wait_for_reply' }>,
    retries: number,
  ) {
    const dueAt = new Date(clock.now().getTime() + parseDuration(node.timeout));
    await pauseForJob(trx, run, { status: 'waiting', node_id: node.id, retries }, 'flow_timeout', dueAt);
  }

  /** Walks from `nodeId` until the flow waits or ends. */
  async function walk(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    nodeId: string | undefined,
    start: ContactRow,
  ) {
    const nodes = new Map(definition.nodes.map((node) => [node.id, node]));
    let contact = start;
    let current = nodeId;
    for (let steps = 0; current !== undefined; steps++) {
      const node = nodes.get(current);
      if (!node || steps >= MAX_STEPS) return finish(trx, run, 'failed', node ? 'too_many_steps' : 'unknown_node');
      const context = JSON.parse(run.context) as Json;
      const scope = { contact, context };
      let failure: string | null = null;
      switch (node.type) {
        case 'send_text':
          failure = await send(trx, run, contact, textContent(render(node.text, scope)));
          current = node.next;
          break;
        case 'send_template':
          failure = await sendTemplate(trx, run, contact, node, scope);
          current = node.next;
          break;
        case 'send_buttons':
        case 'send_list':
          failure = await send(trx, run, contact, {
            type: 'interactive',
            content: { interactive: interactiveOf(node, scope), text: render(node.text, scope) },
          });
          current = node.next;
          break;
        case 'ask':
          failure = await send(trx, run, contact, textContent(render(node.text, scope)));
          if (!failure) return waitAt(trx, run, node, 0);
          break;
        case 'wait_for_reply':
          return waitAt(trx, run, node, 0);
        case 'branch': {
          let next = node.default;
          for (const branch of node.branches) {
            if (await holds(trx, branch.when, context.reply as Reply | undefined, contact)) {
              next = branch.next;
              break;
            }
          }
          current = next;
          break;
        }
        case 'add_tag': {
          await tagging.addTags(trx, contact.workspace_id, [{ contactId: contact.id, names: [node.tag] }]);
          current = node.next;
          break;
        }
        case 'remove_tag': {
          await tagging.removeTags(trx, contact.workspace_id, [contact.id], [node.tag]);
          current = node.next;
          break;
        }
        case 'set_attribute':
          contact = await setAttribute(trx, contact, node.attribute, render(node.value, scope));
          current = node.next;
          break;
        case 'webhook':
          // The call happens outside any transaction, as a job: a slow endpoint holds up nothing else.
          return pauseForJob(trx, run, { status: 'active', node_id: node.id }, 'flow_webhook', clock.now());
        case 'handoff':
          await contactRepository(trx).update(contact.workspace_id, contact.id, {
            handoff_at: now(),
            updated_at: now(),
          });
          return finish(trx, run, 'handed_off', node.note ?? null);
        case 'end':
          return finish(trx, run, 'completed', null);
      }
      if (failure) return finish(trx, run, 'failed', failure);
    }
    return finish(trx, run, 'completed', null);
  }

  /** Starts a run at the flow's first node; a run the contact was waiting in is cancelled (one at a time). */
  async function start(
    trx: Trx,
    workspaceId: string,
    flowId: string,
    contact: ContactRow,
    context: Json,
  ): Promise<string> {
    const flow = await flowRepository(trx).find(workspaceId, flowId.toLowerCase());
    if (!flow) throw errors.notFound('flow', 'flow_id');
    for (const superseded of await flowRepository(trx).waiting(workspaceId, [contact.id])) {
      await finish(trx, superseded.run, 'cancelled', 'superseded');
    }
    const at = now();
    const run: RunRow = {
      id: newId(),
      workspace_id: workspaceId,
      flow_id: flow.id,
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
    await walk(trx, run, flow.definition, flow.definition.start, contact);
    await emitWebhookEvents(trx, deps, 'new-flow-triggered', [{ workspaceId, id: run.id }]);
    return run.id;
  }

  /** A reply to a waiting run: an answer to its question (validated, saved) or the reply it waited for. */
  async function answer(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    message: ReceivedMessage,
    contact: ContactRow,
  ): Promise<void> {
    const node = definition.nodes.find((n) => n.id === run.node_id);
    if (!node || (node.type !== 'ask' && node.type !== 'wait_for_reply'))
      return finish(trx, run, 'failed', 'unknown_node');
    const reply = replyOf(message);
    const context = { ...(JSON.parse(run.context) as Json), reply };
    await cancelJobs(trx, run.id); // the wait's timeout: whatever the reply leads to, it is moot
    withoutJobs.add(run);
    stage(run, { context: JSON.stringify(context) });
    let current = contact;
    if (node.type === 'ask') {
      const value = accepted(node.validate ?? 'any', reply.text);
      if (value === null) {
        if (run.retries >= (node.retries ?? 0)) {
          return node.on_timeout
            ? leaveWait(trx, run, definition, node.on_timeout, current)
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
    return leaveWait(trx, run, definition, node.next, current);
  }

  async function leaveWait(
    trx: Trx,
    run: RunRow,
    definition: FlowDefinition,
    next: string | undefined,
    contact: ContactRow,
  ) {
    stage(run, { status: 'active', node_id: null, retries: 0 });
    return walk(trx, run, definition, next, contact);
  }

  /** Loads what a job needs: the run (still at the job's node) and its flow and contact. */
  async function jobSubject(trx: Trx, job: Job, status: string) {
    const run = await flowRepository(trx).run(job.subject_id);
    if (!run || run.status !== status || run.node_id !== job.payload.node_id) return null;
    withoutJobs.add(run);
    const flow = await flowRepository(trx).find(run.workspace_id, run.flow_id);
    const contact = await contactRepository(trx).findById(run.workspace_id, run.contact_id);
    const node = flow?.definition.nodes.find((n) => n.id === run.node_id);
    return flow && contact && node ? { run, definition: flow.definition, contact, node } : null;
  }

  const handlers = {
    timeout: {
      async run(trx: Trx, job: Job): Promise<void> {
        const subject = await jobSubject(trx, job, 'waiting');
        if (!subject || !('on_timeout' in subject.node)) return;
        const { run, definition, contact, node } = subject;
        if (!node.on_timeout) return finish(trx, run, 'completed', 'no_reply');
        await leaveWait(trx, run, definition, node.on_timeout, contact);
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
          method: node.method ?? 'POST',
          timeoutMs: node.timeout_ms ?? 5000,
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
            ? leaveWait(trx, run, definition, node.on_error, contact)
            : finish(trx, run, 'failed', `webhook: ${result.error}`);
        }
        if (node.save_as) contact = await setAttribute(trx, contact, node.save_as, result.body);
        const context = { ...(JSON.parse(run.context) as Json), webhook: result.body };
        stage(run, { context: JSON.stringify(context) });
        await leaveWait(trx, run, definition, node.next, contact);
      },
    },
  };

  return {
    /** The scheduler's jobs: a wait's timeout, and a webhook node's call. */
    handlers,
    /** Starts a run of the flow for the contact and walks it until it waits; the new run's id. */
    start,

    /** Inbound messages: each answers its contact's waiting run, or starts a flow by keyword. */
    async onInbound(trx: Trx, workspaceId: string, messages: ReceivedMessage[]): Promise<void> {
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
        if (entry && entry.run.status === 'waiting') {
          await answer(trx, entry.run, entry.definition, message, contact);
          continue;
        }
        const text = replyOf(message).text?.trim().toLowerCase();
        if (!text) continue;
        keywordFlows ??= await flows.keywordFlows(workspaceId);
        const flow = keywordFlows.find((f) => f.keywords.includes(text));
        if (flow) await start(trx, workspaceId, flow.id, contact, { keyword: text });
      }
    },
  };
}

function replyOf(message: ReceivedMessage): Reply {
  const content = message.content;
  const tapped = (content.button_reply ?? content.list_reply) as { id?: string } | undefined;
  const button = message.type === 'button' ? (content.payload as string | undefined) : undefined;
  return { text: messageText(message.type, content), button_id: tapped?.id ?? button ?? null, type: message.type };
}

/** The reply as the attribute stores it, or null when it is not what the question asked for. */
function accepted(validate: 'any' | 'email' | 'phone' | 'number', text: string | null): string | null {
  const value = text?.trim();
  if (!value) return null;
  if (validate === 'email') return validOrNull(() => parseEmail(value));
  if (validate === 'phone') return validOrNull(() => parsePhone(value));
  if (validate === 'number') return /^-?\d+(?:[.,]\d+)?$/.test(value) ? value.replace(',', '.') : null;
  return value;
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
