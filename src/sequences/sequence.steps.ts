import { sql, type Kysely } from 'kysely';
import { render } from '../automation/render.js';
import { durationMs, nextSendingTime } from '../automation/schedule-time.js';
import { cancelJobs, scheduleJobs, type Job, type NewJob } from '../automation/scheduler.js';
import { contactRepository, type ContactRow, type Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import { textContent, type OutboundContent } from '../content/message-content.js';
import {
  prepareOutbound,
  queueOutbound,
  type OutboundRow,
  type WhatsappFlowMessages,
  filledFlowMessage,
  flowSendRepository,
  isFlowSendProblem,
  isRefusal,
  fillVariables,
  templateContent,
} from '../messages/index.js';
import type { Deps } from '../db/deps.js';
import { AppError } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository, type TemplateRow, type TranslationRow } from '../templates/index.js';
import { sequenceRepository, type EnrolmentRow } from './sequence.repository.js';
import type { SequenceAction, SequenceDefinition } from './sequence.schema.js';

type Db = Kysely<Database>;

/** Starts a flow for a contact from a sequence step (the flow engine, injected to avoid a cycle). */
export type FlowStarter = (
  trx: Db,
  workspaceId: string,
  flowId: string,
  contact: ContactRow,
  context: Record<string, unknown>,
) => Promise<unknown>;

const isRunning = (status: string) => status === 'active' || status === 'waiting';

type RunningEnrolment = Awaited<ReturnType<ReturnType<typeof sequenceRepository>['running']>>[number];

interface EnrolmentChange {
  id: string;
  status: string;
  step_index: number;
  ended_reason: string | null;
}

/**
 * What sequence steps change, collected over a chunk of steps and written in one statement per
 * table: enrolment states, the pending jobs of enrolments that moved on, tags added, messages for
 * the outbox and the next steps' jobs. Only running enrolments change: an ended one stays ended.
 */
export class EnrolmentChanges {
  private readonly enrolments = new Map<string, EnrolmentChange>();
  private cancelled: string[] = [];
  private tags: { workspaceId: string; contactId: string; tag: string }[] = [];
  private messages: OutboundRow[] = [];
  private jobs: NewJob[] = [];

  /** `tagging` is needed only by the changes of steps that add tags. */
  constructor(
    private readonly deps: Deps,
    private readonly tagging?: Tagging,
  ) {}

  touches(enrolmentId: string): boolean {
    return this.enrolments.has(enrolmentId);
  }

  hasEnded(enrolmentId: string): boolean {
    const change = this.enrolments.get(enrolmentId);
    return change !== undefined && !isRunning(change.status);
  }

  /** The enrolment moves on to step `index` after its delay, or completes after the last step. */
  advance(enrolment: EnrolmentRow, definition: SequenceDefinition, index: number, timeZone: string): void {
    if (index >= definition.steps.length) return this.end(enrolment, 'completed', null);
    this.enrolments.set(enrolment.id, { id: enrolment.id, status: 'active', step_index: index, ended_reason: null });
    this.jobs.push(stepJob(enrolment, definition, index, timeZone, this.deps.clock.now()));
  }

  /** The enrolment waits at step `index` for a reply, until the timeout's job. */
  waitForReply(enrolment: EnrolmentRow, index: number, timeoutMs: number): void {
    this.enrolments.set(enrolment.id, { id: enrolment.id, status: 'waiting', step_index: index, ended_reason: null });
    this.jobs.push({
      workspaceId: enrolment.workspace_id,
      kind: 'sequence_step',
      subjectId: enrolment.id,
      payload: { step: index, timeout: true },
      dueAt: new Date(this.deps.clock.now().getTime() + timeoutMs),
    });
  }

  end(enrolment: EnrolmentRow, status: string, reason: string | null): void {
    this.enrolments.set(enrolment.id, {
      id: enrolment.id,
      status,
      step_index: enrolment.step_index,
      ended_reason: reason,
    });
    this.cancelJobs(enrolment.id);
  }

  /** Removes the enrolment's pending jobs (written before the new jobs, so a replacement survives). */
  cancelJobs(enrolmentId: string): void {
    this.cancelled.push(enrolmentId);
  }

  queue(message: OutboundRow): void {
    this.messages.push(message);
  }

  addTag(workspaceId: string, contactId: string, tag: string): void {
    this.tags.push({ workspaceId, contactId, tag });
  }

