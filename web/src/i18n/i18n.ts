import i18next from 'i18next';
import { DASHBOARD_LANGUAGES, type DashboardLanguage } from '../../../src/accounts/languages';
import account from '../locales/en/account.json';
import automation from '../locales/en/automation.json';
import campaignReport from '../locales/en/campaign-report.json';
import channel from '../locales/en/channel.json';
import common from '../locales/en/common.json';
import contacts from '../locales/en/contacts.json';
import errors from '../locales/en/errors.json';
import inbox from '../locales/en/inbox.json';
import reports from '../locales/en/reports.json';
import routing from '../locales/en/routing.json';
import settings from '../locales/en/settings.json';
import shell from '../locales/en/shell.json';
import simulator from '../locales/en/simulator.json';
import teamReport from '../locales/en/team-report.json';
import templates from '../locales/en/templates.json';

/**
 * The dashboard's words, in the person's language (i18next). Each area of the dashboard has its own
 * catalog (a namespace: web/src/locales/LANGUAGE/NAMESPACE.json); English is the source and the fallback,
 * bundled with the app; another language's catalogs load when it is chosen. Keys are typed from the
 * English catalogs, so `npm run check` fails on a key that does not exist.
 */
const english = {
  account,
  automation,
  'campaign-report': campaignReport,
  channel,
  common,
  contacts,
  errors,
  inbox,
  reports,
  routing,
  settings,
  shell,
  simulator,
  'team-report': teamReport,
  templates,
};

export type Namespace = keyof typeof english;
const NAMESPACES = Object.keys(english) as Namespace[];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof english;
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
    resources: { en: english },
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

/** The language the dashboard is showing. */
export const currentLanguage = (): DashboardLanguage => i18next.language as DashboardLanguage;

/** A translated string: `t('inbox:thread.send')`, `t('common:save')`, plurals with `{ count }`. */
export const t = i18next.t.bind(i18next);
