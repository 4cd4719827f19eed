import { fieldProblems } from '../shared/field-problems.js';

/** The workspace document's import: what an entry can break beyond the schema (wordings, see field-problems.ts). */
export const importProblems = fieldProblems('imports', {
  campaign_without_template: 'a scheduled campaign needs a template',
  unknown_template: 'names no template of this workspace or document',
  unknown_flow: 'names no flow of this workspace or document',
  unknown_tag: 'names no tag of this workspace or document',
  unknown_contact: 'names no contact of this workspace or document',
  more_problems: 'and {{count}} more problems',
});
