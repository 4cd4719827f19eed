import type { FastifyBaseLogger } from 'fastify';
import { type ChannelService, ChannelError } from '../channels/index.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { callRepository, windowClosesAt, namedSenders, type MessageRow } from '../messages/index.js';
import type { QueuedWork } from '../shared/queued-work.js';
import { createConversationStatus, statusOf } from './conversation-status.js';
import { createLabelService, labelRepository } from './labels.js';
import type { EventHub } from './event-hub.js';
import { triggerRepository } from '../triggers/index.js';
import { at, presentInboxMessage, type FilledForm, type InboxMessage, type MessageCost } from './inbox.presenter.js';
import { inboxRepository, type Keyset, type ListQuery, type Priority } from './inbox.repository.js';
import { noteRepository } from './notes.js';
import type { NotificationService } from '../notifications/index.js';
import { inboxProblems } from './inbox.problems.js';

const LIST_PAGE = 50;

type Log = Pick<FastifyBaseLogger, 'warn'>;
const THREAD_PAGE = 50;

/** The inbox's per-workspace choices. */
export interface InboxSettings {
  /** Opening a conversation with news from the customer also shows them a typing indicator. */
  typing_indicator: boolean;
}

/** The dashboard user acting: the inbox is per workspace, "mine" per user. */
export interface Viewer {
  workspaceId: string;
  userId: string;
}

/** A keyset cursor as the API hands it out: opaque, URL-safe. */
export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(`${keyset.at}|${keyset.id}`).toString('base64url');
}

/** The cursor back as a keyset; anything else is a 400 on `field`. */
export function decodeCursor(cursor: string | undefined, field: string): Keyset | null {
  if (!cursor) return null;
  const [time, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!time || !id || extra !== undefined || Number.isNaN(Date.parse(time)) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw errors.invalid(inboxProblems.problem(field, 'not_a_cursor'));
  }
  return { at: toStoredTimestamp(new Date(time)), id };
}

/** What the inbox tells people of (mentions in notes, assignments); `wake` after the commit sends any email queued. */
export type InboxNotifier = Pick<NotificationService, 'mentioned' | 'assigned' | 'wake'>;

/** The modules the inbox tells of what happens in it. */
export interface InboxNeighbours {
  notifier: InboxNotifier;
  /**
   * Routing's assignment rule (src/routing/): checks the person and the conversations' teams, saves, tells
   * the assignee and emits `conversation-assigned`. Without `team_id` each conversation keeps its team.
   */
  assign: (
    viewer: Viewer,
    contactIds: string[],
    input: { assignee_id: string | null },
  ) => Promise<{ matched: number; changed: number }>;
  /** A conversation closed frees its person for the next one waiting (src/routing/). */
  capacityFreed: (workspaceId: string) => Promise<void>;
  /** The survey sent when a conversation closes, and the ratings shown in the thread (src/csat/). */
  satisfaction: () => InboxSatisfaction;
  /** What each charged message of a page to the contact's number cost, by message id (src/reports/). */
  messageCosts: (workspaceId: string, phone: string, rows: MessageRow[]) => Promise<Map<string, MessageCost>>;
}

/** Customer satisfaction, as the inbox uses it (src/csat/). */
export interface InboxSatisfaction {
  /** Hears of a conversation an agent closed, in the closing transaction, with the span closed. */
  conversationClosed(
    trx: Deps['db'],
    workspaceId: string,
    contactId: string,
    span: { id: string; agent_id: string | null },
  ): Promise<void>;
  /** The contact's ratings given after `from` up to `to` (null: unbounded), shown in the thread. */
  ratings(
    workspaceId: string,
    contactId: string,
    from: string | null,
    to: string | null,
  ): Promise<{ rating: number; rated_at: string; agent_id: string | null }[]>;
}

