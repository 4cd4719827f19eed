import { sql, type Kysely } from 'kysely';
import { cancelJobs } from '../automation/scheduler.js';
import { countByState } from '../automation/state-counts.js';
import type { ContactService, TagLink, Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { emitWebhookEvents } from '../outgoing/index.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors, type FieldError } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { checkHeaderMedia, type FlowSendProblem, type WhatsappFlowMessages } from '../messages/index.js';
import { templateRepository } from '../templates/index.js';
import { triggerRepository, type SequenceRecord } from '../triggers/index.js';
import { sequenceRepository, type EnrolmentRow } from './sequence.repository.js';
import {
  ENROLMENT_STATES,
  type SaveSequenceInput,
  type Sequence,
  type SequenceDefinition,
  type TriggerSequenceInput,
} from './sequence.schema.js';
import { createStepRunner, EnrolmentChanges, exitOnTags, timeZoneFor, type FlowStarter } from './sequence.steps.js';
import { sequenceProblems } from './sequence.problems.js';

/**
 * Drip sequences. An enrolment runs its steps through the durable scheduler: each step is a job
 * whose effects (the message it queues, the tag it adds, the next step's job) commit with it
 * (sequence.steps.ts runs them).
 */
export function createSequenceService(
  deps: Deps,
  contacts: ContactService,
  tagging: Tagging,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
  startFlow: () => FlowStarter,
  whatsappFlows: WhatsappFlowMessages,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Templates, flows and WhatsApp Flows a definition names must belong to the workspace (a Flow, be sendable). */
  async function referenceProblems(trx: Kysely<Database>, workspaceId: string, steps: SaveSequenceInput['steps']) {
    const problems: FieldError[] = [];
    for (const [i, { action }] of steps.entries()) {
      if (action.type === 'send_template') {
        const template = await templateRepository(trx).findById(workspaceId, action.template_id.toLowerCase());
        if (!template) {
          problems.push(sequenceProblems.problem(`/steps/${i}/action/template_id`, 'unknown_template'));
        } else {
          const translations = await templateRepository(trx).translations([template.id]);
          checkHeaderMedia(translations, action, `/steps/${i}/action/header_media_url`);
        }
      }
      if (action.type === 'start_flow') {
        const flow = await trx
          .selectFrom('flows')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', action.flow_id.toLowerCase())
          .executeTakeFirst();
        if (!flow) problems.push(sequenceProblems.problem(`/steps/${i}/action/flow_id`, 'unknown_flow'));
      }
      if (action.type === 'send_whatsapp_flow') {
        const found = await whatsappFlows.problem(trx, workspaceId, action);
        if (found) problems.push(whatsappFlowProblem(found, `/steps/${i}/action`));
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
    handler: createStepRunner(deps, tagging, startFlow, whatsappFlows),

    /** Creates a sequence, or replaces the definition of the one `id` names. Names are unique per workspace. */
    async save(caller: Caller, input: SaveSequenceInput): Promise<Sequence> {
      const { id: givenId, name, ...definition } = input;
      const id = await db.transaction().execute(async (trx) => {
        const problems = await referenceProblems(trx, caller.workspaceId, definition.steps);
        if (problems.length > 0) throw errors.invalid(...problems);
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
      const sequence = await sequences.find(caller.workspaceId, input.sequence_id);
      if (!sequence) throw errors.notFound('sequence', 'sequence_id');
      const enrolments = await countByState(db, ENROLMENT_STATES, {
        table: 'sequence_enrolments',
        sequenceId: sequence.id,
      });
      return present(sequence, sequence.definition, enrolments);
    },

    /** trigger-sequence: enrols the contact (once at a time) and schedules the first step. */
    async trigger(caller: Caller, input: TriggerSequenceInput): Promise<SequenceRecord> {
      const sequence = await sequenceRepository(db).find(caller.workspaceId, input.sequence_id);
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
      const [enrolled, queued] = await db.transaction().execute(async (trx) => {
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
        if (Number(inserted.numInsertedOrUpdatedRows) !== 1) return [false, queuedIn(trx)] as const;
        const changes = new EnrolmentChanges(deps);
        changes.advance(
          enrolment,
          sequence.definition,
          0,
          await timeZoneFor(trx, caller.workspaceId, [sequence.definition]),
        );
        await changes.write(trx);
        await emitWebhookEvents(trx, deps, 'new-sequence-triggered', [
          { workspaceId: caller.workspaceId, id: enrolment.id },
        ]);
        return [true, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      if (!enrolled) {
        const running = await sequenceRepository(db).running(caller.workspaceId, [contact.id]);
        throw errors.alreadyEnrolled(running.find((r) => r.row.sequence_id === sequence.id)?.row.id ?? '');
      }
      return (await triggerRepository(db).sequenceEnrolment(caller.workspaceId, enrolment.id))!;
    },

    /** stop-sequence-enrolment: an agent takes the contact out of a sequence that is still running. */
    async stop(caller: Caller, input: { enrolment_id: string }): Promise<SequenceRecord> {
      const id = input.enrolment_id.toLowerCase();
      await db.transaction().execute(async (trx) => {
        const stopped = await trx
          .updateTable('sequence_enrolments')
          .set({ status: 'exited', ended_reason: 'stopped', updated_at: now() })
          .where('workspace_id', '=', caller.workspaceId)
          .where('id', '=', id)
          .where('status', 'in', ['active', 'waiting'])
          .executeTakeFirst();
        if (Number(stopped.numUpdatedRows) > 0) return cancelJobs(trx, id);
        const [enrolment] = await sequenceRepository(trx).enrolments(caller.workspaceId, [id]);
        if (!enrolment) throw errors.notFound('sequence enrolment', 'enrolment_id');
        throw errors.conflict(`The enrolment has already ended (${enrolment.status})`, {
          enrolment_status: enrolment.status,
        });
      });
      return (await triggerRepository(db).sequenceEnrolment(caller.workspaceId, id))!;
    },

    /** Contacts wrote in: enrolments that exit on a reply end; those waiting for one go on. */
    async onInbound(trx: Kysely<Database>, workspaceId: string, contactIds: string[]): Promise<void> {
      const running = await sequenceRepository(trx).running(workspaceId, contactIds);
      if (running.length === 0) return;
      const timeZone = await timeZoneFor(
        trx,
        workspaceId,
        running.map((r) => r.definition),
      );
      const changes = new EnrolmentChanges(deps);
      for (const { row, definition } of running) {
        if (definition.exit_on?.reply ?? true) changes.end(row, 'exited', 'replied');
        else if (row.status === 'waiting') {
          changes.cancelJobs(row.id); // the wait's timeout
          changes.advance(row, definition, row.step_index + 1, timeZone);
        }
      }
      await changes.write(trx);
    },

    /** A contact got tags: enrolments that exit on one of them end. */
    async onTagged(trx: Kysely<Database>, workspaceId: string, links: TagLink[]): Promise<void> {
      const running = await sequenceRepository(trx).running(workspaceId, [...new Set(links.map((l) => l.contactId))]);
      const changes = new EnrolmentChanges(deps);
      for (const { contactId, names } of links) {
        exitOnTags(
          changes,
          running.filter((enrolment) => enrolment.row.contact_id === contactId),
          names,
        );
      }
      await changes.write(trx);
    },
  };
}

export type SequenceService = ReturnType<typeof createSequenceService>;

/** Why a step's WhatsApp Flow cannot be sent, at the step's field it is about. */
function whatsappFlowProblem(found: FlowSendProblem, at: string): FieldError {
  switch (found.problem) {
    case 'whatsapp_flow_not_published':
      return sequenceProblems.problem(`${at}/whatsapp_flow_id`, found.problem, { status: found.status });
    case 'unknown_whatsapp_flow':
      return sequenceProblems.problem(`${at}/whatsapp_flow_id`, found.problem);
    case 'whatsapp_flow_screen_unknown':
      return sequenceProblems.problem(`${at}/screen`, found.problem);
  }
}
