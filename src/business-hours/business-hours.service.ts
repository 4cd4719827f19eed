import { contactRepository } from '../contacts/index.js';
import { type InboundListener, type ReceivedMessage, type Outbound, isRefusal } from '../messages/index.js';
import { textContent } from '../content/message-content.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { businessHoursProblems } from './business-hours.problems.js';
import { businessHoursRepository, defaultBusinessHours } from './business-hours.repository.js';
import { checkBusinessHours, isOpen, type BusinessHours } from './business-hours.rules.js';
import type { UpdateBusinessHoursInput } from './business-hours.schema.js';

/**
 * Business hours per workspace, and the away reply: a customer who writes while the business is
 * closed is told so once per conversation opening, as a service reply from Parley itself.
 */
export function createBusinessHoursService(deps: Deps, outbound: Outbound) {
  const { db, clock } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** The saved hours (else the defaults, switched off), and whether the business is open now. */
  async function hoursOf(workspaceId: string, within = db): Promise<BusinessHours & { open_now: boolean }> {
    const repository = businessHoursRepository(within);
    const hours =
      (await repository.find(workspaceId)) ?? defaultBusinessHours(await repository.workspaceTimeZone(workspaceId));
    return { ...hours, open_now: isOpen(hours, clock.now()) };
  }

  /**
   * Queues the away reply for one contact's open conversation, if no process has yet. Not to a
   * contact who opted out (they asked to hear less from the business, and their message is no question).
   */
  async function replyOnce(trx: Deps['db'], workspaceId: string, contactId: string, spanId: string, body: string) {
    const contact = await contactRepository(trx).findById(workspaceId, contactId);
    if (!contact || contact.opted_out_at !== null) return;
    const repository = businessHoursRepository(trx);
    if (
      !(await repository.claim({ span_id: spanId, workspace_id: workspaceId, contact_id: contactId, sent_at: now() }))
    )
      return;
    const queued = await outbound.queueNow(trx, contact, textContent(body), { type: 'system', id: null });
    if (!isRefusal(queued)) await repository.noteMessage(spanId, queued.id);
  }

  const listener: InboundListener = {
    /** After the conversation spans are opened (services.ts): the span is what "once" counts. */
    async received(trx, workspaceId, messages: ReceivedMessage[]) {
      if (messages.length === 0) return;
      const hours = await businessHoursRepository(trx).find(workspaceId);
      if (!hours?.enabled || isOpen(hours, clock.now())) return;
      const contactIds = [...new Set(messages.map((message) => message.contactId))];
      const spans = await businessHoursRepository(trx).openSpans(workspaceId, contactIds);
      for (const [contactId, spanId] of spans) {
        await replyOnce(trx, workspaceId, contactId, spanId, hours.away_message);
      }
    },
  };

  return {
    /** Hook into the inbound path (services.ts), after conversation spans are opened. */
    listener,

    /** The workspace's hours (the defaults, switched off, until saved). */
    get: (caller: Caller) => hoursOf(caller.workspaceId),

    /**
     * Whether the hours (saved, else the defaults) say the business is open now, whether or not the away
     * reply is on; read in the caller's transaction when given one.
     */
    isOpenNow: async (within: Deps['db'], workspaceId: string) => (await hoursOf(workspaceId, within)).open_now,

    /** Replaces the workspace's hours and away reply. */
    async update(caller: Caller, input: UpdateBusinessHoursInput) {
      checkBusinessHours(input);
      if (input.enabled && !input.away_message.trim()) {
        throw errors.invalid(businessHoursProblems.problem('away_message', 'away_message_empty'));
      }
      await businessHoursRepository(db).save(caller.workspaceId, input, now());
      return hoursOf(caller.workspaceId);
    },
  };
}

export type BusinessHoursService = ReturnType<typeof createBusinessHoursService>;
