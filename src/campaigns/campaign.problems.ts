import { fieldProblems } from '../shared/field-problems.js';

/** Campaigns: what a field can break (wordings, see field-problems.ts). */
export const campaignProblems = fieldProblems('campaigns', {
  not_blank: 'must not be blank',
  /** `contact` and `attributes` are the placeholders a campaign may use, as written: `{{contact.…}}`. */
  no_context: 'a campaign has no context: use {{contact}} or {{attributes}}',
  unreadable_time: 'is not a time this server can read',
  unknown_contacts: '{{count}} name no contact of this workspace: {{ids}}',
});
