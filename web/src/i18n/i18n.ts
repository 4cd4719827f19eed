import i18next from 'i18next';
import { DASHBOARD_LANGUAGES, type DashboardLanguage } from '../../../src/shared/languages';
import account from '../locales/en/account.json';
import common from '../locales/en/common.json';
import contacts from '../locales/en/contacts.json';
import errors from '../locales/en/errors.json';
import inbox from '../locales/en/inbox.json';
import shell from '../locales/en/shell.json';

/**
 * The dashboard's words, in the person's language (i18next). Each area of the dashboard has its own
 * catalog (a namespace: web/src/locales/LANGUAGE/NAMESPACE.json); English is the source and the fallback.
 * The English catalogs of the first load's pages come with the app; a lazily loaded page group brings
 * its own (`addEnglish`), so its words cost nothing until it is opened. Another language's catalogs load
 * when it is chosen. Keys are typed from the English catalogs, so `npm run check` fails on a key that
 * does not exist.
 */
const firstLoad = { account, common, contacts, errors, inbox, shell };

type English = typeof firstLoad & {
  'ai-model': typeof import('../locales/en/ai-model.json');
  assistant: typeof import('../locales/en/assistant.json');
  automation: typeof import('../locales/en/automation.json');
  'campaign-report': typeof import('../locales/en/campaign-report.json');
  channel: typeof import('../locales/en/channel.json');
  'flow-answers': typeof import('../locales/en/flow-answers.json');
  knowledge: typeof import('../locales/en/knowledge.json');
  problems: typeof import('../locales/en/problems.json');
  reports: typeof import('../locales/en/reports.json');
  routing: typeof import('../locales/en/routing.json');
  settings: typeof import('../locales/en/settings.json');
  simulator: typeof import('../locales/en/simulator.json');
  'team-report': typeof import('../locales/en/team-report.json');
  templates: typeof import('../locales/en/templates.json');
  'whatsapp-flows': typeof import('../locales/en/whatsapp-flows.json');
};

export type Namespace = keyof English;
const NAMESPACES: Namespace[] = [
  'account',
  'ai-model',
  'assistant',
  'automation',
  'campaign-report',
  'channel',
  'common',
  'contacts',
  'errors',
  'flow-answers',
  'inbox',
  'knowledge',
  'problems',
  'reports',
  'routing',
  'settings',
  'shell',
  'simulator',
  'team-report',
  'templates',
  'whatsapp-flows',
];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: English;
    returnNull: false;
  }
}

export { DASHBOARD_LANGUAGES, type DashboardLanguage };

/** Each language named in itself, as the language picker lists it. */
export const LANGUAGE_NAMES: Record<DashboardLanguage, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<DashboardLanguage> = new Set(['ar']);

/** Where a signed-out page (sign-in, set-up) finds the language last used in this browser. */
const STORED = 'parley.language';

/**
 * The browser's first preferred language the dashboard speaks, matched by its base language (a
 * Portuguese speaker gets Brazilian Portuguese, `es-MX` Spanish); English when none matches.
 */
export function browserLanguage(preferred: readonly string[] = navigator.languages): DashboardLanguage {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const match = DASHBOARD_LANGUAGES.find((code) => code.toLowerCase().split('-')[0] === base);
    if (match) return match;
  }
  return 'en';
}

/** The language to start in: the one last used in this browser, else the browser's own. */
function startingLanguage(): DashboardLanguage {
  const stored = localStorage.getItem(STORED);
  return DASHBOARD_LANGUAGES.find((code) => code === stored) ?? browserLanguage();
}

/** Starts i18next in the browser's language; the signed-in person's choice follows with the session. */
export async function startI18n(): Promise<void> {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    ns: NAMESPACES,
    defaultNS: 'common',
    resources: { en: firstLoad },
    interpolation: { escapeValue: false }, // Preact escapes what it renders
    returnNull: false,
  });
  await showIn(startingLanguage());
}

/** Loads a language's catalogs (once), switches to it, and sets the page's `lang` and direction. */
export async function showIn(language: DashboardLanguage): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'common')) {
    const catalogs = await Promise.all(
      NAMESPACES.map((namespace) => import(`../locales/${language}/${namespace}.json`) as Promise<{ default: object }>),
    );
    catalogs.forEach((catalog, i) => i18next.addResourceBundle(language, NAMESPACES[i]!, catalog.default));
  }
  await i18next.changeLanguage(language);
  localStorage.setItem(STORED, language);
  document.documentElement.lang = language;
  document.documentElement.dir = RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** A lazily loaded page group's English words, registered as its module loads (before it renders). */
export function addEnglish(catalogs: Partial<English>): void {
  for (const [namespace, catalog] of Object.entries(catalogs)) i18next.addResourceBundle('en', namespace, catalog);
}

/** The language the dashboard is showing. */
export const currentLanguage = (): DashboardLanguage => i18next.language as DashboardLanguage;

/** A translated string: `t('inbox:thread.send')`, `t('common:save')`, plurals with `{ count }`. */
export const t = i18next.t.bind(i18next);
