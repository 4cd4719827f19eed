import { Type, type Static } from '@sinclair/typebox';
import { type ChannelService, ChannelError } from '../channels/index.js';
import { Uuid } from '../http/responses.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { messageRepository } from './message.repository.js';
import { messageProblems } from './message.problems.js';

export const MarkAsReadBody = Type.Object({
  message_id: Uuid('Parley id of a message the contact sent'),
  typing_indicator: Type.Optional(
    Type.Boolean({ description: 'Also show the contact that a reply is being typed (until it is sent, or 25 s)' }),
  ),
});
export type MarkAsReadInput = Static<typeof MarkAsReadBody>;

export const ReadReceiptSchema = Type.Object(
  {
    message_id: Uuid(),
    provider_message_id: Type.String({ description: 'The wamid WhatsApp was told about' }),
    typing_indicator: Type.Boolean(),
  },
  { $id: 'ReadReceipt' },
);
export type ReadReceipt = Static<typeof ReadReceiptSchema>;

/**
 * mark-as-read: tells WhatsApp a received message was read (blue ticks on it and every earlier one),
 * optionally with Meta's typing indicator. The inbox sends the same receipt when a team member opens
 * the conversation; this is the API's way, for integrations and agents that answer on their own.
 */
export function createReadReceiptService({ db }: Deps, channels: Pick<ChannelService, 'providerOf'>) {
  return {
    async markAsRead(caller: Caller, input: MarkAsReadInput): Promise<ReadReceipt> {
      const row = await messageRepository(db).findById(caller.workspaceId, input.message_id);
      if (!row) throw errors.notFound('message', 'message_id');
      if (row.direction !== 'inbound') throw errors.invalid(messageProblems.problem('message_id', 'sent_not_received'));
      if (!row.provider_message_id) throw errors.messageNotOnWhatsapp('message_id');
      const typing = input.typing_indicator ?? false;
      try {
        // Meta is told by the number the message came in on.
        const provider = await channels.providerOf(caller.workspaceId, row.channel_id);
        await provider.markRead(row.provider_message_id, typing);
      } catch (error) {
        if (!(error instanceof ChannelError)) throw error;
        throw errors.conflict(`Meta refused the read receipt: ${error.message}`, { meta_code: error.code });
      }
      return { message_id: row.id, provider_message_id: row.provider_message_id, typing_indicator: typing };
    },
  };
}

export type ReadReceiptService = ReturnType<typeof createReadReceiptService>;
