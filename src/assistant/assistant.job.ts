import type { Kysely } from 'kysely';
import type { Job, JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { type AssistantActions, type TurnRecord } from './assistant.actions.js';
import { judge, parseDecision, DECISION_SCHEMA, type Decision, type Verdict } from './assistant.decision.js';
import { gate, type GateNeighbours, type Situation } from './assistant.gate.js';
import { failureReason, type AssistantKnowledge, type AssistantModel } from './assistant.ports.js';
import { citationsOf, customerQuestion, promptMessages } from './assistant.prompt.js';
import { assistantRepository } from './assistant.repository.js';

/** How many chunks of knowledge the model is given. */
const CHUNKS = 6;

/** What `prepare` hands `run`: the decision (or why a person takes over), for the customer's message it saw. */
interface Prepared {
  messageId: string;
  verdict: Verdict;
  decision: Decision | null;
  model: string | null;
  usage: { promptTokens: number; completionTokens: number };
  modelMs: number | null;
  startedAt: number;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

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

  async function ask(situation: Situation): Promise<Omit<Prepared, 'startedAt'>> {
    const { contact, settings, thread, latest } = situation;
    const question = customerQuestion(thread);
    const chunks = question
      ? (await neighbours.knowledge.retrieve(contact.workspace_id, question, { limit: CHUNKS })).chunks
      : [];
    const base = { messageId: latest.id, decision: null, model: null, usage: NO_USAGE, modelMs: null };
    try {
      const answer = await neighbours.model.chat(contact.workspace_id, {
        purpose: 'assistant',
        messages: promptMessages(settings, thread, chunks, contact.name),
        schema: DECISION_SCHEMA,
      });
      const decision = parseDecision(answer.parsed);
      const verdict: Verdict = decision
        ? judge(decision, citationsOf(chunks), settings.confidence_floor)
        : { action: 'hand_over', reason: 'invalid_decision', summary: null };
      return { ...base, verdict, decision, model: answer.model, usage: answer.usage, modelMs: answer.modelMs };
    } catch (error) {
      return { ...base, verdict: { action: 'hand_over', reason: failureReason(error), summary: null } };
    }
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
