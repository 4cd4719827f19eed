import { useEffect, useMemo } from 'preact/hooks';
import { neutraliseCell } from '../../../../src/contacts/csv-cell';

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

const COLUMN_NAMES: Record<string, string> = {
  phone: 'Phone',
  name: 'Name',
  email: 'Email',
  tags: 'Tags',
  opted_out: 'Opted out',
};
/** A row problem's column as the mapping names it (`attribute:Plan` → Plan). */
const columnName = (field: string) => COLUMN_NAMES[field] ?? field.replace(/^attribute:/, '');
/** A problem in words, its column named first: "Phone is not a valid international phone number". */
const reasonOf = (p: RowProblem) => `${columnName(p.field)} ${p.message}`;

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

/** One CSV cell: quoted when it must be, and never read as a formula by a spreadsheet. */
const csvCell = (value: string | number) => {
  const text = neutraliseCell(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Every problem as a CSV file: row, phone, column, value and problem. */
export function problemsCsv(problems: RowProblem[]): string {
  const lines = [['row', 'phone', 'column', 'value', 'problem'].join(',')];
  for (const p of problems)
    lines.push([p.row, p.phone, columnName(p.field), p.value, p.message].map(csvCell).join(','));
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
          <caption>Rows not imported, by problem</caption>
          <thead>
            <tr>
              <th scope="col">Problem</th>
              <th scope="col" class="num">
                Rows
              </th>
              <th scope="col">First rows</th>
            </tr>
          </thead>
          <tbody>
            {groups.map(({ reason, rows }) => (
              <tr key={reason}>
                <th scope="row">{reason}</th>
                <td class="num">{rows.length.toLocaleString()}</td>
                <td>
                  {rows
                    .slice(0, EXAMPLES)
                    .map((p) => `row ${p.row}${p.value ? ` (${p.value})` : ''}`)
                    .join(', ')}
                  {rows.length > EXAMPLES && ', …'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <a href={href} download="rows-not-imported.csv">
          Download the list of rows not imported (CSV)
        </a>
        {problems.length < skipped && ` — the first ${problems.length.toLocaleString()} problems are listed.`}
      </p>
    </>
  );
}
