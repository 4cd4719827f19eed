import { contactRepository } from '../contacts/index.js';
import { type ReceivedMessage, type Outbound, isWindowOpen } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { csatRepository } from './csat.repository.js';
import { ratingOf, surveyMessage } from './csat.survey.js';

/** A conversation span an agent just closed: the survey is about it, and its rating counts for its agent. */
export interface ClosedSpan {
  id: string;
  agent_id: string | null;
}

/**
 * Customer satisfaction: when the workspace wants it (off by default), closing a conversation asks the
 * customer for a 1–5 rating in a WhatsApp list message; their choice is kept with the conversation and
 * its agent. A rating reply is not the customer writing in again: it reopens nothing (services.ts).
 */
export function createCsatService(deps: Deps, outbound: Outbound) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * Queues the survey for a span an agent closed, in the closing transaction: only when the workspace
   * asks, the customer's window is open (a free-form message; never a template) and they have not opted out.
   */
  async function conversationClosed(trx: Deps['db'], workspaceId: string, contactId: string, span: ClosedSpan) {
    if (!(await csatRepository(trx).enabled(workspaceId))) return;
    const contact = await contactRepository(trx).findById(workspaceId, contactId);
    if (!contact || contact.opted_out_at !== null || !isWindowOpen(contact, clock.now())) return;
    const surveyId = newId();
    const queued = await outbound.queueNow(trx, contact, surveyMessage(surveyId), { type: 'system', id: null });
    if ('refused' in queued) return;
    await csatRepository(trx).insertSurvey({
      id: surveyId,
      workspace_id: workspaceId,
      contact_id: contactId,
      span_id: span.id,
      agent_id: span.agent_id,
      message_id: queued.id,
      sent_at: now(),
    });
  }

  /** Stores the ratings among inbound messages; returns the ids of the messages that were ratings. */
  async function ratingsReceived(trx: Deps['db'], workspaceId: string, messages: ReceivedMessage[]) {
    const ratings = new Set<string>();
    for (const message of messages) {
      const answer = ratingOf(message);
      if (!answer) continue;
      const stored = await csatRepository(trx).rate(
        workspaceId,
        message.contactId,
        answer.surveyId,
        answer.rating,
        now(),
      );
      if (stored) ratings.add(message.id);
    }
    return ratings;
  }

  return {
    conversationClosed,
    ratingsReceived,

    /** Whether closing a conversation asks the customer for a rating. */
    async settings(caller: Caller): Promise<{ enabled: boolean }> {
      return { enabled: await csatRepository(db).enabled(caller.workspaceId) };
    },

    async updateSettings(caller: Caller, input: { enabled: boolean }): Promise<{ enabled: boolean }> {
      await csatRepository(db).saveEnabled(caller.workspaceId, input.enabled, now());
      return { enabled: input.enabled };
    },

    /** The contact's ratings within a stretch of their thread (bounds as the thread's notes use them). */
    async ratings(workspaceId: string, contactId: string, from: string | null, to: string | null) {
      const rows = await csatRepository(db).ratings(workspaceId, contactId, from, to);
      return rows.map((row) => ({ ...row, rated_at: formatTimestamp(row.rated_at) }));
    },
  };
}

export type CsatService = ReturnType<typeof createCsatService>;
