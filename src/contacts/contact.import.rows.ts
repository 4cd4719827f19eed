import type { Readable } from 'node:stream';
import { CsvError, parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import type { CountryCode } from 'libphonenumber-js/max';
import { AppError, errors } from '../shared/errors.js';
import { normalizePhone } from '../shared/phone.js';
import type { BulkContact } from './contact.bulk.js';
import { restoreCell } from '../shared/csv-cell.js';
import { parseEmail, parseName, parseTagNames } from './contact.input.js';
import { FirstRowByPhone } from './first-row-by-phone.js';
import { commonProblems } from '../shared/common.problems.js';
import { contactProblems } from './contact.problems.js';

/*
 * Reading an import file into contacts: CSV records, each checked into a row or row errors, repeats of a
 * phone kept out. No database here: this runs on a worker thread beside the writes (contact.import.worker.ts).
 */

/** What a CSV column feeds: a contact field, an attribute (`attribute:KEY`), or nothing (`""`). */
export type ColumnTarget = string;

export interface RowError {
  /** The row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  field: string;
  /** What is wrong, the same words for every row with that problem (the dashboard sums them up by it). */
  message: string;
  /** The row's phone cell as written (blank when it has none), so the list of rows kept out can be read alone. */
  phone: string;
  /** The cell at fault as written. */
  value: string;
}

/** How to read the file, and whether to write it or only check it (the preview). */
export interface ImportOptions {
  /** What each column feeds; without it, the header row names them (see columnsOfHeader). */
  columns?: ColumnTarget[] | undefined;
  hasHeader: boolean;
  /** The country of numbers written without `+` or `00`; without it they are read as international. */
  defaultCountry?: CountryCode | undefined;
  /** Validates every row and counts what would be created and updated, writing nothing. */
  dryRun?: boolean;
}

export interface ImportRow extends BulkContact {
  row: number;
}

const MAX_NAME = 256;
const MAX_REPORTED_ERRORS = 1000;
/** Export columns that are not contact fields an import writes. */
const EXPORT_ONLY_COLUMNS = new Set(['created_at', 'last_message_at']);

/** Which column feeds what; exactly one phone column, and no field twice. */
function checkMapping(columns: ColumnTarget[]): void {
  const seen = new Set<string>();
  for (const target of columns) {
    if (target === '') continue;
    const known =
      ['phone', 'name', 'email', 'tags', 'opted_out'].includes(target) || /^attribute:\S.{0,63}$/.test(target);
    if (!known) throw errors.invalid(contactProblems.problem('columns', 'unknown_column_target', { target }));
    if (seen.has(target)) throw errors.invalid(contactProblems.problem('columns', 'column_target_twice', { target }));
    seen.add(target);
  }
  if (!seen.has('phone')) throw errors.invalid(contactProblems.problem('columns', 'no_phone_column'));
}

/**
 * The columns a header names, as the export writes them: contact fields by name, the export's dates
 * ignored, `attribute:KEY` and any other column an attribute.
 */
export function columnsOfHeader(header: string[]): ColumnTarget[] {
  return header.map((cell) => {
    const name = restoreCell(cell).trim();
    const field = name.toLowerCase();
    if (['phone', 'name', 'email', 'tags', 'opted_out'].includes(field)) return field;
    if (EXPORT_ONLY_COLUMNS.has(field) || name === '') return '';
    return name.startsWith('attribute:') ? name : `attribute:${name}`;
  });
}

const CSV_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true };

function asCsvProblem(error: unknown): unknown {
  return error instanceof CsvError
    ? errors.invalid(contactProblems.problem('csv', 'malformed_csv', { reason: error.message }))
    : error;
}

/**
 * The file's records. Text is parsed whole first, so a malformed file changes nothing; a stream is
 * parsed as it is read, so a malformed line stops the import there (the rows before it are kept).
 */
async function* recordsOf(source: string | Readable): AsyncGenerator<string[]> {
  if (typeof source === 'string') {
    let records: string[][];
    try {
      records = parse(source, CSV_OPTIONS);
    } catch (error) {
      throw asCsvProblem(error);
    }
    yield* records;
    return;
  }
  const parser = parseStream(CSV_OPTIONS);
  // pipe() does not forward a read error (a file gone mid-way): the parser fails with it instead.
  source.on('error', (error) => parser.destroy(error));
  try {
    for await (const record of source.pipe(parser)) yield record as string[];
  } catch (error) {
    throw asCsvProblem(error);
  }
}

/** Spreadsheets separate a cell's tags with `,`, `;` or `|`; all three are read. */
const TAG_SEPARATORS = /[,;|]/;