  async write(trx: Db): Promise<void> {
    if (this.cancelled.length > 0) await cancelJobs(trx, this.cancelled);
    if (this.enrolments.size > 0) {
      const updatedAt = toStoredTimestamp(this.deps.clock.now());
      const v = jsonRows(this.deps.dialect, [...this.enrolments.values()], {
        id: 'uuid',
        status: 'text',
        step_index: 'integer',
        ended_reason: 'text',
      });
      // The guard is in SET, not WHERE: a status condition there lets SQLite choose the partial index
      // of running enrolments and scan all of them for each chunk, instead of looking up each id.
      const running = sql`e.status IN ('active', 'waiting')`;
      await sql`UPDATE sequence_enrolments AS e SET
          status = CASE WHEN ${running} THEN v.status ELSE e.status END,
          step_index = CASE WHEN ${running} THEN v.step_index ELSE e.step_index END,
          ended_reason = CASE WHEN ${running} THEN v.ended_reason ELSE e.ended_reason END,
          updated_at = CASE WHEN ${running} THEN ${updatedAt} ELSE e.updated_at END
        FROM ${v} WHERE e.id = v.id`.execute(trx);
    }
    await this.writeTags(trx);
    await queueOutbound(trx, this.messages);
    await scheduleJobs(trx, this.deps, this.jobs);
    this.enrolments.clear();
    this.cancelled = [];
    this.tags = [];
    this.messages = [];
    this.jobs = [];
  }

  /** The tags added, through the one tagging operation, one call per workspace. */
  private async writeTags(trx: Db): Promise<void> {
    if (!this.tagging) return;
    for (const workspaceId of new Set(this.tags.map((t) => t.workspaceId))) {
      const added = this.tags.filter((t) => t.workspaceId === workspaceId);
      await this.tagging.addTags(
        trx,
        workspaceId,
        added.map((t) => ({ contactId: t.contactId, names: [t.tag] })),
      );
    }
  }
}

/** Step `index`'s job: due after its delay (from the previous step or the enrolment), in sending hours. */
function stepJob(
  enrolment: EnrolmentRow,
  definition: SequenceDefinition,
  index: number,
  timeZone: string,
  now: Date,
): NewJob {
  const step = definition.steps[index]!;
  const from = step.delay_from === 'enrolment' ? Date.parse(enrolment.created_at) : now.getTime();
  let dueAt = new Date(from + durationMs(step.delay ?? 'PT0S'));
  if (step.within_sending_hours && definition.sending_hours) {
    dueAt = nextSendingTime(dueAt, definition.sending_hours, timeZone);
  }
  return {
    workspaceId: enrolment.workspace_id,
    kind: 'sequence_step',
    subjectId: enrolment.id,
    payload: { step: index },
    dueAt,
  };
}

/** The workspace's time zone, read only when a definition has sending hours to apply it to. */
export async function timeZoneFor(trx: Db, workspaceId: string, definitions: SequenceDefinition[]): Promise<string> {
  if (!definitions.some((definition) => definition.sending_hours)) return 'UTC';
  const row = await trx.selectFrom('workspaces').select('time_zone').where('id', '=', workspaceId).executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}

/** Of these running enrolments, those that exit on one of the newly added tags end. */
export function exitOnTags(changes: EnrolmentChanges, running: RunningEnrolment[], tagNames: string[]): void {
  const added = new Set(tagNames.map((name) => name.toLowerCase()));
  for (const { row, definition } of running) {
    if (changes.hasEnded(row.id)) continue;
    if (definition.exit_on?.tags?.some((tag) => added.has(tag.toLowerCase()))) changes.end(row, 'exited', 'tagged');
  }
}

/** Everything a chunk of steps reads, loaded in a few statements per workspace. */
interface StepState {
  enrolments: Map<string, EnrolmentRow>;
  definitions: Map<string, SequenceDefinition>;
  contacts: Map<string, ContactRow>;
  templates: Map<string, { template: TemplateRow; translations: TranslationRow[] }>;
  timeZones: Map<string, string>;
  /** Running enrolments by contact, when a step adds a tag (one may end another). */
  running: Map<string, RunningEnrolment[]>;
}

