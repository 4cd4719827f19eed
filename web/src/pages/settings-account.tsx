import { LanguageOptions } from '../i18n/language-options';
import { useState } from 'preact/hooks';
import { dashboard } from '../api/client';
import { useSession } from '../session';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';
import { SettingsNav } from './settings-nav';
import { NotificationSettings } from './settings-notifications';
import { can } from '../session';
import { t, type DashboardLanguage } from '../i18n/i18n';

/** Settings → Your account: the signed-in user sets their name and changes their password. */
export function AccountSettings() {
  const { user } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const save = useSubmit(async () => {
    setChanged(false);
    await dashboard.put('/api/dashboard/password', { body: { current_password: current, new_password: next } });
    setCurrent('');
    setNext('');
    setChanged(true);
  });
  // The password fields by their API names, with the labels their errors are shown under.
  const labels = {
    current_password: t('settings:account.currentPassword'),
    new_password: t('settings:account.newPassword'),
  };
  const { field, note } = fieldErrors(save.error, labels);

  return (
    <Page title={t('settings:account.title')}>
      <SettingsNav />
      <p>{t('settings:account.signedInAs', { email: user.email })}</p>
      <NameForm />
      <LanguageForm />
      <form onSubmit={save.onSubmit} aria-labelledby="password-title" class="settings-form">
        <h2 id="password-title">{t('settings:account.changePassword')}</h2>
        <input type="email" autoComplete="username" value={user.email} hidden readOnly />
        <TextField
          label={labels.current_password}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onValue={setCurrent}
          error={field('current_password')}
        />
        <NewPasswordField
          label={labels.new_password}
          outcome={t('settings:account.passwordOutcome')}
          value={next}
          onValue={setNext}
          error={field('new_password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={save.busy}>
          {t('settings:account.changePassword')}
        </button>
        <p role="status" class="status-line">
          {changed ? t('settings:account.passwordChanged') : ''}
        </p>
      </form>
      {can(user, 'conversations') && <NotificationSettings />}
      <OtherSessions />
      <section aria-labelledby="more-title" class="settings-form">
        <h2 id="more-title">{t('settings:account.more')}</h2>
        <p>
          <a href="/api/docs" target="_blank" rel="noopener">
            {t('settings:account.apiReference')}
          </a>{' '}
          {t('settings:account.apiReferenceTells')}
        </p>
        <p class="muted">{t('settings:account.theme')}</p>
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
    await dashboard.put('/api/dashboard/account', { body: { name } });
    await refresh();
    setSaved(true);
  });
  const { field, note } = fieldErrors(save.error, { name: t('settings:account.name') });
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="name-title" class="settings-form">
      <h2 id="name-title">{t('settings:account.name')}</h2>
      <TextField
        label={t('settings:account.name')}
        autoComplete="name"
        required
        maxLength={200}
        value={name}
        onValue={setName}
        hint={t('settings:account.nameHint')}
        error={field('name')}
      />
      <ErrorNote error={note} />
      <button class="primary" type="submit" disabled={save.busy}>
        {t('settings:account.saveName')}
      </button>
      <p role="status" class="status-line">
        {saved ? t('settings:account.nameSaved') : ''}
      </p>
    </form>
  );
}

/** Ends the user's sessions in other browsers and devices; this one stays. */
function OtherSessions() {
  const [ended, setEnded] = useState<number | null>(null);
  const signOut = useSubmit(async () => {
    setEnded((await dashboard.post('/api/dashboard/sessions/end-others')).ended);
  });
  return (
    <section aria-labelledby="sessions-title" class="settings-form">
      <h2 id="sessions-title">{t('settings:account.otherSessions')}</h2>
      <p>{t('settings:account.otherSessionsHint')}</p>
      <button type="button" disabled={signOut.busy} onClick={() => void signOut.run()}>
        {t('settings:account.signOutOthers')}
      </button>
      <ErrorNote error={signOut.error} />
      <p role="status" class="status-line">
        {ended === null ? '' : t('settings:account.signedOutOthers', { count: ended })}
      </p>
    </section>
  );
}

/** The dashboard's language for this person, kept with their account; "browser" follows their browser. */
function LanguageForm() {
  const { user, refresh } = useSession();
  const [language, setLanguage] = useState<DashboardLanguage | ''>(user.language ?? '');
  const save = useSubmit(async () => {
    await dashboard.put('/api/dashboard/account', { body: { language: language || null } });
    await refresh();
  });
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="language-title" class="settings-form">
      <h2 id="language-title">{t('settings:account.language')}</h2>
      <label>
        {t('settings:account.language')}
        <select value={language} onChange={(e) => setLanguage(e.currentTarget.value as DashboardLanguage | '')}>
          <option value="">{t('settings:account.browserLanguage')}</option>
          <LanguageOptions />
        </select>
      </label>
      <ErrorNote error={save.error} />
      <button class="primary" type="submit" disabled={save.busy}>
        {t('settings:account.saveLanguage')}
      </button>
    </form>
  );
}
