import { fieldProblems } from '../shared/field-problems.js';

/** A workspace's numbers: what a channel's field can break (wordings, see field-problems.ts). */
export const channelProblems = fieldProblems('channels', {
  required_for_cloud: 'is required for WhatsApp Cloud',
  numeric_id: "must be Meta's numeric id",
  messages_per_second_range: 'must be a whole number from 1 to {{max}}, or 0 for no limit',
  simulated_number_id_required: 'A simulated number needs a phone number id (digits, e.g. 4242).',
  number_already_here: 'is already one of this workspace’s channels',
  token_not_accepted: 'Meta does not accept this access token.',
  token_not_accepted_saying: 'Meta does not accept this access token. Meta says: {{meta_message}}',
  number_not_readable: 'This access token cannot read this phone number id at Meta.',
  number_not_readable_saying: 'This access token cannot read this phone number id at Meta. Meta says: {{meta_message}}',
  waba_not_readable: 'This access token cannot read this WhatsApp Business Account id at Meta.',
  waba_not_readable_saying:
    'This access token cannot read this WhatsApp Business Account id at Meta. Meta says: {{meta_message}}',
  number_not_in_waba: "This phone number id is not one of the WhatsApp Business Account id's phone numbers.",
  meta_terms_required: 'must be confirmed: Meta refuses the Marketing Messages API until its terms are accepted',
});
