import type { Kysely } from 'kysely';
import { can } from '../access/roles.js';
import type { Database } from '../db/schema.js';
import type { EmailService } from '../email/email.service.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { mentionedIn } from './mentions.js';
import { notificationProblems } from './notification.problems.js';
import { notificationRepository, type NotificationRow } from './notification.repository.js';
import {
  NOTIFICATION_KINDS,
  preferencesOf,
  type NotificationKind,
  type Preferences,
} from './notification.preferences.js';
import { notificationEmail } from './notification.texts.js';

/** What happened, about which conversation (by its contact), and who did it (null: the customer or Parley). */
export interface NotificationEvent {
  kind: NotificationKind;
  contactId: string;
  actorId: string | null;
}

/** The person a notification call is for. */
export interface Recipient {
  workspaceId: string;
  userId: string;
}

/**
 * Notifications: other domains say what happened (`notify`, or the helpers for mentions, assignments
 * and new conversations) in their own transaction; each person is told as their preferences say, in
 * the dashboard's list and by email (queued, sent by the email job). Only members who may work
 * conversations are told of them.
 */
export function createNotificationService(
  deps: Deps,
  email: Pick<EmailService, 'queue' | 'enabled' | 'wake'>,
  links: { publicBaseUrl: string },
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Tells these members of the workspace (others are ignored) about the event, each as they prefer. */
  async function notify(trx: Kysely<Database>, workspaceId: string, userIds: string[], event: NotificationEvent) {
    const repository = notificationRepository(trx);
    const members = await repository.members(workspaceId);
    const told = members.filter((m) => userIds.includes(m.id) && can(m.role, 'conversations'));
    if (told.length === 0) return;
    const rows = await repository.preferenceRows(
      told.map((m) => m.id),
      event.kind,
    );
    const contact = await repository.contact(workspaceId, event.contactId);
    if (!contact) return;
    const actor = members.find((m) => m.id === event.actorId);
    const names = { actor: actor ? actor.name || actor.email : null, customer: contact.name || contact.phone };
    const mail = notificationEmail(event.kind, names, {
      conversation: `${links.publicBaseUrl}/inbox/${contact.id}`,
      settings: `${links.publicBaseUrl}/settings/account`,
    });
    for (const member of told) {
      const channels = preferencesOf(rows.filter((row) => row.user_id === member.id))[event.kind];
      const id = newId();
      if (channels.in_app) {
        await repository.insert([
          {
            id,
            workspace_id: workspaceId,
            user_id: member.id,
            kind: event.kind,
            contact_id: contact.id,
            actor_id: event.actorId,
            created_at: now(),
            read_at: null,
          },
        ]);
      }
      if (channels.email) await email.queue(trx, { workspaceId, to: member.email, notificationId: id, ...mail });
    }
  }

  return {
    notify,

    /** After the commit of a transaction that notified: queued email goes out now. */
    wake: () => email.wake(),

    /** A note was written: the members it mentions (not its author) are told. */
    async mentioned(
      trx: Kysely<Database>,
      note: { workspaceId: string; contactId: string; authorId: string; body: string },
    ) {
      if (!note.body.includes('@')) return;
      const members = await notificationRepository(trx).members(note.workspaceId);
      const mentioned = mentionedIn(note.body, members).filter((id) => id !== note.authorId);
      await notify(trx, note.workspaceId, mentioned, {
        kind: 'mention',
        contactId: note.contactId,
        actorId: note.authorId,
      });
    },

    /** A conversation was assigned: the assignee is told, unless they took it themselves. */
    async assigned(
      trx: Kysely<Database>,
      change: { workspaceId: string; contactId: string; actorId: string | null; assigneeId: string | null },
    ) {
      if (!change.assigneeId || change.assigneeId === change.actorId) return;
      const event = { kind: 'assignment' as const, contactId: change.contactId, actorId: change.actorId };
      await notify(trx, change.workspaceId, [change.assigneeId], event);
    },

    /**
     * Customers opened conversations (their first message, or one after it was done): the assignee is
     * told; an unassigned one is told to the members of its team (routing set it in this transaction),
     * or to everyone without a team; each only if they turned new conversations on.
     */
    async conversationsOpened(trx: Kysely<Database>, workspaceId: string, contactIds: string[]) {
      if (contactIds.length === 0) return;
      const repository = notificationRepository(trx);
      // Off by default: a workspace where nobody turned it on pays this one query.
      const optedIn = (await repository.optedIn(workspaceId, 'new_conversation')).map((row) => row.id);
      if (optedIn.length === 0) return;
      const handlers = new Map((await repository.handlers(workspaceId, contactIds)).map((r) => [r.contact_id, r]));
      const teamIds = [...new Set([...handlers.values()].map((r) => r.team_id).filter((id) => id !== null))];
      const inTeam = new Set((await repository.teamMembers(teamIds, optedIn)).map((r) => `${r.team_id} ${r.user_id}`));
      for (const contactId of contactIds) {
        const { assignee_id: assignee = null, team_id: team = null } = handlers.get(contactId) ?? {};
        const recipients = optedIn.filter((id) =>
          assignee ? id === assignee : team === null || inTeam.has(`${team} ${id}`),
        );
        await notify(trx, workspaceId, recipients, { kind: 'new_conversation', contactId, actorId: null });
      }
    },

    /** The person's newest notifications and how many are unread. */
    async list(recipient: Recipient) {
      const repository = notificationRepository(deps.reads);
      const [rows, unread] = await Promise.all([
        repository.list(recipient.workspaceId, recipient.userId),
        repository.unread(recipient.workspaceId, recipient.userId),
      ]);
      return { notifications: rows.map(present), unread };
    },

    /** How many of the person's notifications are unread (the bell's count). */
    unread: async (recipient: Recipient) => ({
      unread: await notificationRepository(deps.reads).unread(recipient.workspaceId, recipient.userId),
    }),

    /** Marks the person's notifications read (the ids given, or all); ids that are not theirs change nothing. */
    async markRead(recipient: Recipient, ids: string[] | 'all') {
      if (ids !== 'all' && ids.length === 0) throw errors.invalid(notificationProblems.problem('ids', 'ids_empty'));
      const marked = await notificationRepository(db).markRead(recipient.workspaceId, recipient.userId, ids, now());
      return { marked, unread: await notificationRepository(db).unread(recipient.workspaceId, recipient.userId) };
    },

    /** The person's preferences, every kind (defaults where they chose nothing), and whether email is on. */
    async preferences(recipient: Recipient): Promise<{ preferences: Preferences; email_enabled: boolean }> {
      const rows = await notificationRepository(db).preferenceRows([recipient.userId]);
      return { preferences: preferencesOf(rows), email_enabled: email.enabled };
    },

    /** Saves the person's choices for the kinds given; the others keep theirs. */
    async savePreferences(recipient: Recipient, preferences: Partial<Preferences>) {
      await db.transaction().execute(async (trx) => {
        for (const kind of NOTIFICATION_KINDS) {
          const channels = preferences[kind];
          if (!channels) continue;
          const stored = { in_app: channels.in_app ? 1 : 0, email: channels.email ? 1 : 0 };
          await notificationRepository(trx).savePreference(recipient.userId, kind, stored);
        }
      });
      return this.preferences(recipient);
    },
  };
}

/** A notification for the dashboard: what, about which customer (name, else phone), by whom. */
function present(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    contact: { id: row.contact_id, name: row.contact_name || row.contact_phone },
    actor: row.actor_id ? { id: row.actor_id, name: row.actor_name || row.actor_email || '' } : null,
    created_at: formatTimestamp(row.created_at),
    read_at: formatTimestamp(row.read_at),
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
