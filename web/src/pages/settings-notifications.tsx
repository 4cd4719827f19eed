import { useEffect, useState } from 'preact/hooks';
import { dashboard } from '../api';
import { ErrorNote, useAsync, useSubmit } from '../ui';

type Kind = 'mention' | 'assignment' | 'new_conversation';
type Preferences = Record<Kind, { in_app: boolean; email: boolean }>;

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'mention', label: 'Someone mentions me in a note' },
  { kind: 'assignment', label: 'Someone assigns me a conversation' },
  { kind: 'new_conversation', label: 'A customer starts a conversation (mine, or unassigned in my teams or in none)' },
];

/** Settings → Your account: which notifications the person gets in the dashboard and by email. */
export function NotificationSettings() {
  const saved = useAsync(
    () => dashboard.get<{ preferences: Preferences; email_enabled: boolean }>('notification-preferences'),
    [],
  );
  const [choices, setChoices] = useState<Preferences | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => setChoices(saved.data?.preferences ?? null), [saved.data]);
  const save = useSubmit(async () => {
    setDone(false);
    if (choices) await dashboard.put('notification-preferences', choices);
    setDone(true);
  });
  const emailOn = saved.data?.email_enabled ?? false;
  const choose = (kind: Kind, channel: 'in_app' | 'email', on: boolean) =>
    choices && setChoices({ ...choices, [kind]: { ...choices[kind], [channel]: on } });

  return (
    <form onSubmit={save.onSubmit} aria-labelledby="notifications-title" class="settings-form">
      <h2 id="notifications-title">Notifications</h2>
      {!emailOn && (
        <p class="muted">
          This Parley sends no email (its operator has not set up SMTP): only the dashboard tells you.
        </p>
      )}
      <ErrorNote error={saved.error} />
      {choices && (
        <table>
          <caption class="visually-hidden">What you are told about, and how</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">In Parley</th>
              <th scope="col">By email</th>
            </tr>
          </thead>
          <tbody>
            {KINDS.map(({ kind, label }) => (
              <tr key={kind}>
                <th scope="row">{label}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${label}: in Parley`}
                    checked={choices[kind].in_app}
                    onChange={(e) => choose(kind, 'in_app', e.currentTarget.checked)}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${label}: by email`}
                    checked={choices[kind].email}
                    disabled={!emailOn}
                    onChange={(e) => choose(kind, 'email', e.currentTarget.checked)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="hint">
        Desktop notifications: turn on “Notifications” in the inbox; they name the customer, never what was written.
      </p>
      <ErrorNote error={save.error} />
      <button class="primary" type="submit" disabled={save.busy || !choices}>
        Save notification settings
      </button>
      <p role="status" class="status-line">
        {done ? 'Notification settings saved.' : ''}
      </p>
    </form>
  );
}