async function loadState(trx: Db, jobs: Job[]): Promise<StepState> {
  const state: StepState = {
    enrolments: new Map(),
    definitions: new Map(),
    contacts: new Map(),
    templates: new Map(),
    timeZones: new Map(),
    running: new Map(),
  };
  for (const [workspaceId, enrolmentIds] of subjectsByWorkspace(jobs)) {
    const enrolments = await sequenceRepository(trx).enrolments(workspaceId, enrolmentIds);
    const definitions = await sequenceRepository(trx).definitions(workspaceId, unique(enrolments, 'sequence_id'));
    const contacts = await contactRepository(trx).findByIds(workspaceId, unique(enrolments, 'contact_id'));
    const actions = enrolments.map(
      ({ sequence_id, step_index }) => definitions.get(sequence_id)?.steps[step_index]?.action,
    );
    const templateIds = [
      ...new Set(
        actions.flatMap((action) => (action?.type === 'send_template' ? [action.template_id.toLowerCase()] : [])),
      ),
    ];
    if (actions.some((action) => action?.type === 'add_tag')) {
      for (const running of await sequenceRepository(trx).running(workspaceId, unique(enrolments, 'contact_id'))) {
        const ofContact = state.running.get(running.row.contact_id);
        if (ofContact) ofContact.push(running);
        else state.running.set(running.row.contact_id, [running]);
      }
    }
    const templates = templateRepository(trx);
    const translations = await templates.translations(templateIds);
    for (const template of await templates.findByIds(workspaceId, templateIds)) {
      const own = translations.filter((translation) => translation.template_id === template.id);
      state.templates.set(template.id, { template, translations: own });
    }
    for (const row of enrolments) state.enrolments.set(row.id, row);
    for (const [id, definition] of definitions) state.definitions.set(id, definition);
    for (const row of contacts) state.contacts.set(row.id, row);
    state.timeZones.set(workspaceId, await timeZoneFor(trx, workspaceId, [...definitions.values()]));
  }
  return state;
}

function subjectsByWorkspace(jobs: Job[]): Map<string, string[]> {
  const subjects = new Map<string, string[]>();
  for (const job of jobs) {
    const ids = subjects.get(job.workspace_id);
    if (ids) ids.push(job.subject_id);
    else subjects.set(job.workspace_id, [job.subject_id]);
  }
  return subjects;
}

function unique<K extends keyof EnrolmentRow>(rows: EnrolmentRow[], key: K): EnrolmentRow[K][] {
  return [...new Set(rows.map((row) => row[key]))];
}

/** Actions that read and write the database themselves (tags, flows), rather than through EnrolmentChanges. */
const DIRECT_ACTIONS = new Set<SequenceAction['type']>(['remove_tag', 'start_flow', 'send_whatsapp_flow']);

/**
 * The scheduler's `sequence_step` handler. A chunk of due steps is loaded in a few statements and
 * its changes written in a few more: the round trips per step, not the work, bound the throughput
 * on PostgreSQL. A step whose action writes the database itself (a tag, a flow) first writes what
 * the chunk changed so far, and the steps after it are loaded again, so each sees the one before.
 */
