import { Link, useLocation } from '../router';
import { can, useSession, type Permission } from '../session';

const tabs: { href: string; label: string; permission?: Permission }[] = [
  { href: '/settings/tokens', label: 'API Tokens' },
  { href: '/settings/channel', label: 'Channel' },
  { href: '/settings/workspace', label: 'Workspace' },
  { href: '/settings/business-hours', label: 'Business hours' },
  { href: '/settings/opt-out', label: 'Opt-out' },
  { href: '/settings/quick-replies', label: 'Quick replies', permission: 'conversations' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/routing', label: 'Routing' },
  { href: '/settings/events', label: 'WhatsApp events' },
  { href: '/settings/account', label: 'Your account' },
];

/** Settings' sub-sections. */
export function SettingsNav() {
  const url = useLocation();
  const { user } = useSession();
  return (
    <nav class="tabs" aria-label="Settings">
      {tabs
        .filter((tab) => !tab.permission || can(user, tab.permission))
        .map((tab) => (
          <Link key={tab.href} href={tab.href} aria-current={url.pathname === tab.href ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
    </nav>
  );
}
