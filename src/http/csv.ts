import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { neutraliseCell } from '../shared/csv-cell.js';

/** A JSON value as a cell: text as it is, any other value (number, list, true/false…) as JSON, nothing as empty. */
export function jsonCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A CSV download as a byte stream, written row by row as `rows` yields them: backpressure from the client
 * pauses the reading. Every cell is neutralised (no formula runs in a spreadsheet); the file starts with a
 * UTF-8 byte order mark, without which Excel reads it in the system's legacy code page and garbles every
 * non-ASCII name.
 */
export function csvStream(columns: string[], rows: AsyncIterable<string[]>): Readable {
  async function* cells() {
    for await (const row of rows) yield row.map(neutraliseCell);
  }
  // A cell holding `;` is quoted too: read with `;` as the separator, the part of the line before it
  // then ends inside an open quote, so the value that starts the line cannot start a formula there.
  const csv = stringify({ bom: true, header: true, columns: columns.map(neutraliseCell), quoted_match: ';' });
  const source = Readable.from(cells());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
