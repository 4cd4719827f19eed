import type { ChannelService } from '../../channels/index.js';
import type { ContactRow } from '../../contacts/index.js';
import type { Deps } from '../../db/deps.js';
import type { OutboundContent } from '../../content/message-content.js';
import type { Address } from '../../shared/queued-work.js';
import { toStoredTimestamp } from '../../shared/time.js';
import { newOutboundRow, prepareOutbound, type GroupOutboundRow, type OutboundRow, type Sender } from './queue.js';
import { isRefusal, type Refusal } from './rules.js';

/** How a message is queued to be sent right after its transaction commits (the outbox's queueNow). */
export interface OutboxQueue {
  queueNow(
    trx: Deps['db'],
    message: OutboundRow | GroupOutboundRow,
    recipient: Address & { conversation_channel_id: string | null },
  ): Promise<void>;
}

/** A WhatsApp group a message goes to: its conversation, Meta's id for it and the number it is on. */
export interface GroupRecipient {
  id: string;
  workspace_id: string;
  channel_id: string;
  wa_group_id: string;
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
      const { phone: to, conversation_channel_id } = contact;
      if (!isRefusal(prepared)) await outbox.queueNow(trx, prepared, { to, toGroup: false, conversation_channel_id });
      return prepared;
    },

    /**
     * A message to a WhatsApp group, from the group's own number. No customer service window or opt-out
     * applies: nobody in a group asked for it alone, and Meta answers a send it does not allow.
     */
    async queueToGroup(trx: Deps['db'], group: GroupRecipient, message: OutboundContent, sender: Sender) {
      const conversation = { workspace_id: group.workspace_id, contact_id: null, group_id: group.id } as const;
      const at = toStoredTimestamp(deps.clock.now());
      const row = newOutboundRow(deps.newId(), conversation, message, at, sender, group.channel_id);
      await outbox.queueNow(trx, row, { to: group.wa_group_id, toGroup: true, conversation_channel_id: null });
      return row;
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;
