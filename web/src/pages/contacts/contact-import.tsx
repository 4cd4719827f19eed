import { useState } from 'preact/hooks';
import { ApiError, currentCsrfToken, type Problem } from '../../api';
import { Link } from '../../router';
import { ErrorNote, Page, useAsync } from '../../ui';
import { counted, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { CountryField, importLabels, ImportSummary, type ImportResult } from './import-result';

interface Preview {
  file: File;
  text: string;
  header: string[];
  rows: string[][];
}

const MAX_BYTES = 20 * 1024 * 1024;
const PREVIEW_ROWS = 5;
/** The contact fields a column can feed, with the headers (English, as files name them) that suggest each. */
const FIELDS = [
  { value: 'phone', labelKey: 'phone', pattern: /^(phone|mobile|cell|tel|telephone|whatsapp|number|msisdn)/ },
  { value: 'name', labelKey: 'name', pattern: /^(name|full ?name|contact|contact ?name)$/ },
  { value: 'email', labelKey: 'email', pattern: /^e-?mail/ },
  { value: 'tags', labelKey: 'tags', pattern: /^(tags?|labels?)$/ },
  { value: 'opted_out', labelKey: 'optedOut', pattern: /^(opted[ _-]?out|unsubscribed)$/ },
] as const;
/** Columns of Parley's own export that an import does not write. */
const IGNORED = /^(created_at|last_message_at|attributes|id)$/;

/** The first records of a CSV (RFC 4180 quoting), for the preview only: the server parses the file for real. */
export function previewRecords(text: string, limit: number): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  const endRecord = () => {
    record.push(cell);
    if (record.some((value) => value !== '')) records.push(record);
    record = [];
    cell = '';
  };
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length && records.length < limit; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += char;
    } else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else {
      cell += char;
    }
  }
  if (records.length < limit && (cell !== '' || record.length > 0)) endRecord();
  return records;
}

function attributeKey(header: string): string {
  return header.trim().replace(/\s+/g, '_').slice(0, 64) || 'column';
}

/** The target a column header suggests: a contact field, an attribute, or nothing. */
export function guessTarget(header: string): string {
  const key = header.trim().toLowerCase();
  if (IGNORED.test(key)) return '';
  // Parley's export names an attribute `attribute:KEY` when KEY is also a field's column.
  if (key.startsWith('attribute:')) return `attribute:${attributeKey(header.trim().slice('attribute:'.length))}`;
  return FIELDS.find((field) => field.pattern.test(key))?.value ?? `attribute:${attributeKey(header)}`;
}

/** What the import request carries besides the file. */
interface ImportSettings {
  columns: string[];
  default_country: string;
}

/** What the server sends while it imports, one JSON object a line (Accept: application/x-ndjson). */
type ImportLine = { progress: { rows_read: number } } | { result: ImportResult } | { problem: Problem };

/** The complete lines of a progress answer received so far. */
const importLines = (text: string): ImportLine[] =>
  text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as ImportLine);

/**
 * Posts JSON with upload progress (fetch has no upload progress events). With `onRows`, the server
 * answers line by line as it writes, and `onRows` hears how many rows it has read.
 */
function upload(
  body: string,
  onProgress: (fraction: number) => void,
  onRows?: (rowsRead: number) => void,
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/dashboard/contacts/import');
    request.setRequestHeader('content-type', 'application/json');
    request.setRequestHeader('accept', onRows ? 'application/x-ndjson, application/json' : 'application/json');
    request.setRequestHeader('x-csrf-token', currentCsrfToken());
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.upload.onload = () => onProgress(1);
    request.onerror = () => reject(new Error(t('contacts:import.uploadFailed')));
    const streamed = () => request.getResponseHeader('content-type')?.startsWith('application/x-ndjson') ?? false;
    request.onprogress = () => {
      if (!onRows || !streamed()) return;
      for (const line of importLines(request.responseText)) if ('progress' in line) onRows(line.progress.rows_read);
    };
    request.onload = () => {
      const failed = () => ({ status: request.status, code: 'http_error', title: request.statusText });
      if (streamed()) {
        const last = importLines(request.responseText).at(-1);
        if (last && 'result' in last) return resolve(last.result);
        return reject(new ApiError(last && 'problem' in last ? last.problem : failed()));
      }
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(request.responseText);
      } catch {
        // not JSON: reported below from the status
      }
      if (request.status >= 200 && request.status < 300) resolve(parsed as ImportResult);
      else reject(new ApiError((parsed as Problem | null) ?? failed()));
    };
    request.send(body);
  });
}

