import type { ChannelService } from '../../channels/index.js';
import type { ContactRow } from '../../contacts/index.js';
import type { Deps } from '../../db/deps.js';
import type { OutboundContent } from '../../content/message-content.js';
import { prepareOutbound, type OutboundRow, type Sender } from './queue.js';
import { isRefusal, type Refusal } from './rules.js';

/** How a message is queued to be sent right after its transaction commits (the outbox's queueNow). */
export interface OutboxQueue {
  queueNow(
    trx: Deps['db'],
    message: OutboundRow,
    contact: Pick<ContactRow, 'phone' | 'conversation_channel_id'>,
  ): Promise<void>;
}

/**
 * The one path for a single message a business sends (API actions, the inbox, flows): checked against
 * the sending rules, then queued in the caller's transaction and sent right after its commit. A refusal
 * is returned, not thrown: each caller maps it (an HTTP problem, a flow's failure).
 */
export function createOutbound(
  deps: Pick<Deps, 'newId' | 'clock'>,
  outbox: OutboxQueue,
  channels: Pick<ChannelService, 'channelIdOf'>,
) {
  return {
    /**
     * The channel a send names by its `from_phone_number_id` (an unknown number is refused with 422,
     * before anything is written); null when it names none: the outbox then sends on the contact's
     * conversation number, else the workspace default.
     */
    async channelNamed(workspaceId: string, fromPhoneNumberId: string | undefined): Promise<string | null> {
      return fromPhoneNumberId ? channels.channelIdOf(workspaceId, fromPhoneNumberId) : null;
    },

    /** `channelId`: the channel to send from (channelNamed), null for the contact's or the default. */
    async queueNow(
      trx: Deps['db'],
      contact: ContactRow,
      message: OutboundContent,
      sender: Sender,
      channelId: string | null = null,
    ): Promise<OutboundRow | Refusal> {
      const prepared = prepareOutbound(deps, contact, message, sender, channelId);
      if (!isRefusal(prepared)) await outbox.queueNow(trx, prepared, contact);
      return prepared;
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;
