import type { Kysely } from 'kysely';
import { textContent } from '../content/message-content.js';
import { scheduleJobOnce } from '../automation/scheduler.js';
import { contactRepository, type ContactRow, type Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import type { InboxService } from '../inbox/index.js';
import type { Outbound, ReceivedMessage } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { createAssistantActions } from './assistant.actions.js';
import { decide, NO_USAGE, type Decided } from './assistant.decide.js';
import { stopWordIn } from './assistant.guards.js';
import type { GateNeighbours } from './assistant.gate.js';
import { createAssistantJob } from './assistant.job.js';
import type { AssistantKnowledge, AssistantModel } from './assistant.ports.js';
import { assistantProblems } from './assistant.problems.js';
import { assistantRepository, type ThreadMessage } from './assistant.repository.js';
import type { AssistantSettings, AssistantTurn, HandoverReason } from './assistant.schema.js';

type Db = Kysely<Database>;

/** What the assistant uses of the rest of Parley, wired in services.ts (some beside it, some above its layer's reach). */
export interface AssistantNeighbours extends GateNeighbours {
  model: AssistantModel;
  knowledge: AssistantKnowledge;
  outbound: Outbound;
  tagging: Tagging;
  inbox: InboxService['assistant'];
}

const TURNS_PAGE = 50;

/**
 * The AI assistant on conversations: its settings, the customers' messages it takes (reception tells it,
 * after the flows), a flow's ai_assistant node handing it a conversation, and the record of its turns.
 * It never calls the model in the transaction that stores a message: it schedules one job per
 * conversation (assistant.job.ts), which does.
 */
export function createAssistantService(deps: Deps, neighbours: AssistantNeighbours) {
  const { db, clock } = deps;
  const now = () => toStoredTimestamp(clock.now());
  const actions = createAssistantActions(deps, neighbours);

  /** Queues the conversation's job (one waiting per conversation: a burst of messages makes one turn). */
  const answerSoon = (trx: Db, workspaceId: string, contactId: string) =>
    scheduleJobOnce(trx, deps, { workspaceId, kind: 'assistant_reply', subjectId: contactId, dueAt: clock.now() });

  /** Refuses settings naming another workspace's numbers or teams, or blank words for people. */
  async function checkSettings(workspaceId: string, input: AssistantSettings): Promise<void> {
    const repository = assistantRepository(db);
    const channels = await repository.knownChannels(workspaceId, input.channel_ids);
    if (input.channel_ids.some((id) => !channels.has(id))) {
      throw errors.invalid(assistantProblems.problem('channel_ids', 'unknown_channel'));
    }
    const teams = await repository.knownTeams(workspaceId, input.team_ids);
    if (input.team_ids.some((id) => !teams.has(id)))
      throw errors.invalid(assistantProblems.problem('team_ids', 'unknown_team'));
    for (const field of ['name', 'handover_message'] as const) {
      if (!input[field].trim()) throw errors.invalid(assistantProblems.problem(field, 'blank'));
    }
    const blankWord = input.stop_words.findIndex((word) => !word.trim());
    if (blankWord >= 0) throw errors.invalid(assistantProblems.problem(`stop_words/${blankWord}`, 'blank'));
  }

  return {
    /** The scheduler's `assistant_reply` jobs. */
    handler: createAssistantJob(deps, { ...neighbours, actions }),

    /** The settings (the defaults, switched off, until saved). */
    settings: (caller: Caller): Promise<AssistantSettings> => assistantRepository(db).settings(caller.workspaceId),

    /** Replaces the settings whole. */
    async updateSettings(caller: Caller, input: AssistantSettings): Promise<AssistantSettings> {
      await checkSettings(caller.workspaceId, input);
      const settings = { ...input, name: input.name.trim(), stop_words: input.stop_words.map((word) => word.trim()) };
      await assistantRepository(db).saveSettings(caller.workspaceId, settings, now());
      return settings;
    },

    /** A conversation's turns, newest first; an unknown contact (or another workspace's) is a 404. */
    async turns(caller: Caller, contactId: string, limit = TURNS_PAGE): Promise<{ turns: AssistantTurn[] }> {
      const contact = await contactRepository(db).findById(caller.workspaceId, contactId);
      if (!contact) throw errors.notFound('contact', 'contact_id');
      return { turns: await assistantRepository(db).turns(caller.workspaceId, contactId, limit) };
    },

    /**
     * What the assistant would answer a customer asking `question`, with the saved settings (switched on
     * or not), the workspace's knowledge and model, sending nothing and recording no turn: one question of
     * `parley ai eval`. An opt-out keyword or a stop word hands over without the model, as on a conversation.
     */
    async trial(caller: Caller, question: string): Promise<Decided> {
      const { workspaceId } = caller;
      const settings = await assistantRepository(db).settings(workspaceId);
      const handOver = (reason: HandoverReason): Decided => ({
        verdict: { action: 'hand_over', reason, summary: null },
        decision: null,
        model: null,
        usage: NO_USAGE,
        modelMs: null,
      });
      if (await neighbours.isStopKeyword(db, workspaceId, question)) return handOver('opt_out');
      if (stopWordIn(question, settings.stop_words)) return handOver('stop_word');
      const asked: ThreadMessage = {
        id: 'question',
        direction: 'inbound',
        type: 'text',
        content: JSON.stringify(textContent(question).content),
        sender_type: null,
        channel_id: null,
        created_at: now(),
      };
      return decide(neighbours, { workspaceId, settings, thread: [asked], customerName: null, purpose: 'eval' });
    },

    /**
     * Customers' messages the flows did not take, in the transaction that stores them: each conversation
     * the assistant may answer gets its job. Nothing is read beyond the settings while it is off.
     */
    async onInbound(trx: Db, workspaceId: string, messages: ReceivedMessage[]): Promise<void> {
      if (messages.length === 0 || !(await assistantRepository(trx).settings(workspaceId)).enabled) return;
      const contactIds = [...new Set(messages.map((message) => message.contactId))];
      const held = await neighbours.holding(trx, workspaceId, contactIds);
      for (const contactId of contactIds) if (!held.has(contactId)) await answerSoon(trx, workspaceId, contactId);
    },

    /** A flow's ai_assistant node: the assistant has the conversation until it is next closed, and answers now. */
    async takeOver(trx: Db, workspaceId: string, contact: ContactRow, flowId: string): Promise<void> {
      await assistantRepository(trx).engage(workspaceId, contact.id, flowId, now());
      await answerSoon(trx, workspaceId, contact.id);
    },
  };
}

export type AssistantService = ReturnType<typeof createAssistantService>;
