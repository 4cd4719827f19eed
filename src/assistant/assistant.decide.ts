import type { ChatPurpose } from '../ai-models/index.js';
import { judge, parseDecision, DECISION_SCHEMA, type Decision, type Verdict } from './assistant.decision.js';
import { failureReason, type AssistantKnowledge, type AssistantModel } from './assistant.ports.js';
import { citationsOf, customerQuestion, promptMessages } from './assistant.prompt.js';
import type { ThreadMessage } from './assistant.repository.js';
import type { AssistantSettings } from './assistant.schema.js';

/** How many chunks of knowledge the model is given. */
const CHUNKS = 6;

/** What the model decided on a conversation, held to the rules: the verdict, and what it cost. */
export interface Decided {
  verdict: Verdict;
  decision: Decision | null;
  model: string | null;
  usage: { promptTokens: number; completionTokens: number };
  modelMs: number | null;
}

export const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** What one decision is asked on: the conversation as the model reads it, and why the model is asked. */
export interface DecisionAsked {
  workspaceId: string;
  settings: AssistantSettings;
  thread: ThreadMessage[];
  customerName: string | null;
  /** `assistant` on a conversation; `eval` for `parley ai eval` (the usage ledger counts them apart). */
  purpose: ChatPurpose;
}

/**
 * The assistant's decision function, shared by its job and the evaluation harness: the knowledge searched
 * with what the customer asked, the model asked for a structured decision, the decision judged. A model
 * that fails or answers no decision is a hand-over with its reason: never an exception.
 */
export async function decide(
  neighbours: { model: AssistantModel; knowledge: AssistantKnowledge },
  asked: DecisionAsked,
): Promise<Decided> {
  const { workspaceId, settings, thread } = asked;
  const question = customerQuestion(thread);
  const chunks = question ? (await neighbours.knowledge.retrieve(workspaceId, question, { limit: CHUNKS })).chunks : [];
  const base = { decision: null, model: null, usage: NO_USAGE, modelMs: null };
  try {
    const answer = await neighbours.model.chat(workspaceId, {
      purpose: asked.purpose,
      messages: promptMessages(settings, thread, chunks, asked.customerName),
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
