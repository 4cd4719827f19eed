import type { ChannelService } from '../channels/index.js';
import { parsePhone, type ContactRow } from '../contacts/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { InboundMessage } from './inbound-message.js';
import { storeAll, type SenderEntry } from './inbound-store.js';
import { queueDownloads } from './media-download.js';
import { carriesMedia } from './media-ref.js';
import {
  openSendersWindows,
  recordSenderIdentities,
  senderAddresses,
  type AddressedInbound,
} from './inbound-senders.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import type { Message } from './message.schema.js';
import { simulatedContent, type SimulatedMessage } from './simulated-inbound.js';
import type { MessageEvents } from './message.service.js';

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

/** What became of an inbound message: stored (or applied), already stored (a retried delivery), or refused. */
export type ReceiveOutcome = 'stored' | 'duplicate' | 'rejected';

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

  /**
   * Stores inbound messages in one transaction, with their senders, their senders' windows, what
   * they amend or react to, and what the automation engines do about them. One outcome and id per message.
   */
  async function receive(
    caller: Caller,
    inbounds: InboundMessage[],
  ): Promise<{ outcome: ReceiveOutcome; id: string }[]> {
    const workspaceId = caller.workspaceId;
    const at = toStoredTimestamp(clock.now());
    const [outcomes, changed, queued] = await db.transaction().execute(async (trx) => {
      const addresses = await senderAddresses(trx, workspaceId, inbounds);
      const entries = inbounds.map((inbound, i) => ({ inbound, address: addresses[i] ?? null, id: newId() }));
      const addressed = entries.filter((entry): entry is Entry => entry.address !== null);
      const senders = await openSendersWindows(trx, deps, workspaceId, addressed);
      const withSenders = addressed.map((entry) => ({ ...entry, sender: senders.get(entry.address.phone)! }));
      await recordSenderIdentities(trx, workspaceId, withSenders);
      const { stored, results } = await storeAll(trx, workspaceId, withSenders, at);
      await queueMediaDownloads(trx, deps, workspaceId, stored);
      await inboundListener().received(trx, workspaceId, stored.map(received));
      const outcomes = entries.map(({ id }) => results.get(id) ?? { outcome: 'rejected' as const, id });
      return [outcomes, results, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    await events.publish(
      workspaceId,
      [...changed.values()]
        .filter((result) => result.outcome === 'stored')
        .map((result) => ({
          type: 'message',
          contact_id: result.contactId,
          message_id: result.id,
          direction: 'inbound',
        })),
    );
    return outcomes;
  }

  return {
    /**
     * Stores inbound messages from webhooks in one transaction: each once (Meta retries deliveries;
     * the wamid decides), unknown senders created with their profile name, each sender's 24-hour
     * window opened; edits and revocations applied to the message they change. One outcome per message.
     */
    async receiveAll(caller: Caller, inbounds: InboundMessage[]): Promise<ReceiveOutcome[]> {
      if (inbounds.length === 0) return [];
      return (await receive(caller, inbounds)).map((result) => result.outcome);
    },

    /** The simulator's stand-in for a customer writing in (CLI, API): stored like a webhook's message. */
    async simulateInbound(caller: Caller, input: SimulatedMessage & { from: string }): Promise<Message> {
      if (!(await channels.providerOf(caller.workspaceId)).simulated) {
        throw errors.conflict('This workspace sends through WhatsApp Cloud; inbound messages come from Meta');
      }
      const inbound = {
        // The REST action and the dashboard call the customer's number `phone`; the CLI's --from is the same.
        from: parsePhone(input.from, 'phone'),
        userId: null,
        profileName: null,
        wamid: `wamid.SIMULATED.${newId()}`,
        timestamp: clock.now(),
        ...(await simulatedContent(input, newId)),
        amends: null,
      };
      const [{ id }] = (await receive(caller, [inbound])) as [{ id: string }, ...unknown[]];
      return presentMessage((await messageRepository(db).findById(caller.workspaceId, id))!);
    },
  };
}

type Entry = AddressedInbound & { id: string };

/** Every received file is downloaded in the background right away: Meta deletes media after 30 days. */
function queueMediaDownloads(trx: Deps['db'], deps: Deps, workspaceId: string, stored: SenderEntry[]): Promise<void> {
  const withMedia = stored.filter((entry) => carriesMedia(entry.inbound.type, entry.inbound.content));
  return queueDownloads(
    trx,
    deps,
    workspaceId,
    withMedia.map((entry) => entry.id),
  );
}

export type InboundService = ReturnType<typeof createInboundService>;

function received(entry: SenderEntry): ReceivedMessage {
  return {
    id: entry.id,
    contactId: entry.sender.id,
    contact: entry.sender,
    type: entry.inbound.type,
    content: entry.inbound.content,
  };
}
