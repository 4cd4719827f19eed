import { useEffect, useState } from 'preact/hooks';
import { setCsrfToken, whenSignedOut } from './api';
import { dashboard } from './api/client';
import { ForgotPassword, Login, Setup, AcceptInvite } from './pages/sign-in';
import { ResetPassword } from './pages/reset-password';
import { Shell } from './shell';
import { useLocation } from './router';
import { SessionContext, type SessionState } from './session';
import { browserLanguage, currentLanguage, showIn, t } from './i18n/i18n';
import { showTimesIn } from './i18n/format';

/** The dashboard: first-run set-up, log-in or an invitation, else the signed-in workspace. */
export function App() {
  const [session, setSession] = useState<SessionState | null>(null);
  const [language, setLanguage] = useState(currentLanguage());
  const url = useLocation();
  const refresh = async () => {
    const next = await dashboard.get('/api/dashboard/session');
    setCsrfToken(next.csrf_token);
    showTimesIn(next.workspace?.time_zone);
    // Signed in: the person's choice, else their browser's; signed out: as the page started.
    if (next.user) await showIn(next.user.language ?? browserLanguage());
    setLanguage(currentLanguage());
    setSession(next);
  };
  useEffect(() => {
    whenSignedOut(() => void refresh());
    void refresh();
  }, []);

  if (!session) return <p class="loading">{t('shell:loading')}</p>;
  if (url.pathname === '/reset-password') return <ResetPassword token={url.hash.slice(1)} onDone={refresh} />;
  const invite = /^\/invite\/([^/]+)$/.exec(url.pathname);
  if (invite && !session.user) return <AcceptInvite token={invite[1]!} onDone={refresh} />;
  if (session.setup_needed) return <Setup onDone={refresh} />;
  if (!session.user && url.pathname === '/forgot-password' && session.email_enabled) return <ForgotPassword />;
  if (!session.user) return <Login onDone={refresh} emailEnabled={session.email_enabled} />;
  return (
    <SessionContext.Provider value={{ session, refresh }}>
      {/* A new language renders every page afresh, words computed once included. */}
      <Shell key={language} url={url} />
    </SessionContext.Provider>
  );
}
