import type { ChannelService } from '../channels/channel.service.js';
import { parseName, parsePhone } from '../contacts/contact.input.js';
import { contactRepository, newContactRow, type ContactRow } from '../contacts/contact.repository.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors, validOrNull } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import { TEXT_MAX_LENGTH, type Message } from './message.schema.js';
import type { MessageEvents } from './message.service.js';

/** An inbound message as the webhook parser hands it over. */
export interface InboundMessage {
  from: string;
  profileName: string | null;
  wamid: string;
  timestamp: Date;
  type: string;
  content: Record<string, unknown>;
}

/** An inbound message as the automation engines see it, in the transaction that stored it. */
export interface ReceivedMessage {
  id: string;
  contactId: string;
  /** The sender's row as the storing transaction left it (window open). */
  contact: ContactRow;
  type: string;
  content: Record<string, unknown>;
}

/**
 * Hears of stored inbound messages (a reply ends or advances a sequence, answers a flow), in their
 * transaction; what it queues there is noted (queued-work.ts) and woken after the commit.
 */
export interface InboundListener {
  received(trx: Deps['db'], workspaceId: string, messages: ReceivedMessage[]): Promise<void>;
}

/** What became of an inbound message: stored, already stored (a retried delivery), or refused. */
export type ReceiveOutcome = 'stored' | 'duplicate' | 'rejected';

interface Entry {
  inbound: InboundMessage;
  id: string;
}

/** Receiving messages: from webhooks (receiveAll) and from the simulator (simulateInbound). */
export function createInboundService(
  deps: Deps,
  channels: ChannelService,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
  inboundListener: () => InboundListener,
  events: MessageEvents,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * Stores inbound messages (senders' phones already in E.164) in one transaction, with their senders'
   * windows and what the automation engines do about them; returns the ids it stored (not duplicates).
   */
  async function receive(caller: Caller, inbounds: Entry[]): Promise<Set<string>> {
    if (inbounds.length === 0) return new Set();
    const [stored, queued] = await db.transaction().execute(async (trx) => {
      const senders = await openSendersWindows(trx, deps, caller.workspaceId, inbounds);
      const entries = inbounds.map((entry) => ({ ...entry, sender: senders.get(entry.inbound.from)! }));
      const ids = await messageRepository(trx).insertInbound(entries.map((entry) => inboundRow(caller, entry, now())));
      const fresh = entries.filter((entry) => ids.has(entry.id));
      await inboundListener().received(trx, caller.workspaceId, fresh.map(received));
      return [fresh, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    events.publish(
      caller.workspaceId,
      stored.map((entry) => ({ type: 'message', contact_id: entry.sender.id, message_id: entry.id })),
    );
    return new Set(stored.map((entry) => entry.id));
  }

  return {
    /**
     * Stores inbound messages from webhooks in one transaction: each once (Meta retries deliveries;
     * the wamid decides), unknown senders created with their profile name, each sender's 24-hour
     * window opened. A sender number that is not a phone number is rejected. One outcome per message.
     */
    async receiveAll(caller: Caller, inbounds: InboundMessage[]): Promise<ReceiveOutcome[]> {
      const accepted = inbounds.map((inbound) => {
        const phone = validOrNull(() => parsePhone(inbound.from)); // not a phone number: refused
        return phone === null ? null : { inbound: { ...inbound, from: phone }, id: newId() };
      });
      const inserted = await receive(
        caller,
        accepted.filter((entry) => entry !== null),
      );
      return accepted.map((entry) => (!entry ? 'rejected' : inserted.has(entry.id) ? 'stored' : 'duplicate'));
    },

    /** The simulator's stand-in for a customer writing in (CLI, API): stored like a webhook's message. */
    async simulateInbound(caller: Caller, input: { from: string; text: string }): Promise<Message> {
      if ((await channels.get(caller)).provider !== 'simulator') {
        throw errors.conflict('This workspace sends through WhatsApp Cloud; inbound messages come from Meta');
      }
      if (!input.text.trim() || input.text.length > TEXT_MAX_LENGTH) {
        throw errors.validation('text', `must be 1 to ${TEXT_MAX_LENGTH} characters`);
      }
      const inbound = {
        from: parsePhone(input.from, 'from'),
        profileName: null,
        wamid: `wamid.SIMULATED.${newId()}`,
        timestamp: clock.now(),
        type: 'text',
        content: { body: input.text },
      };
      const id = newId();
      await receive(caller, [{ inbound, id }]);
      return presentMessage((await messageRepository(db).findById(caller.workspaceId, id))!);
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;

function received(entry: Entry & { sender: ContactRow }): ReceivedMessage {
  return {
    id: entry.id,
    contactId: entry.sender.id,
    contact: entry.sender,
    type: entry.inbound.type,
    content: entry.inbound.content,
  };
}

/**
 * Opens each sender's window at their newest message and returns the senders' rows by phone. A
 * phone that is no contact's yet becomes one (named by its WhatsApp profile). The window moves for
 * duplicates too: their original already moved it at least as far, so that changes nothing.
 */
async function openSendersWindows(
  trx: Deps['db'],
  { dialect, newId, clock }: Pick<Deps, 'dialect' | 'newId' | 'clock'>,
  workspaceId: string,
  inbounds: Entry[],
): Promise<Map<string, ContactRow>> {
  const newest = new Map<string, string>();
  for (const { inbound } of inbounds) {
    const sent = toStoredTimestamp(inbound.timestamp);
    const known = newest.get(inbound.from);
    if (known === undefined || known < sent) newest.set(inbound.from, sent);
  }
  const contacts = contactRepository(trx);
  const senders = new Map((await contacts.openWindows(dialect, workspaceId, newest)).map((row) => [row.phone, row]));
  const unknown = new Map([...newest].filter(([phone]) => !senders.has(phone)));
  if (unknown.size > 0) {
    const names = new Map(inbounds.map(({ inbound }) => [inbound.from, inbound.profileName]));
    await contacts.insertAllIfAbsent(
      [...unknown.keys()].map((phone) =>
        newContactRow({
          id: newId(),
          workspaceId,
          phone,
          name: parseName(names.get(phone) ?? ''),
          email: null,
          customAttributes: '{}',
          at: toStoredTimestamp(clock.now()),
        }),
      ),
    );
    for (const row of await contacts.openWindows(dialect, workspaceId, unknown)) senders.set(row.phone, row);
  }
  return senders;
}

function inboundRow(caller: Caller, entry: Entry & { sender: ContactRow }, now: string) {
  const { inbound, sender, id } = entry;
  return {
    sender,
    message: {
      id,
      workspace_id: caller.workspaceId,
      contact_id: sender.id,
      type: inbound.type,
      content: JSON.stringify(inbound.content),
      status: 'received',
      provider_message_id: inbound.wamid,
      error: null,
      next_attempt_at: null,
      created_at: toStoredTimestamp(inbound.timestamp),
      updated_at: now,
    },
  };
}