export function createStepRunner(
  deps: Deps,
  tagging: Tagging,
  startFlow: () => FlowStarter,
  whatsappFlows: WhatsappFlowMessages,
) {
  async function runBatch(trx: Db, jobs: Job[]): Promise<void> {
    let rest = jobs;
    while (rest.length > 0) {
      const state = await loadState(trx, rest);
      const changes = new EnrolmentChanges(deps, tagging);
      let done = 0;
      for (const job of rest) {
        if (changes.touches(job.subject_id)) break; // a second job of one enrolment sees the first's result
        done += 1;
        if (await runStep(trx, job, state, changes)) break;
      }
      await changes.write(trx);
      rest = rest.slice(done);
    }
  }

  /** Runs one step (or a wait's timeout); true when it wrote to the database outside `changes`. */
  async function runStep(trx: Db, job: Job, state: StepState, changes: EnrolmentChanges): Promise<boolean> {
    const enrolment = state.enrolments.get(job.subject_id);
    const index = job.payload.step as number;
    if (!enrolment || enrolment.step_index !== index || !isRunning(enrolment.status)) return false;
    const definition = state.definitions.get(enrolment.sequence_id);
    const contact = state.contacts.get(enrolment.contact_id);
    if (!definition || !contact) {
      changes.end(enrolment, 'failed', 'deleted');
      return false;
    }
    if (contact.opted_out_at) {
      changes.end(enrolment, 'exited', 'opted_out');
      return false;
    }
    const timeZone = state.timeZones.get(enrolment.workspace_id) ?? 'UTC';
    const advance = () => changes.advance(enrolment, definition, index + 1, timeZone);
    const { action } = definition.steps[index]!;
    if (job.payload.timeout === true) {
      if (enrolment.status !== 'waiting') return false;
      if (action.type === 'wait_for_reply' && action.on_timeout === 'exit')
        changes.end(enrolment, 'exited', 'no_reply');
      else advance();
      return false;
    }
    if (DIRECT_ACTIONS.has(action.type)) {
      await changes.write(trx); // the action reads the database: it must see this chunk's changes
      const failure = await performDirect(trx, enrolment, contact, action);
      if (failure) changes.end(enrolment, 'failed', failure);
      else advance();
      return true;
    }
    const failure = perform(changes, enrolment, contact, action, state);
    if (failure) changes.end(enrolment, 'failed', failure);
    else if (action.type === 'wait_for_reply') changes.waitForReply(enrolment, index, durationMs(action.timeout));
    else if (!changes.hasEnded(enrolment.id)) advance(); // unless a tag it added made it exit
    return false;
  }

  /** Sends and waits, through `changes`; returns why the step failed, if it did. */
  function perform(
    changes: EnrolmentChanges,
    enrolment: EnrolmentRow,
    contact: ContactRow,
    action: SequenceAction,
    state: StepState,
  ): string | null {
    const scope = { contact, context: JSON.parse(enrolment.context) as Record<string, unknown> };
    /** Queues the message with the chunk, or says what the sending rules refused. */
    const queue = (message: OutboundContent) => {
      const prepared = prepareOutbound(deps, contact, message, { type: 'sequence', id: enrolment.sequence_id });
      if (isRefusal(prepared)) return prepared;
      changes.queue(prepared);
      return null;
    };
    if (action.type === 'send_template') {
      const found = state.templates.get(action.template_id.toLowerCase());
      if (!found) return 'template_not_found';
      try {
        const variables = fillVariables(action.variables ?? [], scope);
        const input = {
          template_id: found.template.id,
          language: action.language,
          variables,
          header_media_url: action.header_media_url,
        };
        return (
          queue({ type: 'template', content: templateContent(found.template, found.translations, input) })?.refused ??
          null
        );
      } catch (error) {
        if (error instanceof AppError) return error.code;
        throw error;
      }
    } else if (action.type === 'add_tag') {
      changes.addTag(enrolment.workspace_id, contact.id, action.tag);
      exitOnTags(changes, state.running.get(contact.id) ?? [], [action.tag]);
    } else if (action.type === 'send_text') {
      // Outside the window the step is skipped, unless the sequence says to fail.
      const refusal = queue(textContent(render(action.text, scope)));
      if (refusal && action.outside_window === 'fail') return refusal.refused;
    }
    return null;
  }

  /** Performs an action that writes the database itself; returns why the step failed, if it did. */
  async function performDirect(
    trx: Db,
    enrolment: EnrolmentRow,
    contact: ContactRow,
    action: SequenceAction,
  ): Promise<string | null> {
    const { workspace_id: workspaceId } = enrolment;
    if (action.type === 'remove_tag') {
      await tagging.removeTags(trx, workspaceId, [contact.id], [action.tag]);
    } else if (action.type === 'start_flow') {
      const context = JSON.parse(enrolment.context) as Record<string, unknown>;
      await startFlow()(trx, workspaceId, action.flow_id, contact, context);
    } else if (action.type === 'send_whatsapp_flow') {
      return sendWhatsappFlow(trx, enrolment, contact, action);
    }
    return null;
  }

  /**
   * Sends the step's WhatsApp Flow with a new token, kept with the message for its answer. Outside the
   * window (or refused otherwise) the step is skipped unless it says to fail, as send_text; a Flow that
   * can no longer be sent (deprecated since the sequence was saved) fails the enrolment.
   */
  async function sendWhatsappFlow(
    trx: Db,
    enrolment: EnrolmentRow,
    contact: ContactRow,
    action: Extract<SequenceAction, { type: 'send_whatsapp_flow' }>,
  ): Promise<string | null> {
    const scope = { contact, context: JSON.parse(enrolment.context) as Record<string, unknown> };
    const input = filledFlowMessage(action, (text) => render(text, scope));
    const prepared = await whatsappFlows.prepare(trx, enrolment.workspace_id, input, deps.newId());
    if (isFlowSendProblem(prepared)) return prepared.problem;
    const sender = { type: 'sequence', id: enrolment.sequence_id } as const;
    const message = prepareOutbound(deps, contact, prepared.content, sender);
    if (isRefusal(message)) return action.outside_window === 'fail' ? message.refused : null;
    await queueOutbound(trx, [message]);
    const createdAt = toStoredTimestamp(deps.clock.now());
    await flowSendRepository(trx).record({
      ...prepared.send,
      message_id: message.id,
      contact_id: contact.id,
      created_at: createdAt,
    });
    return null;
  }

  return { runBatch };
}
