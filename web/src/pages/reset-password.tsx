import { useState } from 'preact/hooks';
import { ApiError, dashboard } from '../api';
import { Link } from '../router';
import { ErrorNote, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';
import { Centered } from './sign-in';

/**
 * The page a `parley user reset-password` link opens. The token is the link's fragment, which the
 * browser never sends, so it stays out of every request log; the page posts it with the password.
 */
export function ResetPassword({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const save = useSubmit(async () => {
    await dashboard.post('password-reset', { token, password });
    history.replaceState(null, '', '/reset-password'); // the used token leaves the address bar
    setDone(true);
  });
  const problem = save.error instanceof ApiError ? save.error.problem : null;
  const { field, note } = fieldErrors(save.error, { password: 'New password' });

  if (done) {
    return (
      <Centered title="Password changed">
        <p role="status">Your new password is set, and every session of yours has ended.</p>
        <Link href="/" onClick={() => void onDone()}>
          Log in with your new password
        </Link>
      </Centered>
    );
  }
  if (!token || problem?.code === 'not_found' || problem?.code === 'conflict') {
    return (
      <Centered title="Reset password">
        <p role="alert">
          This reset link is not valid any more (used, expired, replaced by a newer one or mistyped). Ask whoever runs
          Parley for a new one.
        </p>
        <Link href="/">Go to log in</Link>
      </Centered>
    );
  }
  return (
    <Centered title="Choose a new password">
      <form onSubmit={save.onSubmit}>
        <NewPasswordField label="New password" value={password} onValue={setPassword} error={field('password')} />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={save.busy}>
          Set new password
        </button>
      </form>
    </Centered>
  );
}
