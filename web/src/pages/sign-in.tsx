import { LanguageOptions } from '../i18n/language-options';
import { useEffect, useState } from 'preact/hooks';
import { dashboard } from '../api/client';
import { Link, navigate } from '../router';
import { ErrorNote, TextField, fieldErrors, useSubmit } from '../ui';
import { Rich } from '../i18n/rich';
import { NewPasswordField } from './password-field';
import { roleInSentence, type Role } from '../roles';
import { currentLanguage, showIn, t, type DashboardLanguage } from '../i18n/i18n';

/** The product's name, the same in every language. */
const BRAND = 'Parley';

type Done = { onDone: () => Promise<void> };

/** A sign-in card: the brand, a heading and its content, alone on the page. */
export function Centered(props: { title: string; children: preact.ComponentChildren }) {
  useEffect(() => {
    document.title = t('common:pageTitle', { title: props.title });
  }, [props.title]);
  return (
    <main class="centered" id="main">
      <section class="card" aria-labelledby="page-title">
        <p class="brand">{BRAND}</p>
        <h1 id="page-title">{props.title}</h1>
        {props.children}
      </section>
    </main>
  );
}

/**
 * The language the signed-out pages show in, for someone on a borrowed computer whose browser speaks
 * another; remembered in this browser (i18n.ts). Signed in, the person's own choice takes over.
 */
function LanguagePicker({ onChosen }: { onChosen: (language: DashboardLanguage) => void }) {
  const choose = async (next: DashboardLanguage) => {
    await showIn(next);
    onChosen(next);
  };
  return (
    <p class="language-picker">
      <label>
        {t('account:language')}{' '}
        <select value={currentLanguage()} onChange={(e) => void choose(e.currentTarget.value as DashboardLanguage)}>
          <LanguageOptions />
        </select>
      </label>
    </p>
  );
}

/** Logging in; with SMTP set up, a link to have a reset link emailed. */
export function Login({ onDone, emailEnabled }: Done & { emailEnabled: boolean }) {
  const [, setLanguage] = useState(currentLanguage()); // a new language renders the page afresh
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    await dashboard.post('/api/dashboard/login', { body: { email, password } });
    await onDone();
  });
  return (
    <Centered title={t('account:logIn.title')}>
      <form onSubmit={onSubmit}>
        <TextField
          label={t('account:email')}
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
        />
        <TextField
          label={t('account:password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <ErrorNote error={error} />
        <button class="primary" type="submit" disabled={busy}>
          {t('account:logIn.submit')}
        </button>
      </form>
      {emailEnabled && (
        <p>
          <Link href="/forgot-password">{t('account:logIn.forgot')}</Link>
        </p>
      )}
      <LanguagePicker onChosen={setLanguage} />
    </Centered>
  );
}

/** Asks for a reset link by email; the answer is the same whether the email has an account or not. */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async () => {
    setSent(false);
    await dashboard.post('/api/dashboard/password-reset/request', { body: { email } });
    setSent(true);
  });
  const { field, note } = fieldErrors(error, { email: t('account:email') });
  return (
    <Centered title={t('account:forgot.title')}>
      <form onSubmit={onSubmit}>
        <TextField
          label={t('account:email')}
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          {t('account:forgot.submit')}
        </button>
      </form>
      <p role="status">{sent ? t('account:forgot.sent', { email }) : ''}</p>
      <p>
        <Link href="/">{t('account:forgot.back')}</Link>
      </p>
    </Centered>
  );
}

/** First run: no user exists yet, so the first visitor creates the workspace and its owner. */
export function Setup({ onDone }: Done) {
  const [workspace, setWorkspace] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    await dashboard.post('/api/dashboard/setup', { body: { workspace, name, email, password } });
    navigate('/settings/channel', { replace: true });
    await onDone();
  });
  const labels = {
    workspace: t('account:setup.workspaceName'),
    name: t('account:setup.yourName'),
    email: t('account:setup.yourEmail'),
    password: t('account:password'),
  };
  const { field, note } = fieldErrors(error, labels);
  return (
    <Centered title={t('account:setup.title')}>
      <p>{t('account:setup.welcome')}</p>
      <form onSubmit={onSubmit}>
        <TextField
          label={labels.workspace}
          required
          value={workspace}
          onValue={setWorkspace}
          error={field('workspace')}
        />
        <TextField
          label={labels.name}
          autoComplete="name"
          maxLength={200}
          value={name}
          onValue={setName}
          hint={t('account:setup.nameHint')}
          error={field('name')}
        />
        <TextField
          label={labels.email}
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <NewPasswordField
          label={labels.password}
          minLength={12}
          value={password}
          onValue={setPassword}
          error={field('password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          {t('account:setup.submit')}
        </button>
      </form>
    </Centered>
  );
}

interface Invite {
  email: string;
  role: Role;
  workspace: string;
}

/** A teammate's invitation link: they choose their name and password and are logged in. */
export function AcceptInvite({ token, onDone }: Done & { token: string }) {
  const [invite, setInvite] = useState<Invite | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  useEffect(() => {
    dashboard.get('/api/dashboard/invites/{token}', { path: { token } }).then(setInvite, setLoadError);
  }, [token]);
  const { busy, error, onSubmit } = useSubmit(async () => {
    await dashboard.post('/api/dashboard/invites/accept', { body: { token, name, password } });
    navigate('/inbox', { replace: true });
    await onDone();
  });
  const { field, note } = fieldErrors(error, { password: t('account:invite.choosePassword') });
  if (loadError) {
    return (
      <Centered title={t('account:invite.title')}>
        <p>{t('account:invite.invalid')}</p>
      </Centered>
    );
  }
  if (!invite) return <p class="loading">{t('common:loading')}</p>;
  return (
    <Centered title={t('account:invite.join', { workspace: invite.workspace })}>
      <p>
        <Rich text={t('account:invite.invitedAs', { role: roleInSentence(invite.role), email: invite.email })} />
      </p>
      <form onSubmit={onSubmit}>
        <TextField label={t('account:invite.yourName')} autoComplete="name" value={name} onValue={setName} />
        <NewPasswordField
          label={t('account:invite.choosePassword')}
          minLength={12}
          value={password}
          onValue={setPassword}
          error={field('password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          {t('account:invite.submit')}
        </button>
      </form>
    </Centered>
  );
}