/** The shared inbox: conversations, their threads, and who handles them. */
export function createInboxService(
  deps: Deps,
  hub: EventHub,
  channels: Pick<ChannelService, 'providerOf'>,
  /** Wakes the workers a committed transaction queued work for (a snooze's end, the survey a close sends). */
  wakeFor: (work: QueuedWork) => void,
  /** Who the inbox tells and hears from: people's notifications, routing's assignment and queue, the satisfaction survey. */
  { notifier, assign, capacityFreed, satisfaction, messageCosts }: InboxNeighbours,
) {
  const { db, dialect, clock, newId } = deps;

  /** The WhatsApp Flows the page's inbound messages completed, as filled forms, by message id. */
  async function filledForms(workspaceId: string, page: MessageRow[]): Promise<Map<string, FilledForm>> {
    const ids = page.filter((row) => row.direction === 'inbound' && row.type === 'interactive').map((row) => row.id);
    const answers = await triggerRepository(db).flowAnswersOfMessages(workspaceId, ids);
    return new Map(
      [...answers].map(([id, { whatsapp_flow_id, whatsapp_flow_name, fields }]) => [
        id,
        { whatsapp_flow_id, whatsapp_flow_name, fields },
      ]),
    );
  }

  const repository = () => inboxRepository(db, dialect);
  const now = () => toStoredTimestamp(clock.now());
  const announce = (viewer: Viewer, contactId: string): Promise<void> => announceAll(viewer, [contactId]);
  const announceAll = (viewer: Viewer, contactIds: string[]): Promise<void> =>
    hub.publish(
      viewer.workspaceId,
      contactIds.map((id) => ({ type: 'conversation' as const, contact_id: id })),
    );
  const status = createConversationStatus(deps, hub, wakeFor, (trx, workspaceId, contactId, span) =>
    satisfaction().conversationClosed(trx, workspaceId, contactId, span),
  );
  /** Closing frees the people who handled the conversations for the next ones waiting. */
  const close = async (viewer: Viewer, contactIds: string[]) => {
    const result = await status.close(viewer, contactIds);
    await capacityFreed(viewer.workspaceId);
    return result;
  };
  const labels = createLabelService(deps);

  /** The workspace's conversations among these contact ids: a bulk action's targets; unknown ids are refused. */
  async function conversationsOf(viewer: Viewer, contactIds: string[]): Promise<string[]> {
    const unique = [...new Set(contactIds)];
    const known = new Set((await repository().states(viewer.workspaceId, unique)).map((row) => row.id));
    const unknown = unique.find((id) => !known.has(id));
    if (unknown) throw errors.notFound('contact', 'contact_ids');
    return unique;
  }

  /**
   * The customer sees their messages read (blue ticks) once the team has read the conversation. Meta
   * marks every earlier message read with the newest. Not seeing the ticks is no reason to fail the
   * team's action: Meta's refusal is only logged. The number the message came in on tells Meta.
   */
  async function tellReadOnWhatsapp(
    workspaceId: string,
    message: { provider_message_id: string; channel_id: string | null },
    log: Log,
  ): Promise<void> {
    try {
      const typing = await repository().typingIndicator(workspaceId);
      await (await channels.providerOf(workspaceId, message.channel_id)).markRead(message.provider_message_id, typing);
    } catch (error) {
      if (!(error instanceof ChannelError)) throw error;
      log.warn({ err: error, workspace_id: workspaceId }, 'Meta refused the read receipt');
    }
  }

  async function contactOf(viewer: Viewer, contactId: string) {
    const contact = await repository().contact(viewer.workspaceId, contactId);
    if (!contact) throw errors.notFound('contact');
    return contact;
  }

  return {
    /** One page of conversations, latest message first (`limit` per page: the dashboard's 50 unless given). */
    async list(viewer: Viewer, list: ListQuery, before: Keyset | null, limit = LIST_PAGE) {
      const rows = await repository().listConversations(viewer.workspaceId, viewer.userId, list, before, limit + 1);
      const page = rows.slice(0, limit);
      const ids = page.map((row) => row.last_message_id).filter((id): id is string => !!id);
      const latest = new Map(
        (await repository().messagesByIds(viewer.workspaceId, ids)).map((row) => [row.id, presentInboxMessage(row)]),
      );
      const labelsOf = await labelRepository(db).ofConversations(
        viewer.workspaceId,
        page.map((row) => row.id),
      );
      const last = page.at(-1);
      return {
        conversations: page.map((row) => ({
          contact_id: row.id,
          name: row.name,
          phone: row.phone,
          last_message: (row.last_message_id && latest.get(row.last_message_id)) || null,
          last_message_at: at(row.last_message_at),
          unread: Number(row.unread ?? 0),
          assignee: row.assignee_id
            ? { id: row.assignee_id, name: row.assignee_name ?? '', email: row.assignee_email ?? '' }
            : null,
          team: row.team_id ? { id: row.team_id, name: row.team_name ?? '' } : null,
          done: row.done_at !== null && row.handoff_at === null,
          needs_person: row.handoff_at !== null,
          handoff_at: at(row.handoff_at),
          awaiting_approval: Number(row.awaiting_approval ?? 0),
          ...toolsState(row, labelsOf.get(row.id) ?? []),
        })),
        next_before:
          rows.length > limit && last?.last_message_at ? encodeCursor({ at: last.last_message_at, id: last.id }) : null,
      };
    },

    /** How many open conversations have unread messages (the navigation's badge and the page title). */
    async unread(viewer: Viewer): Promise<{ conversations: number }> {
      return { conversations: await repository().unreadConversations(viewer.workspaceId) };
    },

    /**
     * A conversation's page of messages (oldest first, `next_before` pages back) with who sent each
     * and the staff's notes written in the same stretch of time, its state, the 24-hour window as of
     * the server's clock, and the workspace's members to assign.
     */
    async thread(viewer: Viewer, contactId: string, before: Keyset | null) {
      const contact = await contactOf(viewer, contactId);
      const rows = await repository().thread(viewer.workspaceId, contact.id, before, THREAD_PAGE + 1);
      const page = rows.slice(0, THREAD_PAGE);
      const oldest = page.at(-1);
      const closesAt = windowClosesAt(contact);
      const quotedIds = page.map((row) => row.reply_to_message_id).filter((id) => id !== null);
      const quoted = new Map(
        (await repository().messagesByIds(viewer.workspaceId, [...new Set(quotedIds)])).map((row) => [row.id, row]),
      );
      const senderOf = await namedSenders(db, viewer.workspaceId, page);
      const costs = await messageCosts(viewer.workspaceId, contact.phone, page);
      const forms = await filledForms(viewer.workspaceId, page);
      const messages: InboxMessage[] = page.reverse().map((row) => {
        const message = presentInboxMessage(
          row,
          quoted.get(row.reply_to_message_id ?? ''),
          senderOf(row),
          costs.get(row.id),
        );
        const form = forms.get(row.id);
        return form ? { ...message, form } : message;
      });
      // The page's stretch of time: from its oldest message (the start, on the last page) up to the cursor.
      const morePages = rows.length > THREAD_PAGE;
      const stretch = [morePages && oldest ? oldest.created_at : null, before?.at ?? null] as const;
      const notes = await noteRepository(db).between(viewer.workspaceId, contact.id, ...stretch);
      return {
        contact: {
          id: contact.id,
          name: contact.name,
          phone: contact.phone,
          opted_out: contact.opted_out_at !== null,
          // What a quick reply's placeholders name, filled in the composer.
          email: contact.email,
          custom_attributes: JSON.parse(contact.custom_attributes) as Record<string, unknown>,
        },
        conversation: {
          read_at: at(contact.read_at),
          assignee_id: contact.assignee_id,
          team_id: contact.team_id,
          done: contact.done_at !== null && contact.handoff_at === null,
          needs_person: contact.handoff_at !== null,
          handoff_at: at(contact.handoff_at),
          ...toolsState(
            contact,
            (await labelRepository(db).ofConversations(viewer.workspaceId, [contact.id])).get(contact.id) ?? [],
          ),
        },
        window: {
          open: closesAt !== null && clock.now() < closesAt,
          last_inbound_at: at(contact.last_inbound_at),
          closes_at: closesAt && at(toStoredTimestamp(closesAt)),
          now: at(now()),
        },
        messages,
        notes,
        // "Rated 4/5": the customer's answers to the satisfaction survey, placed by time like notes.
        ratings: await satisfaction().ratings(viewer.workspaceId, contact.id, ...stretch),
        // WhatsApp calls (their connect, status and terminate webhooks), placed by time like notes.
        calls: await callRepository(db).between(viewer.workspaceId, contact.id, ...stretch),
        next_before:
          rows.length > THREAD_PAGE && oldest ? encodeCursor({ at: oldest.created_at, id: oldest.id }) : null,
        members: await repository().members(viewer.workspaceId),
      };
    },

    /** Adds a private note to the conversation: staff see it in the thread, those it mentions are told; it is never sent. */
    async addNote(viewer: Viewer, contactId: string, body: string) {
      if (!body.trim()) throw errors.invalid(inboxProblems.problem('body', 'note_empty'));
      const contact = await contactOf(viewer, contactId);
      const id = newId();
      const note = { id, workspace_id: viewer.workspaceId, contact_id: contact.id, author_id: viewer.userId, body };
      await db.transaction().execute(async (trx) => {
        await noteRepository(trx).insert({ ...note, created_at: now() });
        const mention = { workspaceId: viewer.workspaceId, contactId: contact.id, authorId: viewer.userId, body };
        await notifier.mentioned(trx, mention);
      });
      notifier.wake();
      await announce(viewer, contact.id);
      return { id };
    },

    /**
     * The AI assistant's part of the inbox, in the caller's transaction (src/assistant/ through services.ts):
     * its note (the hand-over summary, signed with its name) and its closing of a conversation, by nobody.
     * Open tabs hear of both through `announce`, after the commit.
     */
    assistant: {
      async addNote(trx: Deps['db'], workspaceId: string, contactId: string, aiAuthor: string, body: string) {
        const note = { id: newId(), workspace_id: workspaceId, contact_id: contactId, author_id: null, body };
        await noteRepository(trx).insert({ ...note, ai_author: aiAuthor, created_at: now() });
      },
      close: (trx: Deps['db'], workspaceId: string, contactId: string) =>
        status.closeIn(trx, { workspaceId, userId: null }, [contactId]),
      announce: (workspaceId: string, contactIds: string[]) =>
        hub.publish(
          workspaceId,
          contactIds.map((id) => ({ type: 'conversation' as const, contact_id: id })),
        ),
    },

    /** Marks the conversation read up to its newest inbound message (or now, if later). */
    async markRead(viewer: Viewer, contactId: string, log: Log): Promise<{ read_at: string | null }> {
      const contact = await contactOf(viewer, contactId);
      const newest = await repository().newestInbound(contact.id);
      const readAt = newest && newest.created_at > now() ? newest.created_at : now();
      await repository().saveState(viewer.workspaceId, contact.id, { read_at: readAt }, now());
      await announce(viewer, contact.id);
      // Only news is told: re-reading a conversation with nothing new from the customer calls Meta for nothing.
      const unseen = newest?.provider_message_id && newest.created_at > (contact.read_at ?? '');
      if (unseen)
        await tellReadOnWhatsapp(
          viewer.workspaceId,
          { ...newest, provider_message_id: newest.provider_message_id! },
          log,
        );
      return { read_at: at(readAt) };
    },

    /** The inbox's workspace settings. */
    async settings(viewer: Viewer): Promise<InboxSettings> {
      return { typing_indicator: await repository().typingIndicator(viewer.workspaceId) };
    },

    /** Turns the typing indicator shown when a conversation is opened on or off, for the whole workspace. */
    async updateSettings(viewer: Viewer, settings: InboxSettings): Promise<InboxSettings> {
      await repository().saveTypingIndicator(viewer.workspaceId, settings.typing_indicator, now());
      return settings;
    },

    /** Assigns conversations (the bulk action) by routing's one assignment rule; each keeps its team. */
    assignMany: (viewer: Viewer, contactIds: string[], userId: string | null) =>
      assign(viewer, contactIds, { assignee_id: userId }),

    /** Marks the conversation done (which also settles a flow's hand-off) or open again. */
    async setDone(viewer: Viewer, contactId: string, done: boolean): Promise<{ done: boolean }> {
      await contactOf(viewer, contactId);
      await (done ? close(viewer, [contactId]) : status.reopen(viewer, [contactId]));
      return { done };
    },

    /** Closes conversations (one or many): the close rule of the dashboard and the API alike. */
    close: async (viewer: Viewer, contactIds: string[]) => close(viewer, await conversationsOf(viewer, contactIds)),
    /** Opens closed or snoozed conversations again. */
    reopen: async (viewer: Viewer, contactIds: string[]) =>
      status.reopen(viewer, await conversationsOf(viewer, contactIds)),
    /** Snoozes conversations until a time, or (null) until the customer writes. */
    snooze: async (viewer: Viewer, contactIds: string[], until: Date | null) =>
      status.snooze(viewer, await conversationsOf(viewer, contactIds), until),
    /** Ends snoozes now; conversations that are not snoozed are left as they are. */
    unsnooze: async (viewer: Viewer, contactIds: string[]) =>
      status.unsnooze(viewer, await conversationsOf(viewer, contactIds)),

    /** Sets how urgent the conversations are. */
    async setPriority(viewer: Viewer, contactIds: string[], priority: Priority) {
      const ids = await conversationsOf(viewer, contactIds);
      await repository().saveStates(viewer.workspaceId, ids, { priority }, now());
      await announceAll(viewer, ids);
      return { matched: ids.length, changed: ids.length };
    },

    /** Replaces a conversation's labels with those named (an empty list takes them all off). */
    async setLabels(viewer: Viewer, contactId: string, names: string[]) {
      const contact = await contactOf(viewer, contactId);
      const rows = await labels.named(viewer.workspaceId, names, 'labels');
      const ids = rows.map((row) => row.id);
      await db.transaction().execute(async (trx) => {
        await labelRepository(trx).unlinkOthers(viewer.workspaceId, contact.id, ids);
        await labelRepository(trx).link(viewer.workspaceId, [contact.id], ids, now());
      });
      await announce(viewer, contact.id);
    },

    /** Adds the labels named to conversations (a bulk action); labels they carry stay. */
    async addLabels(viewer: Viewer, contactIds: string[], names: string[]) {
      const rows = await labels.named(viewer.workspaceId, names, 'labels');
      const ids = await conversationsOf(viewer, contactIds);
      await labelRepository(db).link(
        viewer.workspaceId,
        ids,
        rows.map((row) => row.id),
        now(),
      );
      await announceAll(viewer, ids);
      return { matched: ids.length, changed: ids.length };
    },

    /** Every conversation a list shows, however many pages (a bulk action on all matching), up to `cap`. */
    matchingIds: (viewer: Viewer, list: ListQuery, cap: number) =>
      repository().matchingIds(viewer.workspaceId, viewer.userId, list, cap),

    /** The workspace's label set. */
    labels,

    /** The members a conversation may be assigned to. */
    members: (viewer: Viewer) => repository().members(viewer.workspaceId),

    /** Ends snoozes when their time comes (the scheduler's conversation_snooze jobs). */
    snoozeHandler: status.snoozeHandler,

    /**
     * A new inbound message reopens a done conversation and wakes a snoozed one, in the transaction that
     * stores it; `opened`: the conversations it started (their report span opened).
     */
    onInbound: (trx: Deps['db'], workspaceId: string, contactIds: string[], opened: string[]) =>
      status.onInbound(trx, workspaceId, [...new Set(contactIds)], opened),
  };
}

/** The conversation tools' part of a conversation's state: status, priority, snooze, labels. */
function toolsState(
  row: {
    done_at: string | null;
    handoff_at: string | null;
    priority: string | null;
    snoozed_at: string | null;
    snoozed_until: string | null;
  },
  labels: { id: string; name: string; colour: string }[],
) {
  return {
    status: statusOf({ done_at: row.done_at ?? null, handoff_at: row.handoff_at, snoozed_at: row.snoozed_at ?? null }),
    priority: (row.priority ?? 'none') as Priority,
    snoozed_until: at(row.snoozed_until),
    labels: labels.map(({ id, name, colour }) => ({ id, name, colour })),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
