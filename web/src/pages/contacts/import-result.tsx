import { dashboard } from '../../api/client';
import { useAsync } from '../../ui';
import { counted, formatDisplayName } from '../../i18n/format';
import { currentLanguage, t } from '../../i18n/i18n';
import { RowProblems, type RowProblem } from './import-problems';

/** What an import did, or (a dry run) would do. */
export interface ImportResult {
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  duplicates: number;
  errors: RowProblem[];
}

/** The import's request fields, as its form labels them. */
export const importLabels = () => ({
  csv: t('contacts:import.labels.csv'),
  columns: t('contacts:import.labels.columns'),
  default_country: t('contacts:import.labels.country'),
});

/**
 * The checked rows before an import (`checked`), or what the import did: rows kept out are a warning
 * summed up by problem, never a success.
 */
export function ImportSummary({ result, checked }: { result: ImportResult; checked: boolean }) {
  const kept = t('contacts:summary.kept', {
    created: t(checked ? 'contacts:summary.willCreate' : 'contacts:summary.created', counted(result.created)),
    updated: t(checked ? 'contacts:summary.willUpdate' : 'contacts:summary.updated', counted(result.updated)),
  });
  const skipped = t(checked ? 'contacts:summary.willSkip' : 'contacts:summary.skipped', counted(result.skipped));
  const problems =
    result.skipped === 0
      ? ''
      : result.duplicates > 0
        ? t('contacts:summary.problemsWithDuplicates', {
            skipped,
            duplicates: t('contacts:summary.duplicates', counted(result.duplicates)),
          })
        : t('contacts:summary.problems', { skipped });
  return (
    <section aria-labelledby={checked ? 'check-title' : 'result-title'}>
      <h2 id={checked ? 'check-title' : 'result-title'}>
        {checked ? t('contacts:summary.checked') : t('contacts:summary.result')}
      </h2>
      <p
        class={result.skipped > 0 ? 'warning' : 'notice'}
        role="status"
        data-testid={checked ? 'import-check' : 'import-summary'}
      >
        {[t('contacts:summary.rows', counted(result.rows)), kept, problems].filter(Boolean).join(' ')}
      </p>
      {result.errors.length > 0 && <RowProblems problems={result.errors} skipped={result.skipped} />}
    </section>
  );
}

/** The country numbers without `+` belong to; none reads them as international numbers. */
export function CountryField({ value, onValue }: { value: string; onValue: (code: string) => void }) {
  const countries = useAsync(async () => {
    const list = await dashboard.get('/api/dashboard/phone-countries');
    return list
      .map((c) => ({ ...c, name: formatDisplayName(c.code, 'region') }))
      .sort((a, b) => a.name.localeCompare(b.name, currentLanguage()));
  }, [currentLanguage()]);
  return (
    <div class="field">
      <label for="import-country">{t('contacts:import.country.label')}</label>
      <select
        id="import-country"
        value={value}
        aria-describedby="import-country-hint"
        onChange={(e) => onValue(e.currentTarget.value)}
      >
        <option value="">{t('contacts:import.country.none')}</option>
        {countries.data?.map((c) => (
          <option key={c.code} value={c.code}>
            {t('contacts:import.country.option', { name: c.name, code: c.calling_code })}
          </option>
        ))}
      </select>
      <small id="import-country-hint" class="hint">
        {t('contacts:import.country.hint')}
      </small>
    </div>
  );
}
