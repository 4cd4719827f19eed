import type { Caller } from '../shared/context.js';
import type { CursorCodec, Page, PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { runBulk, type BulkAction, type ListQuery, type InboxService, type Viewer } from '../inbox/index.js';
import type { BulkInput, Conversation, ListFilters } from './conversation.schema.js';
import { conversationProblems } from './conversation.problems.js';

type Filters = Omit<ListFilters, 'paginate' | 'cursor' | 'limit'>;
type ListItem = Awaited<ReturnType<InboxService['list']>>['conversations'][number];

/** A token or session acting on conversations: its workspace and the member it acts as. */
const viewerOf = (caller: Caller): Viewer => {
  if (!caller.userId) throw errors.unauthorized('This endpoint needs a member’s token');
  return { workspaceId: caller.workspaceId, userId: caller.userId };
};

/** A conversation as the public API shows it. */
function present(item: ListItem): Conversation {
  return {
    contact_id: item.contact_id,
    contact: { id: item.contact_id, name: item.name, phone: item.phone },
    status: item.status,
    priority: item.priority,
    labels: item.labels,
    assignee_id: item.assignee?.id ?? null,
    snoozed_until: item.snoozed_until,
    needs_person: item.needs_person,
    unread: item.unread,
    last_message_at: item.last_message_at,
  };
}

/**
 * The public API's conversations: the inbox's lists and rules behind the API's shapes, cursors and
 * label names. Every change goes through the inbox service, as the dashboard's do.
 */
export function createConversationApi(inbox: InboxService, cursors: CursorCodec) {
  /** The API's filters as the inbox's list query (a label by name). */
  async function listQuery(viewer: Viewer, filters: Filters): Promise<ListQuery> {
    const status = filters.status ?? 'open';
    const [label] = filters.label ? await inbox.labels.named(viewer.workspaceId, [filters.label], 'label') : [];
    return {
      filter: status === 'closed' ? 'done' : status,
      labelId: label?.id,
      priority: filters.priority,
      assigneeId: filters.assignee_id === 'none' ? null : filters.assignee_id,
    };
  }

  return {
    /** list-conversations: newest first; the plain list is the first page. */
    async list(
      caller: Caller,
      filters: Filters,
      page: PageRequest | null,
    ): Promise<Conversation[] | Page<Conversation>> {
      const viewer = viewerOf(caller);
      const query = await listQuery(viewer, filters);
      const scope = { workspaceId: viewer.workspaceId, endpoint: 'list-conversations', filters: { ...filters } };
      const [at, id] = page?.cursor ? cursors.decode(scope, page.cursor) : [];
      const before = at && id ? { at, id } : null;
      const limit = page?.limit;
      const listed = await inbox.list(viewer, query, before, limit);
      const data = listed.conversations.map(present);
      if (!page) return data;
      const last = listed.conversations.at(-1);
      const next =
        listed.next_before && last?.last_message_at
          ? cursors.encode(scope, [toStoredTimestamp(new Date(last.last_message_at)), last.contact_id])
          : null;
      return { data, next_cursor: next };
    },

    /** get-conversation: one conversation by its contact's id. */
    async get(caller: Caller, contactId: string): Promise<Conversation> {
      const listed = await inbox.list(viewerOf(caller), { filter: 'open', contactId }, null, 1);
      const [item] = listed.conversations;
      if (!item) throw errors.notFound('contact', 'contact_id');
      return present(item);
    },

    note: (caller: Caller, contactId: string, body: string) => inbox.addNote(viewerOf(caller), contactId, body),

    async setLabels(caller: Caller, contactId: string, labels: string[]) {
      await inbox.setLabels(viewerOf(caller), contactId, labels);
      return this.get(caller, contactId);
    },

    /** A single-conversation action, answered with the conversation as it is after it. */
    async act(caller: Caller, contactId: string, action: BulkAction) {
      await runBulk(inbox, viewerOf(caller), { contactIds: [contactId] }, action);
      return this.get(caller, contactId);
    },

    /** bulk-conversations: one action on the ids and/or every conversation the filter matches. */
    async bulk(caller: Caller, input: BulkInput) {
      const viewer = viewerOf(caller);
      const filter = input.filter && (await listQuery(viewer, input.filter));
      return runBulk(inbox, viewer, { contactIds: input.contact_ids, filter }, bulkAction(input));
    },
  };
}

/** The bulk body's action with the field it needs; a missing one is a 400 naming it. */
function bulkAction(input: Pick<BulkInput, 'action' | 'user_id' | 'labels' | 'priority' | 'until'>): BulkAction {
  const required = <T>(value: T | undefined, field: string): T => {
    if (value === undefined)
      throw errors.invalid(conversationProblems.problem(field, 'required_for_action', { action: input.action }));
    return value;
  };
  switch (input.action) {
    case 'assign':
      return { type: 'assign', user_id: required(input.user_id, 'user_id') };
    case 'label':
      return { type: 'label', labels: required(input.labels, 'labels') };
    case 'priority':
      return { type: 'priority', priority: required(input.priority, 'priority') };
    case 'snooze':
      return { type: 'snooze', until: snoozeUntil(required(input.until, 'until')) };
    case 'close':
    case 'reopen':
    case 'unsnooze':
      return { type: input.action };
  }
}

/** A snooze's end as a date; null: until the customer writes. */
export function snoozeUntil(until: string | null): Date | null {
  if (until === null) return null;
  const date = new Date(until);
  if (Number.isNaN(date.getTime())) throw errors.invalid(conversationProblems.problem('until', 'not_date_time'));
  return date;
}

export type ConversationApi = ReturnType<typeof createConversationApi>;
