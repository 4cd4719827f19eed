import type { Kysely } from 'kysely';
import type { Job, JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { type AssistantActions, type TurnRecord } from './assistant.actions.js';
import type { Verdict } from './assistant.decision.js';
import { decide, NO_USAGE, type Decided } from './assistant.decide.js';
import { gate, type GateNeighbours, type Situation } from './assistant.gate.js';
import type { AssistantKnowledge, AssistantModel } from './assistant.ports.js';
import { assistantRepository } from './assistant.repository.js';

/** What `prepare` hands `run`: the decision (or why a person takes over), for the customer's message it saw. */
interface Prepared extends Decided {
  messageId: string;
  startedAt: number;
}

/**
 * The `assistant_reply` job: one per conversation with a customer's message to answer. `prepare`, outside
 * any transaction, runs the guards, finds the knowledge and asks the model; `run`, in the transaction that
 * deletes the job, runs the guards again (a person may have replied or taken the conversation meanwhile:
 * then nothing happens) and acts on the decision. A failure in `prepare` reaches `run` as a hand-over, so
 * no customer is left waiting. A turn is recorded once per customer message (a unique key), so a reply is
 * sent once however many processes run the job.
 */
export function createAssistantJob(
  deps: Deps,
  neighbours: GateNeighbours & { model: AssistantModel; knowledge: AssistantKnowledge; actions: AssistantActions },
): JobHandler {
  const { db, clock } = deps;

  /** The decision on the situation's conversation, for the customer's latest message. */
  async function ask(situation: Situation): Promise<Omit<Prepared, 'startedAt'>> {
    const { contact, settings, thread, latest } = situation;
    const asked = { workspaceId: contact.workspace_id, settings, thread, customerName: contact.name };
    return { messageId: latest.id, ...(await decide(neighbours, { ...asked, purpose: 'assistant' })) };
  }

  return {
    async prepare(job: Job): Promise<Prepared | null> {
      const startedAt = performance.now();
      const found = await gate(db, neighbours, job.workspace_id, job.subject_id, clock.now());
      if (found.go === 'skip') return null;
      if (found.go === 'hand_over') {
        const verdict = { action: 'hand_over', reason: found.reason, summary: null } as const;
        return {
          messageId: found.situation.latest.id,
          verdict,
          decision: null,
          model: null,
          usage: NO_USAGE,
          modelMs: null,
          startedAt,
        };
      }
      return { ...(await ask(found.situation)), startedAt };
    },

    async run(trx: Kysely<Database>, job: Job, prepared: unknown): Promise<void> {
      const runStarted = performance.now();
      const found = await gate(trx, neighbours, job.workspace_id, job.subject_id, clock.now());
      if (found.go === 'skip') return;
      // `prepare` threw (the knowledge or the database failed): a person takes over rather than nobody.
      const failed = prepared !== null && typeof prepared === 'object' && 'error' in prepared;
      const ready = failed ? null : (prepared as Prepared | null);
      // Prepared for an earlier message: the customer wrote again since, and that message's job answers both.
      if (!failed && (!ready || ready.messageId !== found.situation.latest.id)) return;
      const verdict: Verdict =
        found.go === 'hand_over'
          ? { action: 'hand_over', reason: found.reason, summary: null }
          : (ready?.verdict ?? { action: 'hand_over', reason: 'model_error', summary: null });
      const record: TurnRecord = {
        id: deps.newId(),
        decision: ready?.decision ?? null,
        model: ready?.model ?? null,
        usage: ready?.usage ?? NO_USAGE,
        modelMs: ready?.modelMs ?? null,
        totalMs: () => Math.round(performance.now() - (ready?.startedAt ?? runStarted)),
        at: toStoredTimestamp(clock.now()),
      };
      if (!(await assistantRepository(trx).claimTurn(neighbours.actions.turnRow(found.situation, verdict, record))))
        return;
      await neighbours.actions.apply(trx, found.situation, verdict, record);
    },

    /** Open threads show the assistant's turn as soon as it commits. */
    async committed(jobs: Job[]): Promise<void> {
      for (const job of jobs) await neighbours.actions.announce(job.workspace_id, [job.subject_id]);
    },
  };
}
