import { useEffect, useState } from 'preact/hooks';
import { dashboard } from './api/client';
import { lazy, Link, match, navigate, type Route } from './router';
import { can, useSession, type Permission } from './session';
import { NotInYourRole } from './roles';
import { NotificationBell } from './notifications';
import { AvailabilityToggle } from './availability';
import { InboxRoutes } from './pages/inbox/routes';
import { useInboxAlerts } from './pages/inbox/alerts';
import { useUnreadConversations } from './pages/inbox/unread';
import { ContactNew, ContactPage, ContactsList } from './pages/contacts';
import { AutomationRoutes } from './pages/automation/routes';
import { t } from './i18n/i18n';
import { Rich } from './i18n/rich';

const templates = () => import('./pages/templates');
const settings = () => import('./pages/settings-area');
const whatsappFlows = () => import('./pages/whatsapp-flows');
const knowledge = () => import('./pages/knowledge');
/** Every signed-in page, by path. */
const routes: Route[] = [
  { pattern: /^\/settings\/tokens$/, render: lazy(settings, (m) => <m.ApiTokens />) },
  ...InboxRoutes,
  { pattern: /^\/contacts$/, render: () => <ContactsList /> },
  { pattern: /^\/contacts\/new$/, render: () => <ContactNew /> },
  {
    pattern: /^\/contacts\/import$/,
    render: lazy(
      () => import('./pages/contacts/contact-import'),
      (m) => <m.ContactImport />,
    ),
  },
  {
    pattern: /^\/contacts\/tags$/,
    render: lazy(
      () => import('./pages/contacts/tags-page'),
      (m) => <m.TagsPage />,
    ),
  },
  { pattern: /^\/contacts\/([^/]+)$/, render: ([id]) => <ContactPage key={id} id={id!} /> },
  ...AutomationRoutes,
  { pattern: /^\/templates$/, render: lazy(templates, (m) => <m.TemplatesList />) },
  { pattern: /^\/templates\/new$/, render: lazy(templates, (m) => <m.TemplateEditor />) },
  {
    pattern: /^\/templates\/([^/]+)\/edit$/,
    render: lazy(templates, (m, [id]) => <m.TemplateEditor key={id} id={id} />),
  },
  {
    pattern: /^\/templates\/([^/]+)$/,
    render: lazy(templates, (m, [id], url) => <m.TemplateView id={id!} language={url.searchParams.get('language')} />),
  },
  { pattern: /^\/whatsapp-flows$/, render: lazy(whatsappFlows, (m) => <m.WhatsappFlowsList />) },
  { pattern: /^\/whatsapp-flows\/new$/, render: lazy(whatsappFlows, (m) => <m.WhatsappFlowNew />) },
  {
    pattern: /^\/whatsapp-flows\/([^/]+)$/,
    render: lazy(whatsappFlows, (m, [id]) => <m.WhatsappFlowPage key={id} id={id!} />),
  },
  { pattern: /^\/knowledge$/, render: lazy(knowledge, (m) => <m.KnowledgePage />) },
  { pattern: /^\/settings\/channel$/, render: lazy(settings, (m) => <m.ChannelSettings />) },
  { pattern: /^\/settings\/workspace$/, render: lazy(settings, (m) => <m.WorkspaceSettings />) },
  { pattern: /^\/settings\/opt-out$/, render: lazy(settings, (m) => <m.OptOutSettingsPage />) },
  { pattern: /^\/settings\/business-hours$/, render: lazy(settings, (m) => <m.BusinessHoursSettings />) },
  { pattern: /^\/settings\/team$/, render: lazy(settings, (m) => <m.TeamSettings />) },
  { pattern: /^\/settings\/account$/, render: lazy(settings, (m) => <m.AccountSettings />) },
  { pattern: /^\/settings\/events$/, render: lazy(settings, (m) => <m.WorkspaceEvents />) },
  { pattern: /^\/settings\/quick-replies$/, render: lazy(settings, (m) => <m.QuickRepliesSettings />) },
  { pattern: /^\/settings\/routing$/, render: lazy(settings, (m) => <m.RoutingSettingsPage />) },
  { pattern: /^\/settings\/ai-model$/, render: lazy(settings, (m) => <m.AiModelSettings />) },
  { pattern: /^\/settings\/assistant$/, render: lazy(settings, (m) => <m.AssistantSettingsPage />) },
  {
    pattern: /^\/reports$/,
    render: lazy(
      () => import('./pages/reports/reports'),
      (m, _, url) => <m.ReportsPage search={url.search} />,
    ),
  },
  { pattern: /^\/simulator$/, render: lazy(settings, (m) => <m.Simulator />) },
  {
    pattern: /^\/whatsapp-flows\/([^/]+)\/answers$/,
    render: lazy(
      () => import('./pages/whatsapp-flows/flow-answers'),
      (m, [id]) => <m.FlowAnswersPage key={id} id={id!} />,
    ),
  },
];

/**
 * The sections, each with the permission its pages need (none: every role) and what it is called
 * when a role lacks it. The server refuses the same (src/access/roles.ts); hiding only spares the
 * user a page that cannot work. Words are looked up when shown: the language can change.
 */