/** One CSV record as an import row, or the errors that keep it out. */
function readRow(
  cells: string[],
  options: ImportOptions,
  columns: ColumnTarget[],
  row: number,
): ImportRow | RowError[] {
  const { defaultCountry } = options;
  const problems: RowError[] = [];
  const result: ImportRow = { row, phone: '', tags: [], attributes: {} };
  const phoneCell = restoreCell(cells[columns.indexOf('phone')] ?? '').trim();
  columns.forEach((target, index) => {
    // A cell the export neutralised against formula injection (`'=…`) is read back without the apostrophes.
    const cell = restoreCell(cells[index] ?? '').trim();
    if (target === '' || (cell === '' && target !== 'phone')) return;
    try {
      if (target === 'phone') {
        if (cell === '') throw errors.invalid(commonProblems.problem('phone', 'required'));
        const phone = normalizePhone(cell, defaultCountry);
        if (!phone)
          throw errors.invalid(
            contactProblems.problem('phone', defaultCountry ? 'not_a_phone' : 'not_an_international_phone'),
          );
        result.phone = phone;
      } else if (target === 'name') {
        if (cell.length > MAX_NAME)
          throw errors.invalid(contactProblems.problem('name', 'name_too_long', { max: MAX_NAME }));
        result.name = parseName(cell);
      } else if (target === 'email') {
        result.email = parseEmail(cell);
      } else if (target === 'tags') {
        result.tags = parseTagNames(cell.split(TAG_SEPARATORS));
      } else if (target === 'opted_out') {
        result.optedOut = parseYesNo(cell);
      } else {
        result.attributes[target.slice('attribute:'.length)] = cell;
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const { message } of error.fieldErrors)
        problems.push({ row, field: target, message, phone: phoneCell, value: cell });
    }
  });
  return problems.length > 0 ? problems : result;
}

/**
 * Reads records one by one into rows, keeping the counts: rows with errors and repeats of a phone
 * earlier in the file are kept out (the first MAX_REPORTED_ERRORS problems are reported).
 */
function rowReader(options: ImportOptions) {
  const problems: RowError[] = [];
  const firstSeen = new FirstRowByPhone();
  const counts = { rows: 0, good: 0, duplicates: 0 };
  const report = (found: RowError[]) => problems.push(...found.slice(0, MAX_REPORTED_ERRORS - problems.length));
  let columns = options.columns;
  let header = options.hasHeader;
  if (columns) checkMapping(columns);
  return {
    counts,
    problems,
    /** The row a record holds, or undefined for the header and rows kept out. */
    read(cells: string[]): ImportRow | undefined {
      if (header) {
        header = false;
        if (!columns) checkMapping((columns = columnsOfHeader(cells)));
        return undefined;
      }
      if (!columns) throw errors.invalid(contactProblems.problem('columns', 'no_columns'));
      counts.rows++;
      const read = readRow(cells, options, columns, counts.rows + (options.hasHeader ? 1 : 0));
      if (Array.isArray(read)) return void report(read);
      const earlier = firstSeen.firstOrNote(read.phone, read.row);
      if (earlier !== undefined) {
        counts.duplicates++;
        const message = 'repeats the phone of an earlier row; skipped';
        return void report([{ row: read.row, field: 'phone', message, phone: read.phone, value: read.phone }]);
      }
      counts.good++;
      return read;
    },
  };
}

/** Rows read so far, and how many records they came from (for progress). */
export interface RowBatch {
  rows: ImportRow[];
  rowsRead: number;
}

/** What reading the whole file found: the counts, and the first MAX_REPORTED_ERRORS problems. */
export interface ReadSummary {
  rows: number;
  good: number;
  duplicates: number;
  problems: RowError[];
}

/** The file's good rows in batches of `size`; returns what reading it found. */
export async function* rowBatches(
  source: string | Readable,
  options: ImportOptions,
  size: number,
): AsyncGenerator<RowBatch, ReadSummary> {
  const reader = rowReader(options);
  let batch: ImportRow[] = [];
  for await (const cells of recordsOf(source)) {
    const row = reader.read(cells);
    if (row) batch.push(row);
    if (batch.length === size) {
      yield { rows: batch, rowsRead: reader.counts.rows };
      batch = [];
    }
  }
  yield { rows: batch, rowsRead: reader.counts.rows };
  return { ...reader.counts, problems: reader.problems };
}

const YES = /^(true|yes|y|1|opted out)$/i;
const NO = /^(false|no|n|0|subscribed)$/i;

/** An opted-out cell: yes/no in the forms spreadsheets write (our export writes true/false). */
function parseYesNo(cell: string): boolean {
  if (YES.test(cell)) return true;
  if (NO.test(cell)) return false;
  throw errors.invalid(contactProblems.problem('opted_out', 'not_yes_or_no'));
}
