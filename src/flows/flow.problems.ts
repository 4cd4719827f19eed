import { fieldProblems } from '../shared/field-problems.js';

/** Flows: a definition's graph rules and what its nodes name (wordings, see field-problems.ts). */
export const flowProblems = fieldProblems('flows', {
  duplicate_node: 'duplicates node "{{value}}" (also {{first}})',
  duplicate_keyword: 'duplicates keyword "{{value}}" (also {{first}})',
  duplicate_button: 'duplicates button "{{value}}" (also {{first}})',
  duplicate_row: 'duplicates row "{{value}}" (also {{first}})',
  too_many_rows: 'has {{rows}} rows; at most 10 in total',
  timeout_not_duration: '"{{timeout}}" is not an ISO 8601 duration greater than zero',
  timeout_too_long: '"{{timeout}}" is too long a duration',
  unknown_start: 'names unknown node "{{node}}"',
  unknown_target: 'points at unknown node "{{node}}"',
  unreachable: 'node "{{node}}" is unreachable from start "{{start}}"',
  loop_without_wait: 'loop without a wait: {{path}} (add a node that waits for a reply or asks a question)',
  invalid_url: 'must be a valid URL',
  private_address: 'must not point to a loopback or private address ({{host}})',
  unknown_template: 'names no template of this workspace',
  unknown_whatsapp_flow: 'names no WhatsApp Flow of this workspace',
  whatsapp_flow_not_published: 'names a WhatsApp Flow that is {{status}}: only a published Flow is sent',
  whatsapp_flow_screen_unknown: 'needs the screen the Flow opens on: Parley does not have its Flow JSON',
});
