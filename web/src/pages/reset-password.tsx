import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { dashboard } from '../api/client';
import { Link } from '../router';
import { ErrorNote, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';
import { Centered } from './sign-in';
import { t } from '../i18n/i18n';

/**
 * The page a `parley user reset-password` link opens. The token is the link's fragment, which the
 * browser never sends, so it stays out of every request log; the page posts it with the password.
 */
export function ResetPassword({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const save = useSubmit(async () => {
    await dashboard.post('/api/dashboard/password-reset', { body: { token, password } });
    history.replaceState(null, '', '/reset-password'); // the used token leaves the address bar
    setDone(true);
  });
  const problem = save.error instanceof ApiError ? save.error.problem : null;
  const { field, note } = fieldErrors(save.error, { password: t('account:reset.newPassword') });

  if (done) {
    return (
      <Centered title={t('account:reset.doneTitle')}>
        <p role="status">{t('account:reset.done')}</p>
        <Link href="/" onClick={() => void onDone()}>
          {t('account:reset.logInWithNew')}
        </Link>
      </Centered>
    );
  }
  if (!token || problem?.code === 'not_found' || problem?.code === 'conflict') {
    return (
      <Centered title={t('account:reset.invalidTitle')}>
        <p role="alert">{t('account:reset.invalid')}</p>
        <Link href="/">{t('account:reset.goToLogIn')}</Link>
      </Centered>
    );
  }
  return (
    <Centered title={t('account:reset.title')}>
      <form onSubmit={save.onSubmit}>
        <NewPasswordField
          label={t('account:reset.newPassword')}
          value={password}
          onValue={setPassword}
          error={field('password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={save.busy}>
          {t('account:reset.submit')}
        </button>
      </form>
    </Centered>
  );
}
