import { dashboard } from '../../api';
import { useAsync } from '../../ui';
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
export const IMPORT_LABELS = { csv: 'The file', columns: 'The columns', default_country: 'Country' };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The checked rows before an import (`checked`), or what the import did: rows kept out are a warning
 * summed up by problem, never a success.
 */
export function ImportSummary({ result, checked }: { result: ImportResult; checked: boolean }) {
  const verbs = checked ? ['will be created', 'will be updated'] : ['created', 'updated'];
  const kept = `${plural(result.created, 'contact')} ${verbs[0]}, ${result.updated} ${verbs[1]}.`;
  const skipped =
    result.skipped === 0
      ? ''
      : ` ${plural(result.skipped, 'row')} ${checked ? 'will not be imported' : 'were not imported'}` +
        (result.duplicates > 0
          ? ` (${result.duplicates} ${result.duplicates === 1 ? 'repeats' : 'repeat'} a phone from an earlier row)`
          : '') +
        ': see the problems below.';
  return (
    <section aria-labelledby={checked ? 'check-title' : 'result-title'}>
      <h2 id={checked ? 'check-title' : 'result-title'}>{checked ? 'Rows checked' : 'Result'}</h2>
      <p
        class={result.skipped > 0 ? 'warning' : 'notice'}
        role="status"
        data-testid={checked ? 'import-check' : 'import-summary'}
      >
        {plural(result.rows, 'row')}: {kept}
        {skipped}
      </p>
      {result.errors.length > 0 && <RowProblems problems={result.errors} skipped={result.skipped} />}
    </section>
  );
}

const regionNames = new Intl.DisplayNames(undefined, { type: 'region' });

/** The country numbers without `+` belong to; none reads them as international numbers. */
export function CountryField({ value, onValue }: { value: string; onValue: (code: string) => void }) {
  const countries = useAsync(async () => {
    const list = await dashboard.get<{ code: string; calling_code: string }[]>('phone-countries');
    return list
      .map((c) => ({ ...c, name: regionNames.of(c.code) ?? c.code }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, []);
  return (
    <div class="field">
      <label for="import-country">Country of numbers written without +</label>
      <select
        id="import-country"
        value={value}
        aria-describedby="import-country-hint"
        onChange={(e) => onValue(e.currentTarget.value)}
      >
        <option value="">None: every number has its country code</option>
        {countries.data?.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name} (+{c.calling_code})
          </option>
        ))}
      </select>
      <small id="import-country-hint" class="hint">
        For example United Kingdom reads 020 7946 0958 as +44 20 7946 0958.
      </small>
    </div>
  );
}
