import { fieldProblems } from '../shared/field-problems.js';

/** Message templates and their translations: what their fields can break (wordings, see field-problems.ts). */
export const templateProblems = fieldProblems('templates', {
  name_taken: 'is already used by another template of this workspace',
  status_unknown: 'must be one of {{statuses}}',
  language_repeated: 'appears twice',
  header_content_required: "{{article}} {{kind}} header needs its content (the text, or the media's link)",
  flow_button_flow_required: 'a Flow button opens a published Flow: name it by its id or its name (one of them)',
  flow_button_repeated: 'a template has one Flow button at most',
  otp_apps_required:
    'a {{otp_type}} code button needs the Android app it passes the code to: its package name and signature hash',
  translations_required:
    "needed: the template's translations, or library_template_name for one from Meta's Template Library",
  library_content_given:
    "a template from Meta's Template Library takes its content from Meta: give its inputs, not translations",
  library_language_required: 'needed: the language to create the library template in',
  samples_missing: 'Meta needs a sample value for {{variables}}',
  samples_unknown: '{{variables}}: no such variable',
  ttl_range: 'must be a whole number of seconds from {{min}} to {{max}} for a {{category}} template',
  samples_unknown_listing: "{{variables}}: no such variable; the template's variables are {{expected}}",
});
