import { errors } from '../shared/errors.js';
import type { ListQuery, Priority } from './inbox.repository.js';
import type { InboxService, Viewer } from './inbox.service.js';
import { inboxProblems } from './inbox.problems.js';

/** The most conversations one bulk action changes: a filter matching more is refused, to be narrowed. */
const BULK_MAX = 10_000;

/** What a bulk action does to each conversation it targets. */
export type BulkAction =
  | { type: 'close' }
  | { type: 'reopen' }
  | { type: 'assign'; user_id: string | null }
  | { type: 'label'; labels: string[] }
  | { type: 'priority'; priority: Priority }
  | { type: 'snooze'; until: Date | null }
  | { type: 'unsnooze' };

/** Which conversations: these ids, every one a list filter matches (all pages), or the ids among those the filter matches. */
export interface BulkTarget {
  contactIds?: string[] | undefined;
  filter?: ListQuery | undefined;
}

/**
 * Runs one action on many conversations through the same rules as the single actions (close,
 * reopen, assign, label, priority, snooze), so the dashboard's "select all matching" and the API's
 * bulk endpoint change exactly what the one-by-one actions would.
 */
export async function runBulk(inbox: InboxService, viewer: Viewer, target: BulkTarget, action: BulkAction) {
  const ids = await targetIds(inbox, viewer, target);
  const result = await apply(inbox, viewer, ids, action);
  return { action: action.type, matched: ids.length, changed: result.changed };
}

async function targetIds(inbox: InboxService, viewer: Viewer, { contactIds, filter }: BulkTarget): Promise<string[]> {
  if (!contactIds && !filter) throw errors.invalid(inboxProblems.problem('contact_ids', 'conversations_unnamed'));
  if (!filter) return contactIds!;
  const matching = await inbox.matchingIds(viewer, filter, BULK_MAX + 1);
  if (matching.length > BULK_MAX) {
    throw errors.invalid(inboxProblems.problem('filter', 'filter_too_broad', { max: BULK_MAX }));
  }
  if (!contactIds) return matching;
  const wanted = new Set(contactIds);
  return matching.filter((id) => wanted.has(id));
}

async function apply(inbox: InboxService, viewer: Viewer, ids: string[], action: BulkAction) {
  if (ids.length === 0) return { changed: 0 };
  switch (action.type) {
    case 'close':
      return inbox.close(viewer, ids);
    case 'reopen':
      return inbox.reopen(viewer, ids);
    case 'assign':
      return inbox.assignMany(viewer, ids, action.user_id);
    case 'label':
      return inbox.addLabels(viewer, ids, action.labels);
    case 'priority':
      return inbox.setPriority(viewer, ids, action.priority);
    case 'snooze':
      return inbox.snooze(viewer, ids, action.until);
    case 'unsnooze':
      return inbox.unsnooze(viewer, ids);
  }
}
