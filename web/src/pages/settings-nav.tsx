import { Link, useLocation } from '../router';
import { can, useSession, type Permission } from '../session';
import { t } from '../i18n/i18n';

/** Settings' pages: each tab's path, its name's key in the `settings` catalog (settings:nav.*), its permission. */
const tabs = [
  { href: '/settings/tokens', name: 'tokens' },
  { href: '/settings/channel', name: 'channel' },
  { href: '/settings/workspace', name: 'workspace' },
  { href: '/settings/business-hours', name: 'businessHours' },
  { href: '/settings/opt-out', name: 'optOut' },
  { href: '/settings/quick-replies', name: 'quickReplies', permission: 'conversations' },
  { href: '/settings/team', name: 'team' },
  { href: '/settings/routing', name: 'routing' },
  { href: '/settings/ai-model', name: 'aiModel', permission: 'manage_workspace' },
  { href: '/settings/assistant', name: 'assistant' },
  { href: '/settings/events', name: 'events' },
  { href: '/settings/account', name: 'account' },
] as const satisfies readonly { href: string; name: string; permission?: Permission }[];

/** Settings' sub-sections. */
export function SettingsNav() {
  const url = useLocation();
  const { user } = useSession();
  return (
    <nav class="tabs" aria-label={t('settings:nav.label')}>
      {tabs
        .filter((tab) => !('permission' in tab) || can(user, tab.permission))
        .map((tab) => (
          <Link key={tab.href} href={tab.href} aria-current={url.pathname === tab.href ? 'page' : undefined}>
            {t(`settings:nav.${tab.name}`)}
          </Link>
        ))}
    </nav>
  );
}
