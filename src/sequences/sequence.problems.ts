import { fieldProblems } from '../shared/field-problems.js';

/** Sequences: what a step names (wordings, see field-problems.ts). */
export const sequenceProblems = fieldProblems('sequences', {
  unknown_template: 'names no template of this workspace',
  unknown_flow: 'names no flow of this workspace',
  unknown_whatsapp_flow: 'names no WhatsApp Flow of this workspace',
  whatsapp_flow_not_published: 'names a WhatsApp Flow that is {{status}}: only a published Flow is sent',
  whatsapp_flow_screen_unknown: 'needs the screen the Flow opens on: Parley does not have its Flow JSON',
});
