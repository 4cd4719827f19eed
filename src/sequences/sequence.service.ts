import { sql, type Kysely } from 'kysely';
import { render } from '../automation/render.js';
import { countByState } from '../automation/state-counts.js';
import { durationMs, nextSendingTime } from '../automation/schedule-time.js';
import { cancelJobs, scheduleJob, type Job } from '../automation/scheduler.js';
import { contactRepository, type ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Database } from '../db/schema.js';
import { outboundMessage, queueOutbound, WINDOW_MS } from '../messages/message.service.js';
import { templateContent } from '../messages/template-message.js';
import type { Caller, Deps } from '../shared/context.js';
import { AppError, errors, type FieldError } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { tagRepository } from '../tags/tag.repository.js';
import { templateRepository } from '../templates/template.repository.js';
import type { SequenceRecord } from '../triggers/trigger.schema.js';
import { sequenceRepository, type EnrolmentRow } from './sequence.repository.js';
import {
  ENROLMENT_STATES,
  type SaveSequenceInput,
  type Sequence,
  type SequenceAction,
  type SequenceDefinition,
  type TriggerSequenceInput,
} from './sequence.schema.js';

/** Starts a flow for a contact from a sequence step (the flow engine, injected to avoid a cycle). */
export type FlowStarter = (
  trx: Kysely<Database>,
  workspaceId: string,
  flowId: string,
  contact: ContactRow,
  context: Record<string, unknown>,
) => Promise<void>;

type StepResult = { next: 'advance' } | { next: 'wait'; timeoutMs: number } | { next: 'fail'; reason: string };

/**
 * Drip sequences. An enrolment runs its steps through the durable scheduler: each step is a job
 * whose effects (the message it queues, the tag it adds, the next step's job) commit with it.
 */
