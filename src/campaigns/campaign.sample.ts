import { Type, type Static } from '@sinclair/typebox';
import { render } from '../automation/render.js';
import { parsePhone } from '../contacts/contact.input.js';
import { contactRepository } from '../contacts/contact.repository.js';
import type { MessageService } from '../messages/message.service.js';
import { mapVariables } from '../messages/outbound/template-variables.js';
import type { Caller, Deps } from '../shared/context.js';
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
  deps: Pick<Deps, 'db'>,
  messages: Pick<MessageService, 'sendTemplate'>,
  caller: Caller,
  input: SampleSendInput,
) {
  const phone = parsePhone(input.phone);
  const known = await contactRepository(deps.db).findByPhone(caller.workspaceId, phone);
  const contact = known ?? { name: null, phone, email: null, custom_attributes: '{}' };
  return messages.sendTemplate(caller, {
    ...input,
    phone,
    variables: mapVariables(input.variables ?? [], (value) => render(value, { contact, context: {} })),
  });
}
