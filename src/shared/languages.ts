/**
 * The languages the dashboard speaks (web/src/locales has a catalog for each). A person's choice is
 * stored with them (users.language); none means their browser's. Parley's API text stays English.
 */
export const DASHBOARD_LANGUAGES = ['en', 'es', 'pt-BR', 'ar'] as const;

export type DashboardLanguage = (typeof DASHBOARD_LANGUAGES)[number];