export function createSequenceService(
  deps: Deps,
  contacts: ContactService,
  wakeScheduler: () => void,
  startFlow: () => FlowStarter,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function timeZoneOf(trx: Kysely<Database>, workspaceId: string): Promise<string> {
    const row = await trx.selectFrom('workspaces').select('time_zone').where('id', '=', workspaceId).executeTakeFirst();
    return row?.time_zone ?? 'UTC';
  }

  /** Schedules step `index` after its delay (from the previous step or the enrolment), in sending hours. */
  async function scheduleStep(
    trx: Kysely<Database>,
    enrolment: EnrolmentRow,
    definition: SequenceDefinition,
    index: number,
  ) {
    const step = definition.steps[index]!;
    const from = step.delay_from === 'enrolment' ? Date.parse(enrolment.created_at) : clock.now().getTime();
    let due = new Date(from + durationMs(step.delay ?? 'PT0S'));
    if (step.within_sending_hours && definition.sending_hours) {
      due = nextSendingTime(due, definition.sending_hours, await timeZoneOf(trx, enrolment.workspace_id));
    }
    await scheduleJob(trx, deps, {
      workspaceId: enrolment.workspace_id,
      kind: 'sequence_step',
      subjectId: enrolment.id,
      payload: { step: index },
      dueAt: due,
    });
  }

  async function advance(
    trx: Kysely<Database>,
    enrolment: EnrolmentRow,
    definition: SequenceDefinition,
    index: number,
  ) {
    if (index >= definition.steps.length) return end(trx, enrolment, 'completed', null);
    await trx
      .updateTable('sequence_enrolments')
      .set({ status: 'active', step_index: index, updated_at: now() })
      .where('id', '=', enrolment.id)
      .execute();
    await scheduleStep(trx, enrolment, definition, index);
  }

  async function end(trx: Kysely<Database>, enrolment: EnrolmentRow, status: string, reason: string | null) {
    await trx
      .updateTable('sequence_enrolments')
      .set({ status, ended_reason: reason, updated_at: now() })
      .where('id', '=', enrolment.id)
      .execute();
    await cancelJobs(trx, enrolment.id);
  }

  /** A contact got tags: enrolments that exit on one of them end. */
  async function exitOnTags(trx: Kysely<Database>, workspaceId: string, contactId: string, tagNames: string[]) {
    const added = new Set(tagNames.map((name) => name.toLowerCase()));
    for (const { row, definition } of await sequenceRepository(trx).running(workspaceId, [contactId])) {
      if (definition.exit_on?.tags?.some((tag) => added.has(tag.toLowerCase())))
        await end(trx, row, 'exited', 'tagged');
    }
  }

  /** Does what a step says; sends go to the outbox in the same transaction. */
  async function perform(
    trx: Kysely<Database>,
    enrolment: EnrolmentRow,
    contact: ContactRow,
    action: SequenceAction,
  ): Promise<StepResult> {
    const workspaceId = enrolment.workspace_id;
    const scope = { contact, context: JSON.parse(enrolment.context) as Record<string, unknown> };
    const queue = async (type: string, content: object) => {
      await queueOutbound(trx, outboundMessage(newId(), workspaceId, contact.id, type, content, now()));
    };
    switch (action.type) {
      case 'send_template': {
        const templates = templateRepository(trx);
        const template = await templates.findById(workspaceId, action.template_id);
        if (!template) return { next: 'fail', reason: 'template_not_found' };
        try {
          const variables = (action.variables ?? []).map((value) => render(value, scope));
          const input = { template_id: template.id, language: action.language, variables };
          await queue('template', templateContent(template, await templates.translations([template.id]), input));
        } catch (error) {
          if (error instanceof AppError) return { next: 'fail', reason: error.code };
          throw error;
        }
        return { next: 'advance' };
      }
      case 'send_text': {
        const lastInbound = contact.last_inbound_at ? Date.parse(contact.last_inbound_at) : null;
        if (lastInbound === null || clock.now().getTime() >= lastInbound + WINDOW_MS) {
          return action.outside_window === 'fail'
            ? { next: 'fail', reason: 'customer_service_window_closed' }
            : { next: 'advance' };
        }
        await queue('text', { body: render(action.text, scope), preview_url: false });
        return { next: 'advance' };
      }
      case 'add_tag': {
        const tags = await tagRepository(trx).ensure(workspaceId, [action.tag], newId, now());
        await contactRepository(trx).addTags(
          contact.id,
          tags.map((tag) => tag.id),
          now(),
        );
        await exitOnTags(trx, workspaceId, contact.id, [action.tag]);
        return { next: 'advance' };
      }
      case 'remove_tag': {
        const tag = await tagRepository(trx).findByName(workspaceId, action.tag);
        if (tag) await contactRepository(trx).removeTags(contact.id, [tag.id]);
        return { next: 'advance' };
      }
      case 'start_flow':
        await startFlow()(trx, workspaceId, action.flow_id, contact, scope.context);
        return { next: 'advance' };
      case 'wait_for_reply':
        return { next: 'wait', timeoutMs: durationMs(action.timeout) };
    }
  }

  /** The scheduler's handler for `sequence_step` jobs: a step, or the timeout of a wait for a reply. */
  async function runStep(trx: Kysely<Database>, job: Job): Promise<void> {
    const sequences = sequenceRepository(trx);
    const enrolment = await sequences.enrolment(job.subject_id);
    const index = job.payload.step as number;
    if (!enrolment || enrolment.step_index !== index || !['active', 'waiting'].includes(enrolment.status)) return;
    const sequence = await sequences.find(enrolment.workspace_id, enrolment.sequence_id);
    const contact = await contactRepository(trx).findById(enrolment.workspace_id, enrolment.contact_id);
    if (!sequence || !contact) return end(trx, enrolment, 'failed', 'deleted');
    if (contact.opted_out_at) return end(trx, enrolment, 'exited', 'opted_out');
    const { definition } = sequence;
    const step = definition.steps[index]!;
    if (job.payload.timeout === true) {
      if (enrolment.status !== 'waiting') return;
      const exit = step.action.type === 'wait_for_reply' && step.action.on_timeout === 'exit';
      return exit ? end(trx, enrolment, 'exited', 'no_reply') : advance(trx, enrolment, definition, index + 1);
    }
    const result = await perform(trx, enrolment, contact, step.action);
    if (result.next === 'fail') return end(trx, enrolment, 'failed', result.reason);
    if (result.next === 'advance') return advance(trx, enrolment, definition, index + 1);
    await trx
      .updateTable('sequence_enrolments')
      .set({ status: 'waiting', updated_at: now() })
      .where('id', '=', enrolment.id)
      .execute();
    await scheduleJob(trx, deps, {
      workspaceId: enrolment.workspace_id,
      kind: 'sequence_step',
      subjectId: enrolment.id,
      payload: { step: index, timeout: true },
      dueAt: new Date(clock.now().getTime() + result.timeoutMs),
    });
  }

  /** Templates and flows a definition names must belong to the workspace. */
  async function referenceProblems(trx: Kysely<Database>, workspaceId: string, steps: SaveSequenceInput['steps']) {
    const problems: FieldError[] = [];
    for (const [i, { action }] of steps.entries()) {
      if (
        action.type === 'send_template' &&
        !(await templateRepository(trx).findById(workspaceId, action.template_id.toLowerCase()))
      ) {
        problems.push({ field: `/steps/${i}/action/template_id`, message: 'names no template of this workspace' });
      }
      if (action.type === 'start_flow') {
        const flow = await trx
          .selectFrom('flows')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', action.flow_id.toLowerCase())
          .executeTakeFirst();
        if (!flow) problems.push({ field: `/steps/${i}/action/flow_id`, message: 'names no flow of this workspace' });
      }
    }
    return problems;
  }

  function present(
    row: { id: string; name: string; created_at: string; updated_at: string },
    definition: SequenceDefinition,
    enrolments: Sequence['enrolments'],
  ): Sequence {
    return {
      id: row.id,
      name: row.name,
      steps: definition.steps,
      sending_hours: definition.sending_hours ?? null,
      exit_on: { reply: definition.exit_on?.reply ?? true, tags: definition.exit_on?.tags ?? [] },
      enrolments,
      created_at: formatTimestamp(row.created_at),
      updated_at: formatTimestamp(row.updated_at),
    };
  }

  return {
    handler: { run: runStep },

    /** Creates a sequence, or replaces the definition of the one `id` names. Names are unique per workspace. */
    async save(caller: Caller, input: SaveSequenceInput): Promise<Sequence> {
      const { id: givenId, name, ...definition } = input;
      const id = await db.transaction().execute(async (trx) => {
        const problems = await referenceProblems(trx, caller.workspaceId, definition.steps);
        if (problems.length > 0) throw errors.validationMany(problems);
        const sequences = sequenceRepository(trx);
        const named = await sequences.findByName(caller.workspaceId, name.trim());
        const existing = givenId ? await sequences.find(caller.workspaceId, givenId.toLowerCase()) : undefined;
        if (givenId && !existing) throw errors.notFound('sequence', 'id');
        if (named && named.id !== existing?.id)
          throw errors.conflict(`A sequence named "${name.trim()}" already exists`, { sequence_id: named.id });
        const at = now();
        const fields = { name: name.trim(), definition: JSON.stringify(definition), updated_at: at };
        if (existing) {
          await trx.updateTable('sequences').set(fields).where('id', '=', existing.id).execute();
          return existing.id;
        }
        const newSequenceId = newId();
        await trx
          .insertInto('sequences')
          .values({ id: newSequenceId, workspace_id: caller.workspaceId, created_at: at, ...fields })
          .execute();
        return newSequenceId;
      });
      return this.get(caller, { sequence_id: id });
    },

    /** get-sequence: the steps and how many enrolments are in each state. */
    async get(caller: Caller, input: { sequence_id: string }): Promise<Sequence> {
      const sequences = sequenceRepository(db);
      const sequence = await sequences.find(caller.workspaceId, input.sequence_id.toLowerCase());
      if (!sequence) throw errors.notFound('sequence', 'sequence_id');
      const enrolments = await countByState(db, ENROLMENT_STATES, {
        table: 'sequence_enrolments',
        sequenceId: sequence.id,
      });
      return present(sequence, sequence.definition, enrolments);
    },

    /** trigger-sequence: enrols the contact (once at a time) and schedules the first step. */
    async trigger(caller: Caller, input: TriggerSequenceInput): Promise<SequenceRecord> {
      const sequence = await sequenceRepository(db).find(caller.workspaceId, input.sequence_id.toLowerCase());
      if (!sequence) throw errors.notFound('sequence', 'sequence_id');
      const contact = await contacts.recipientOrNew(caller, input);
      if (contact.opted_out_at) throw errors.optedOut();
      const at = now();
      const enrolment: EnrolmentRow = {
        id: newId(),
        workspace_id: caller.workspaceId,
        sequence_id: sequence.id,
        contact_id: contact.id,
        status: 'active',
        context: JSON.stringify(input.context ?? {}),
        step_index: 0,
        ended_reason: null,
        created_at: at,
        updated_at: at,
      };
      const enrolled = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('sequence_enrolments')
          .values(enrolment)
          // The partial index's own predicate, as literals, so the engine sees that it matches.
          .onConflict((oc) =>
            oc
              .columns(['sequence_id', 'contact_id'])
              .where(sql<boolean>`status IN ('active', 'waiting')`)
              .doNothing(),
          )
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows) !== 1) return false;
        await scheduleStep(trx, enrolment, sequence.definition, 0);
        return true;
      });
      if (!enrolled) {
        const running = await sequenceRepository(db).running(caller.workspaceId, [contact.id]);
        throw errors.alreadyEnrolled(running.find((r) => r.row.sequence_id === sequence.id)?.row.id ?? '');
      }
      wakeScheduler();
      return (await sequenceRepository(db).record(caller.workspaceId, enrolment.id))!;
    },

    /** Contacts wrote in: enrolments that exit on a reply end; those waiting for one go on. */
    async onInbound(trx: Kysely<Database>, workspaceId: string, contactIds: string[]): Promise<void> {
      for (const { row, definition } of await sequenceRepository(trx).running(workspaceId, contactIds)) {
        if (definition.exit_on?.reply ?? true) await end(trx, row, 'exited', 'replied');
        else if (row.status === 'waiting') {
          await cancelJobs(trx, row.id);
          await advance(trx, row, definition, row.step_index + 1);
        }
      }
    },

    /** A contact got tags: enrolments that exit on one of them end. */
    onTagged: exitOnTags,
  };
}

export type SequenceService = ReturnType<typeof createSequenceService>;
