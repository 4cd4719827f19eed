/** What a person can be told about. */
export const NOTIFICATION_KINDS = ['mention', 'assignment', 'new_conversation'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How a person wants one kind: in the dashboard's list (and desktop notifications), by email. */
export interface Channels {
  in_app: boolean;
  email: boolean;
}

export type Preferences = Record<NotificationKind, Channels>;

/**
 * Until a person chooses: what is meant for them personally (a mention, an assignment) reaches them
 * everywhere; new conversations are opt-in, since in a busy workspace they are a stream, not news.
 */
const DEFAULT_PREFERENCES: Preferences = {
  mention: { in_app: true, email: true },
  assignment: { in_app: true, email: true },
  new_conversation: { in_app: false, email: false },
};

/** A person's preferences from their stored rows, each kind without a row taking its default. */
export function preferencesOf(rows: { kind: string; in_app: number; email: number }[]): Preferences {
  const preferences = structuredClone(DEFAULT_PREFERENCES);
  for (const row of rows) {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(row.kind)) continue;
    preferences[row.kind as NotificationKind] = { in_app: row.in_app === 1, email: row.email === 1 };
  }
  return preferences;
}
