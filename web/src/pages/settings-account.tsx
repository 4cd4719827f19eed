import { useState } from 'preact/hooks';
import { dashboard } from '../api';
import { useSession } from '../session';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';
import { SettingsNav } from './settings-nav';

/** The password fields by their API names, with the labels their errors are shown under. */
const LABELS = { current_password: 'Current password', new_password: 'New password' };

/** Settings → Your account: the signed-in user changes their own password. */
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
    </Page>
  );
}