const sections: { href: string; label: () => string; permission?: Permission; what?: () => string }[] = [
  {
    href: '/inbox',
    label: () => t('shell:sections.inbox'),
    permission: 'conversations',
    what: () => t('shell:what.inbox'),
  },
  { href: '/contacts', label: () => t('shell:sections.contacts') },
  { href: '/templates', label: () => t('shell:sections.templates') },
  { href: '/whatsapp-flows', label: () => t('shell:sections.whatsappFlows') },
  {
    href: '/sequences',
    label: () => t('shell:sections.sequences'),
    permission: 'automation',
    what: () => t('shell:what.sequences'),
  },
  {
    href: '/flows',
    label: () => t('shell:sections.flows'),
    permission: 'automation',
    what: () => t('shell:what.flows'),
  },
  // Every role reads the knowledge and tries questions; changing it is automation (the page hides what a role cannot do).
  { href: '/knowledge', label: () => t('shell:sections.knowledge') },
  {
    href: '/campaigns',
    label: () => t('shell:sections.campaigns'),
    permission: 'campaigns',
    what: () => t('shell:what.campaigns'),
  },
  {
    href: '/reports',
    label: () => t('shell:sections.reports'),
    permission: 'reports',
    what: () => t('shell:what.reports'),
  },
  {
    href: '/simulator',
    label: () => t('shell:sections.simulator'),
    permission: 'conversations',
    what: () => t('shell:what.simulator'),
  },
  // Not in the navigation (no label): a settings page that is the inbox's.
  {
    href: '/settings/quick-replies',
    label: () => '',
    permission: 'conversations',
    what: () => t('shell:what.quickReplies'),
  },
  { href: '/settings/tokens', label: () => t('shell:sections.settings') },
];

/** The product's name, the same in every language. */
const BRAND = 'Parley';

/** The section a path belongs to. */
const sectionOf = (pathname: string) =>
  sections.find(({ href }) => pathname === href || pathname.startsWith(`${href}/`));

/** The signed-in layout: navigation (a menu on narrow screens) and the page for the path. */
export function Shell({ url }: { url: URL }) {
  const { user, workspace, version, refresh } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [unread, setUnread] = useState(0);
  const allowed = (section: { permission?: Permission }) => !section.permission || can(user, section.permission);
  const visible = sections.filter((s) => s.label() && allowed(s));
  const current = sectionOf(url.pathname);
  useEffect(() => setMenuOpen(false), [url.pathname]);
  useEffect(() => {
    if (url.pathname === '/') navigate(visible[0]!.href, { replace: true });
  }, [url.pathname]);
  const logout = async () => {
    await dashboard.post('/api/dashboard/logout');
    await refresh();
    navigate('/', { replace: true });
  };
  const section = (href: string) =>
    url.pathname === href || url.pathname.startsWith(`${href.split('/', 2).join('/')}/`);

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {t('shell:skipToContent')}
      </a>
      <header class="topbar">
        <button
          type="button"
          class="menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {t('shell:menu')}
          {/* On a phone the navigation is folded away: its unread count shows on the button. */}
          {unread > 0 && (
            <span class="nav-count">
              {unread}
              <span class="visually-hidden"> {t('shell:unread')}</span>
            </span>
          )}
        </button>
        <span class="brand">{BRAND}</span>
        <span class="workspace-name">{workspace.name}</span>
        {can(user, 'conversations') && <NotificationBell />}
        <span class="user">
          {can(user, 'conversations') && <AvailabilityToggle />}
          <span class="user-email">
            {user.name && user.name !== user.email ? `${user.name} (${user.email})` : user.email}
          </span>
          <button type="button" onClick={() => void logout()}>
            {t('shell:logOut')}
          </button>
        </span>
      </header>
      <nav id="nav" class={menuOpen ? 'nav open' : 'nav'} aria-label={t('shell:sectionsLabel')}>
        <ul>
          {visible.map((s) => (
            <li key={s.href}>
              <Link href={s.href} aria-current={section(s.href) ? 'page' : undefined}>
                {s.label()}
                {s.href === '/inbox' && unread > 0 && (
                  <span class="nav-count">
                    {unread}
                    <span class="visually-hidden"> {t('shell:unread')}</span>
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
        <footer class="app-version">{t('shell:version', { version })}</footer>
      </nav>
      <main id="main" tabIndex={-1}>
        {current && !allowed(current) ? (
          <NotInYourRole what={(current.what ?? current.label)()} />
        ) : (
          (match(routes, url) ?? (url.pathname === '/' ? null : <NotFound />))
        )}
      </main>
      {can(user, 'conversations') && <InboxWatch onUnread={setUnread} />}
    </div>
  );
}

/** The unread count and the new-message alerts: the inbox's, so only for a role that has it. */
function InboxWatch({ onUnread }: { onUnread: (count: number) => void }) {
  const unread = useUnreadConversations();
  useInboxAlerts();
  useEffect(() => onUnread(unread), [unread]);
  return null;
}

function NotFound() {
  return (
    <section class="page">
      <h1>{t('shell:notFound.title')}</h1>
      <p>
        <Rich text={t('shell:notFound.body')} parts={{ link: (words) => <Link href="/inbox">{words}</Link> }} />
      </p>
    </section>
  );
}
