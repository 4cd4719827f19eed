import { fieldProblems } from '../shared/field-problems.js';

/** The inbox: conversations' actions, notes and labels (wordings, see field-problems.ts). */
export const inboxProblems = fieldProblems('inbox', {
  not_a_cursor: 'is not a cursor this endpoint handed out',
  note_empty: 'is empty: write the note first',
  conversations_unnamed: 'or filter is required: say which conversations',
  filter_too_broad: 'matches more than {{max}} conversations: narrow it and repeat',
  snooze_in_past: 'must be in the future',
  snooze_too_far: 'must be within a year',
  person_required: 'is required: choose a person',
  label_required: 'is required: choose a label',
  label_name_taken: 'is the name of another label',
  too_many_labels: 'cannot be added: a workspace has at most {{max}} labels',
  unknown_label: '"{{label}}" is not a label of this workspace',
});