/** Contacts → Import: pick a CSV, map its columns, see every row checked, import, and see what happened. */
export function ContactImport() {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [country, setCountry] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [rowsRead, setRowsRead] = useState(0);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const settings: ImportSettings = { columns, default_country: country };
  const mappingValid =
    columns.includes('phone') && new Set(columns.filter(Boolean)).size === columns.filter(Boolean).length;
  const check = useImportCheck(preview?.text, settings, mappingValid && result === null);

  const choose = async (file: File | undefined) => {
    setError(null);
    setResult(null);
    setPreview(null);
    if (!file) return;
    if (file.size > MAX_BYTES) return setError(new Error(t('contacts:import.tooLarge')));
    const text = await file.text();
    const [header = [], ...rows] = previewRecords(text, PREVIEW_ROWS + 1);
    setPreview({ file, text, header, rows });
    setColumns(header.map(guessTarget));
  };
  const start = async () => {
    if (!preview) return;
    setError(null);
    setProgress(0);
    setRowsRead(0);
    try {
      const body = JSON.stringify({ csv: preview.text, ...settings, has_header: true });
      setResult(await upload(body, setProgress, setRowsRead));
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  };
  const ready = check.data ? check.data.created + check.data.updated : 0;
  const labels = importLabels();

  return (
    <Page title={t('contacts:import.title')} actions={<Link href="/contacts">{t('contacts:allContacts')}</Link>}>
      <p>{t('contacts:import.intro')}</p>
      <div class="field">
        <label for="import-file">{t('contacts:import.file')}</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose(e.currentTarget.files?.[0])}
        />
      </div>
      <ErrorNote error={error} labels={labels} />
      {preview && !result && (
        <section aria-labelledby="mapping-title">
          <h2 id="mapping-title">{t('contacts:import.columns')}</h2>
          <p class="muted">{t('contacts:import.mappingHint', { file: preview.file.name })}</p>
          <ColumnMapping preview={preview} columns={columns} onColumns={setColumns} />
          {!columns.includes('phone') && <p class="warning">{t('contacts:import.choosePhone')}</p>}
          <CountryField value={country} onValue={setCountry} />
          {check.loading && <p class="muted">{t('contacts:import.checking')}</p>}
          <ErrorNote error={check.error} labels={labels} />
          {check.data && <ImportSummary result={check.data} checked />}
          <p>
            <button
              type="button"
              class="primary"
              disabled={!mappingValid || progress !== null || check.loading || ready === 0}
              onClick={() => void start()}
            >
              {check.data ? t('contacts:import.importCount', counted(ready)) : t('contacts:import.importContacts')}
            </button>
          </p>
        </section>
      )}
      {progress !== null && <ImportProgress uploaded={progress} rowsRead={rowsRead} rows={check.data?.rows ?? null} />}
      {result && <ImportSummary result={result} checked={false} />}
      {result && (
        <p>
          <Link href="/contacts">{t('contacts:import.seeContacts')}</Link>
        </p>
      )}
    </Page>
  );
}

/** The upload's share, then the rows the server has written of those the check counted. */
function ImportProgress({ uploaded, rowsRead, rows }: { uploaded: number; rowsRead: number; rows: number | null }) {
  const importing = uploaded >= 1;
  const label = !importing
    ? t('contacts:import.uploading')
    : rows
      ? t('contacts:import.importingRows', counted(rows, { read: formatNumber(rowsRead) }))
      : t('contacts:import.importing');
  return (
    <div class="import-progress" role="status">
      <label for="import-progress">{label}</label>
      {!importing ? (
        <progress id="import-progress" max={1} value={uploaded} />
      ) : rows ? (
        <progress id="import-progress" max={rows} value={rowsRead} />
      ) : (
        <progress id="import-progress" />
      )}
    </div>
  );
}

/** Every row checked by the server (a dry run) whenever the file, the mapping or the country changes. */
function useImportCheck(csv: string | undefined, settings: ImportSettings, enabled: boolean) {
  const key = JSON.stringify(settings);
  return useAsync(async () => {
    if (!csv || !enabled) return null;
    return upload(JSON.stringify({ csv, ...settings, has_header: true, dry_run: true }), () => undefined);
  }, [csv, key, enabled]);
}

/** The file's header with a target picker per column, over its first rows. */
function ColumnMapping(props: { preview: Preview; columns: string[]; onColumns: (columns: string[]) => void }) {
  const { preview, columns } = props;
  return (
    <div class="table-wrap">
      <table class="import-preview">
        <caption class="visually-hidden">{t('contacts:import.previewCaption')}</caption>
        <thead>
          <tr>
            {preview.header.map((name, index) => (
              <th scope="col" key={index}>
                <label for={`column-${index}`}>
                  {name || t('contacts:import.column', { number: formatNumber(index + 1) })}
                </label>
                <select
                  id={`column-${index}`}
                  value={columns[index] ?? ''}
                  onChange={(e) => {
                    const next = [...columns];
                    next[index] = e.currentTarget.value;
                    props.onColumns(next);
                  }}
                >
                  <option value="">{t('contacts:import.ignore')}</option>
                  {FIELDS.map((field) => (
                    <option key={field.value} value={field.value}>
                      {t(`contacts:fields.${field.labelKey}`)}
                    </option>
                  ))}
                  <option value={`attribute:${attributeKey(name || `column_${index + 1}`)}`}>
                    {t('contacts:import.attributeOption', { key: attributeKey(name || `column_${index + 1}`) })}
                  </option>
                </select>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, r) => (
            <tr key={r}>
              {preview.header.map((_, c) => (
                <td key={c}>{row[c] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
