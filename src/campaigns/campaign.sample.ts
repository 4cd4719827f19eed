import { Type, type Static } from '@sinclair/typebox';
import { parsePhone } from '../contacts/index.js';
import { isHeld, type Message, type MessageService } from '../messages/index.js';
import type { Caller } from '../shared/context.js';
import { CreateCampaignBody } from './campaign.schema.js';

const { template_id, language, variables, header_media_url } = CreateCampaignBody.properties;

/** A campaign's message, sent once to one number before the campaign goes to everyone. */
export const SampleSendBody = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32, description: 'The number to send the sample to' }),
  template_id,
  language,
  variables,
  header_media_url,
});
export type SampleSendInput = Static<typeof SampleSendBody>;

/**
 * Sends the campaign's template to one number, its per-recipient placeholders filled for the contact
 * with that phone (or, for a new number, a contact who has only the phone), through the one send path.
 */
export async function sendSample(
  messages: Pick<MessageService, 'sendTemplate'>,
  caller: Caller,
  input: SampleSendInput,
): Promise<Message> {
  // send-template-message fills the per-recipient placeholders for that contact, as the campaign will.
  const sent = await messages.sendTemplate(caller, { ...input, phone: parsePhone(input.phone) });
  // A sample is sent from the dashboard, whose sessions are never held for approval.
  if (isHeld(sent)) throw new Error('a dashboard session’s send was held for approval');
  return sent;
}
