import { Link, useLocation } from '../router';

const tabs = [
  { href: '/settings/tokens', label: 'API Tokens' },
  { href: '/settings/channel', label: 'Channel' },
  { href: '/settings/workspace', label: 'Workspace' },
  { href: '/settings/business-hours', label: 'Business hours' },
  { href: '/settings/opt-out', label: 'Opt-out' },
  { href: '/settings/quick-replies', label: 'Quick replies' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/events', label: 'WhatsApp events' },
  { href: '/settings/account', label: 'Your account' },
];

/** Settings' sub-sections. */
export function SettingsNav() {
  const url = useLocation();
  return (
    <nav class="tabs" aria-label="Settings">
      {tabs.map((tab) => (
        <Link key={tab.href} href={tab.href} aria-current={url.pathname === tab.href ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
