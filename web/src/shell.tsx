import { useEffect, useState } from 'preact/hooks';
import { dashboard } from './api';
import { Link, match, navigate, type Route } from './router';
import { useSession } from './session';
import { ApiTokens } from './pages/settings-tokens';
import { WorkspaceEvents } from './pages/settings-events';
import { InboxRoutes } from './pages/inbox/routes';
import { ContactImport, ContactNew, ContactPage, ContactsList, TagsPage } from './pages/contacts';
import { AutomationRoutes } from './pages/automation/routes';
import { TemplateEditor, TemplateView, TemplatesList } from './pages/templates';
import {
  AccountSettings,
  ChannelSettings,
  OptOutSettingsPage,
  Simulator,
  TeamSettings,
  WorkspaceSettings,
} from './pages/settings-area';

/** Every signed-in page, by path. */
const routes: Route[] = [
  { pattern: /^\/settings\/tokens$/, render: () => <ApiTokens /> },
  ...InboxRoutes,
  { pattern: /^\/contacts$/, render: () => <ContactsList /> },
  { pattern: /^\/contacts\/import$/, render: () => <ContactImport /> },
  { pattern: /^\/contacts\/new$/, render: () => <ContactNew /> },
  { pattern: /^\/contacts\/tags$/, render: () => <TagsPage /> },
  { pattern: /^\/contacts\/([^/]+)$/, render: ([id]) => <ContactPage key={id} id={id!} /> },
  ...AutomationRoutes,
  { pattern: /^\/templates$/, render: () => <TemplatesList /> },
  { pattern: /^\/templates\/new$/, render: () => <TemplateEditor /> },
  { pattern: /^\/templates\/([^/]+)\/edit$/, render: ([id]) => <TemplateEditor key={id} id={id} /> },
  {
    pattern: /^\/templates\/([^/]+)$/,
    render: ([id], url) => <TemplateView id={id!} language={url.searchParams.get('language')} />,
  },
  { pattern: /^\/settings\/channel$/, render: () => <ChannelSettings /> },
  { pattern: /^\/settings\/workspace$/, render: () => <WorkspaceSettings /> },
  { pattern: /^\/settings\/opt-out$/, render: () => <OptOutSettingsPage /> },
  { pattern: /^\/settings\/team$/, render: () => <TeamSettings /> },
  { pattern: /^\/settings\/account$/, render: () => <AccountSettings /> },
  { pattern: /^\/settings\/events$/, render: () => <WorkspaceEvents /> },
  { pattern: /^\/simulator$/, render: () => <Simulator /> },
];

const sections = [
  { href: '/inbox', label: 'Inbox' },
  { href: '/contacts', label: 'Contacts' },
  { href: '/templates', label: 'Templates' },
  { href: '/sequences', label: 'Sequences' },
  { href: '/flows', label: 'Flows' },
  { href: '/campaigns', label: 'Campaigns' },
  { href: '/simulator', label: 'Simulator' },
  { href: '/settings/tokens', label: 'Settings' },
];

/** The signed-in layout: navigation (a menu on narrow screens) and the page for the path. */
export function Shell({ url }: { url: URL }) {
  const { user, workspace, refresh } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [url.pathname]);
  useEffect(() => {
    if (url.pathname === '/') navigate('/inbox', { replace: true });
  }, [url.pathname]);
  const logout = async () => {
    await dashboard.post('logout');
    await refresh();
    navigate('/', { replace: true });
  };
  const section = (href: string) =>
    url.pathname === href || url.pathname.startsWith(`${href.split('/', 2).join('/')}/`);

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button
          type="button"
          class="menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <span class="brand">Parley</span>
        <span class="workspace-name">{workspace.name}</span>
        <span class="user">
          <span class="user-email">{user.email}</span>
          <button type="button" onClick={() => void logout()}>
            Log out
          </button>
        </span>
      </header>
      <nav id="nav" class={menuOpen ? 'nav open' : 'nav'} aria-label="Sections">
        <ul>
          {sections.map((s) => (
            <li key={s.href}>
              <Link href={s.href} aria-current={section(s.href) ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {match(routes, url) ?? (url.pathname === '/' ? null : <NotFound />)}
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section class="page">
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. <Link href="/inbox">Go to the inbox</Link>.
      </p>
    </section>
  );
}
