import { useState } from 'preact/hooks';
import { dashboard } from '../api';
import { useSession } from '../session';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';
import { SettingsNav } from './settings-nav';
import { NotificationSettings } from './settings-notifications';
import { can } from '../session';

/** The password fields by their API names, with the labels their errors are shown under. */
const LABELS = { current_password: 'Current password', new_password: 'New password' };

/** Settings → Your account: the signed-in user sets their name and changes their password. */
export function AccountSettings() {
  const { user } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const save = useSubmit(async () => {
    setChanged(false);
    await dashboard.put('password', { current_password: current, new_password: next });
    setCurrent('');
    setNext('');
    setChanged(true);
  });
  const { field, note } = fieldErrors(save.error, LABELS);

  return (
    <Page title="Your account">
      <SettingsNav />
      <p>
        Signed in as <strong>{user.email}</strong>.
      </p>
      <NameForm />
      <form onSubmit={save.onSubmit} aria-labelledby="password-title" class="settings-form">
        <h2 id="password-title">Change password</h2>
        <input type="email" autoComplete="username" value={user.email} hidden readOnly />
        <TextField
          label={LABELS.current_password}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onValue={setCurrent}
          error={field('current_password')}
        />
        <NewPasswordField
          label={LABELS.new_password}
          outcome="You stay signed in here; your other sessions end."
          value={next}
          onValue={setNext}
          error={field('new_password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={save.busy}>
          Change password
        </button>
        <p role="status" class="status-line">
          {changed ? 'Password changed.' : ''}
        </p>
      </form>
      {can(user, 'conversations') && <NotificationSettings />}
      <OtherSessions />
      <section aria-labelledby="more-title" class="settings-form">
        <h2 id="more-title">More</h2>
        <p>
          <a href="/api/docs" target="_blank" rel="noopener">
            API reference
          </a>{' '}
          describes every endpoint integrations call with a token.
        </p>
        <p class="muted">The dashboard is light or dark as your device's system setting is.</p>
      </section>
    </Page>
  );
}

/** The person's own name, as the team list, the inbox's assignees and the top bar show it. */
function NameForm() {
  const { user, refresh } = useSession();
  // A name that is only the email (set-up without a name) is offered empty, to be filled in.
  const [name, setName] = useState(user.name === user.email ? '' : user.name);
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    setSaved(false);
    await dashboard.put('account', { name });
    await refresh();
    setSaved(true);
  });
  const { field, note } = fieldErrors(save.error, { name: 'Your name' });
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="name-title" class="settings-form">
      <h2 id="name-title">Your name</h2>
      <TextField
        label="Your name"
        autoComplete="name"
        required
        maxLength={200}
        value={name}
        onValue={setName}
        hint="Your teammates see it in the team list, beside assignments and notes."
        error={field('name')}
      />
      <ErrorNote error={note} />
      <button class="primary" type="submit" disabled={save.busy}>
        Save name
      </button>
      <p role="status" class="status-line">
        {saved ? 'Name saved.' : ''}
      </p>
    </form>
  );
}

/** Ends the user's sessions in other browsers and devices; this one stays. */
function OtherSessions() {
  const [ended, setEnded] = useState<number | null>(null);
  const signOut = useSubmit(async () => {
    setEnded((await dashboard.post<{ ended: number }>('sessions/end-others')).ended);
  });
  return (
    <section aria-labelledby="sessions-title" class="settings-form">
      <h2 id="sessions-title">Other sessions</h2>
      <p>Signed in on another computer or phone you no longer use? End those sessions; you stay signed in here.</p>
      <button type="button" disabled={signOut.busy} onClick={() => void signOut.run()}>
        Sign out of other sessions
      </button>
      <ErrorNote error={signOut.error} />
      <p role="status" class="status-line">
        {ended === null ? '' : `Signed out of ${ended} other session${ended === 1 ? '' : 's'}.`}
      </p>
    </section>
  );
}
