import { useEffect, useState } from 'preact/hooks';
import { dashboard } from '../api';
import { Link, navigate } from '../router';
import { ErrorNote, TextField, fieldErrors, useSubmit } from '../ui';
import { NewPasswordField } from './password-field';

type Done = { onDone: () => Promise<void> };

/** A sign-in card: the brand, a heading and its content, alone on the page. */
export function Centered(props: { title: string; children: preact.ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Parley`;
  }, [props.title]);
  return (
    <main class="centered" id="main">
      <section class="card" aria-labelledby="page-title">
        <p class="brand">Parley</p>
        <h1 id="page-title">{props.title}</h1>
        {props.children}
      </section>
    </main>
  );
}

/** Logging in; with SMTP set up, a link to have a reset link emailed. */
export function Login({ onDone, emailEnabled }: Done & { emailEnabled: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    await dashboard.post('login', { email, password });
    await onDone();
  });
  return (
    <Centered title="Log in">
      <form onSubmit={onSubmit}>
        <TextField label="Email" type="email" autoComplete="username" required value={email} onValue={setEmail} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <ErrorNote error={error} />
        <button class="primary" type="submit" disabled={busy}>
          Log in
        </button>
      </form>
      {emailEnabled && (
        <p>
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      )}
    </Centered>
  );
}

/** Asks for a reset link by email; the answer is the same whether the email has an account or not. */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async () => {
    setSent(false);
    await dashboard.post('password-reset/request', { email });
    setSent(true);
  });
  const { field, note } = fieldErrors(error, { email: 'Email' });
  return (
    <Centered title="Reset your password">
      <form onSubmit={onSubmit}>
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          Email me a reset link
        </button>
      </form>
      <p role="status">
        {sent ? `If ${email} has a Parley account, a reset link is on its way; it works for 24 hours.` : ''}
      </p>
      <p>
        <Link href="/">Back to log in</Link>
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
    await dashboard.post('setup', { workspace, name, email, password });
    navigate('/settings/channel', { replace: true });
    await onDone();
  });
  const { field, note } = fieldErrors(error, {
    workspace: 'Workspace name',
    name: 'Your name',
    email: 'Your email',
    password: 'Password',
  });
  return (
    <Centered title="Set up your workspace">
      <p>Welcome to Parley. Create your workspace and its owner account; you can invite teammates later.</p>
      <form onSubmit={onSubmit}>
        <TextField
          label="Workspace name"
          required
          value={workspace}
          onValue={setWorkspace}
          error={field('workspace')}
        />
        <TextField
          label="Your name"
          autoComplete="name"
          maxLength={200}
          value={name}
          onValue={setName}
          hint="Your teammates see it beside your replies and assignments."
          error={field('name')}
        />
        <TextField
          label="Your email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <NewPasswordField
          label="Password"
          minLength={12}
          value={password}
          onValue={setPassword}
          error={field('password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          Create workspace
        </button>
      </form>
    </Centered>
  );
}

interface Invite {
  email: string;
  role: string;
  workspace: string;
}

/** A teammate's invitation link: they choose their name and password and are logged in. */
export function AcceptInvite({ token, onDone }: Done & { token: string }) {
  const [invite, setInvite] = useState<Invite | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  useEffect(() => {
    dashboard.get<Invite>(`invites/${encodeURIComponent(token)}`).then(setInvite, setLoadError);
  }, [token]);
  const { busy, error, onSubmit } = useSubmit(async () => {
    await dashboard.post('invites/accept', { token, name, password });
    navigate('/inbox', { replace: true });
    await onDone();
  });
  const { field, note } = fieldErrors(error, { password: 'Password' });
  if (loadError) {
    return (
      <Centered title="Invitation">
        <p>This invitation link is not valid any more (used, expired or mistyped). Ask for a new one.</p>
      </Centered>
    );
  }
  if (!invite) return <p class="loading">Loading…</p>;
  return (
    <Centered title={`Join ${invite.workspace}`}>
      <p>
        You were invited as {invite.role} with <strong>{invite.email}</strong>.
      </p>
      <form onSubmit={onSubmit}>
        <TextField label="Your name" autoComplete="name" value={name} onValue={setName} />
        <NewPasswordField
          label="Choose a password"
          minLength={12}
          value={password}
          onValue={setPassword}
          error={field('password')}
        />
        <ErrorNote error={note} />
        <button class="primary" type="submit" disabled={busy}>
          Join workspace
        </button>
      </form>
    </Centered>
  );
}
