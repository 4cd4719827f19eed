import { useEffect, useMemo } from 'preact/hooks';
import { neutraliseCell } from '../../../../src/shared/csv-cell';
import { counted, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';

/** A row an import kept out, and why (POST /api/dashboard/contacts/import's `errors`). */
export interface RowProblem {
  row: number;
  field: string;
  message: string;
  /** The row's phone cell as written. */
  phone: string;
  /** The cell at fault as written. */
  value: string;
}

/** A row problem's column as the mapping names it (`attribute:Plan` → Plan). */
function columnName(field: string): string {
  switch (field) {
    case 'phone':
      return t('contacts:fields.phone');
    case 'name':
      return t('contacts:fields.name');
    case 'email':
      return t('contacts:fields.email');
    case 'tags':
      return t('contacts:fields.tags');
    case 'opted_out':
      return t('contacts:fields.optedOut');
    default:
      return field.replace(/^attribute:/, '');
  }
}

/**
 * The server's words for a row problem (src/contacts/contact.import.rows.ts: the same words for every
 * row with it) in the person's language; words this list does not know stay as the server wrote them.
 */
function problemMessage(message: string): string {
  const fixed = {
    'is required': 'required',
    'is not a valid international phone number': 'notInternationalPhone',
    'is not a valid phone number': 'notPhone',
    'must be an email address': 'notEmail',
    'is not yes or no (true/false)': 'notYesNo',
    'repeats the phone of an earlier row; skipped': 'repeatedPhone',
  } as const;
  if (message in fixed) return t(`contacts:problems.message.${fixed[message as keyof typeof fixed]}`);
  const tooLong = /^is longer than (\d+) characters$/.exec(message);
  if (tooLong) return t('contacts:problems.message.tooLong', { max: formatNumber(Number(tooLong[1])) });
  const tagTooLong = /^tag names are at most (\d+) characters$/.exec(message);
  if (tagTooLong) return t('contacts:problems.message.tagTooLong', { max: formatNumber(Number(tagTooLong[1])) });
  return message;
}

/** A problem in words, its column named first: "Phone is not a valid international phone number". */
const reasonOf = (p: RowProblem) =>
  t('contacts:problems.reason', { column: columnName(p.field), message: problemMessage(p.message) });

/** Rows shown as examples of each reason: enough to find the pattern, few enough to keep the page short. */
const EXAMPLES = 3;

/** The problems grouped by reason, most frequent first, each with its count and first rows. */
function byReason(problems: RowProblem[]) {
  const groups = new Map<string, RowProblem[]>();
  for (const problem of problems) {
    const reason = reasonOf(problem);
    groups.set(reason, [...(groups.get(reason) ?? []), problem]);
  }
  return [...groups].map(([reason, rows]) => ({ reason, rows })).sort((a, b) => b.rows.length - a.rows.length);
}

/** A row given as an example of its problem: its number, and the cell at fault when there is one. */
const example = (p: RowProblem) =>
  p.value
    ? t('contacts:problems.rowWithValue', { row: formatNumber(p.row), value: p.value })
    : t('contacts:problems.row', { row: formatNumber(p.row) });

/** One CSV cell: quoted when it must be, and never read as a formula by a spreadsheet. */
const csvCell = (value: string | number) => {
  const text = neutraliseCell(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Every problem as a CSV file for people: row, phone, column, value and problem, in their language. */
export function problemsCsv(problems: RowProblem[]): string {
  const header = (['row', 'phone', 'column', 'value', 'problem'] as const).map((column) =>
    t(`contacts:problems.csvHeader.${column}`),
  );
  const lines = [header.map(csvCell).join(',')];
  for (const p of problems)
    lines.push([p.row, p.phone, columnName(p.field), p.value, problemMessage(p.message)].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The rows an import keeps out, summed up by reason (a file of bad rows stays one short table, not
 * a line per row), with the full list as a CSV file to download.
 */
export function RowProblems({ problems, skipped }: { problems: RowProblem[]; skipped: number }) {
  const groups = useMemo(() => byReason(problems), [problems]);
  const href = useMemo(
    () => URL.createObjectURL(new Blob([problemsCsv(problems)], { type: 'text/csv;charset=utf-8' })),
    [problems],
  );
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <>
      <div class="table-wrap">
        <table>
          <caption>{t('contacts:problems.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('contacts:problems.problem')}</th>
              <th scope="col" class="num">
                {t('contacts:problems.rows')}
              </th>
              <th scope="col">{t('contacts:problems.firstRows')}</th>
            </tr>
          </thead>
          <tbody>
            {groups.map(({ reason, rows }) => (
              <tr key={reason}>
                <th scope="row">{reason}</th>
                <td class="num">{formatNumber(rows.length)}</td>
                <td>
                  {[...rows.slice(0, EXAMPLES).map(example), ...(rows.length > EXAMPLES ? ['…'] : [])].join(
                    t('contacts:problems.separator'),
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <a href={href} download={t('contacts:problems.fileName')}>
          {t('contacts:problems.download')}
        </a>
        {problems.length < skipped && t('contacts:problems.firstListed', counted(problems.length))}
      </p>
    </>
  );
}
