import { DASHBOARD_LANGUAGES, LANGUAGE_NAMES } from './i18n';

/** The dashboard's languages as a picker's options, each named in itself and marked with its language. */
export function LanguageOptions() {
  return (
    <>
      {DASHBOARD_LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </>
  );
}
