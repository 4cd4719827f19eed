import { fieldProblems } from './field-problems.js';

/** Problems many domains share (wordings, see field-problems.ts). */
export const commonProblems = fieldProblems('common', {
  required: 'is required',
  must_not_be_empty: 'must not be empty',
  no_match: 'no {{resource}} matches',
  cursor_other_workspace: 'was issued to another workspace',
  cursor_other_endpoint: 'was issued by another endpoint ({{endpoint}})',
  cursor_other_filters: 'was issued for other filters; send the same filters with every page',
  cursor_altered: 'is not a cursor Parley issued, or it was altered',
  phone_taken_by_contact: 'is already the number of the contact {{name}}',
  phone_taken: 'is already the number of a contact',
  number_not_connectable: 'This phone number id cannot be connected.',
  unknown_number: "is not one of this workspace's numbers (see list-channels)",
  translation_status: 'is {{status}}',
  translations_available: 'available: {{languages}}',
  variables_count: 'expected {{expected}}, got {{given}}',
  template_needs: 'needs {{capabilities}}',
  header_media_required: 'is required for this template',
  message_without_media: 'names a message without media',
  message_not_on_whatsapp: 'names a message WhatsApp does not know',
  not_declared_type: 'is not {{mime_type}}',
});
