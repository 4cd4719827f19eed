import type { Kysely } from 'kysely';
import { textContent } from '../content/message-content.js';
import { contactRepository, type ContactRow, type Tagging } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import type { InboxService } from '../inbox/index.js';
import { isRefusal, type Outbound } from '../messages/index.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { Decision, Verdict } from './assistant.decision.js';
import type { Situation } from './assistant.gate.js';
import { unansweredTexts } from './assistant.prompt.js';
import { assistantRepository, type TurnRow } from './assistant.repository.js';
import type { HandoverReason } from './assistant.schema.js';

type Db = Kysely<Database>;

/** Every message the assistant sends says so: the thread and the API show `sender.type` `ai`. */
const AI_SENDER = { type: 'ai', id: null } as const;

/** What a turn cost and decided, beside its verdict: kept on its record for the reports. */
export interface TurnRecord {
  id: string;
  decision: Decision | null;
  model: string | null;
  usage: { promptTokens: number; completionTokens: number };
  modelMs: number | null;
  /** Milliseconds since the job began working on the message (the model's time included). */
  totalMs: () => number;
  at: string;
}

/** Why the assistant handed over, in the note the person taking over reads (the model's own words aside). */
const WHY: Record<HandoverReason, string> = {
  model_decided: 'it could not help with this',
  stop_word: 'the customer asked for a person',
  opt_out: 'the customer sent an opt-out keyword',
  reply_limit: 'it reached its reply limit for this conversation',
  low_confidence: 'it was not sure enough of its answer',
  unsupported_claim: 'its answer stated a price, amount, percentage, date or time its knowledge does not',
  unknown_citation: 'its answer cited knowledge it was not given',
  invalid_decision: 'the AI model gave no usable answer',
  not_configured: 'no AI model is configured for the workspace',
  model_error: 'the AI model failed',
  timeout: 'the AI model did not answer in time',
  rate_limited: 'the AI model refused more requests for now (rate limited)',
  budget_exhausted: 'the workspace’s monthly AI token budget is used up',
  assistant_off: 'a flow handed it the conversation while it is switched off',
  window_closed: 'the customer’s 24-hour window had closed',
};

/** The hand-over note: why, then the model's summary for the person, else what the customer last wrote. */
function noteBody(situation: Situation, reason: HandoverReason, summary: string | null, decision: Decision | null) {
  const why = (reason === 'model_decided' && decision?.hand_over?.reason.trim()) || WHY[reason];
  const last = unansweredTexts(situation.thread).join('\n');
  const detail = summary ?? (last && `The customer wrote: “${last}”`);
  return detail ? `Handed over to a person: ${why}.\n\n${detail}` : `Handed over to a person: ${why}.`;
}

/**
 * What the assistant does with a checked decision, in the job's transaction: a reply through the one
 * outbound path (signed `ai`), the tags and attributes it sets, a close; or a hand-over — "Needs a
 * person" (contacts.handoff_at, as a flow's handoff node does), the summary as a private note, the
 * customer told once per conversation.
 */
export function createAssistantActions(
  deps: Pick<Deps, 'clock'>,
  neighbours: { outbound: Outbound; tagging: Tagging; inbox: InboxService['assistant'] },
) {
  const { outbound, tagging, inbox } = neighbours;
  const now = () => toStoredTimestamp(deps.clock.now());

  async function handOver(
    trx: Db,
    situation: Situation,
    reason: HandoverReason,
    summary: string | null,
    record: TurnRecord,
  ) {
    const { contact, settings } = situation;
    await contactRepository(trx).update(contact.workspace_id, contact.id, { handoff_at: now(), updated_at: now() });
    await inbox.addNote(
      trx,
      contact.workspace_id,
      contact.id,
      settings.name,
      noteBody(situation, reason, summary, record.decision),
    );
    // Told once per conversation; not after an opt-out keyword (they asked to hear less).
    let notice: string | null = null;
    if (!situation.told && reason !== 'opt_out') {
      const queued = await outbound.queueNow(trx, contact, textContent(settings.handover_message), AI_SENDER);
      notice = isRefusal(queued) ? null : queued.id;
    }
    await assistantRepository(trx).finish(record.id, {
      action: 'hand_over',
      reason,
      notice_message_id: notice,
      total_ms: record.totalMs(),
    });
  }

  async function setAttributes(trx: Db, contact: ContactRow, attributes: { name: string; value: string }[]) {
    if (attributes.length === 0) return;
    const current = JSON.parse(contact.custom_attributes) as Record<string, unknown>;
    const custom_attributes = JSON.stringify({
      ...current,
      ...Object.fromEntries(attributes.map((a) => [a.name, a.value])),
    });
    await contactRepository(trx).update(contact.workspace_id, contact.id, { custom_attributes, updated_at: now() });
  }

  async function act(
    trx: Db,
    situation: Situation,
    verdict: Extract<Verdict, { action: 'reply' | 'close' }>,
    record: TurnRecord,
  ) {
    const { contact } = situation;
    let sent: string | null = null;
    if (verdict.text !== null) {
      const queued = await outbound.queueNow(trx, contact, textContent(verdict.text), AI_SENDER);
      if (isRefusal(queued)) return handOver(trx, situation, 'window_closed', null, record);
      sent = queued.id;
    }
    const tags = verdict.tags.length > 0 ? [{ contactId: contact.id, names: verdict.tags }] : [];
    await tagging.addTags(trx, contact.workspace_id, tags);
    await setAttributes(trx, contact, verdict.attributes);
    if (verdict.action === 'close') await inbox.close(trx, contact.workspace_id, contact.id);
    await assistantRepository(trx).finish(record.id, { reply_message_id: sent, total_ms: record.totalMs() });
  }

  return {
    /** The turn's record as claimed before it acts (its outcome and messages are filled in as it ends). */
    turnRow(situation: Situation, verdict: Verdict, record: TurnRecord): TurnRow {
      const acted = verdict.action === 'hand_over' ? null : verdict;
      return {
        id: record.id,
        workspace_id: situation.contact.workspace_id,
        contact_id: situation.contact.id,
        span_id: situation.span.id,
        message_id: situation.latest.id,
        action: verdict.action,
        reason: verdict.action === 'hand_over' ? verdict.reason : null,
        reply_message_id: null,
        notice_message_id: null,
        confidence: record.decision?.confidence ?? null,
        citations: JSON.stringify(acted?.citations ?? []),
        summary: verdict.action === 'hand_over' ? verdict.summary : null,
        tags: JSON.stringify(acted?.tags ?? []),
        attributes: JSON.stringify(acted?.attributes ?? []),
        decision: record.decision && JSON.stringify(record.decision),
        model: record.model,
        prompt_tokens: record.usage.promptTokens,
        completion_tokens: record.usage.completionTokens,
        model_ms: record.modelMs === null ? null : Math.round(record.modelMs),
        total_ms: record.totalMs(),
        created_at: record.at,
      };
    },

    /** Acts on the verdict for the situation's conversation, in the caller's transaction. */
    apply(trx: Db, situation: Situation, verdict: Verdict, record: TurnRecord): Promise<void> {
      return verdict.action === 'hand_over'
        ? handOver(trx, situation, verdict.reason, verdict.summary, record)
        : act(trx, situation, verdict, record);
    },

    /** Tells open dashboards the conversations changed (after the commit). */
    announce: inbox.announce,
  };
}

export type AssistantActions = ReturnType<typeof createAssistantActions>;
