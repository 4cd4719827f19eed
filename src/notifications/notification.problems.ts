import { fieldProblems } from '../shared/field-problems.js';

/** A person's notifications: which to mark read (wordings, see field-problems.ts). */
export const notificationProblems = fieldProblems('notifications', {
  ids_empty: 'is empty: name a notification, or use all',
  ids_or_all_required: 'is required (or all: true)',
});
