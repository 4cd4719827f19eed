import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Caller, Deps } from '../shared/context.js';
import { AppError, errors } from '../shared/errors.js';
import type { CountryCode } from 'libphonenumber-js/max';
import { normalizePhone } from '../shared/phone.js';
import { toStoredTimestamp } from '../shared/time.js';
import { restoreCell } from './contact.export.js';
import { mergeAttributes, parseEmail, parseName, parseTagNames } from './contact.input.js';
import { contactRepository, newContactRow, type ContactRow } from './contact.repository.js';
import type { Tagging } from './tagging.js';

/** What a CSV column feeds: a contact field, an attribute (`attribute:KEY`), or nothing (`""`). */
export type ColumnTarget = string;

export interface RowError {
  /** The row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  field: string;
  message: string;
}

export interface ImportResult {
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  duplicates: number;
  errors: RowError[];
}

/** How to read the file, and whether to write it or only check it (the preview). */
export interface ImportOptions {
  columns: ColumnTarget[];
  hasHeader: boolean;
  /** The country of numbers written without `+` or `00`; without it they are read as international. */
  defaultCountry?: CountryCode | undefined;
  /** Validates every row and counts what would be created and updated, writing nothing. */
  dryRun?: boolean;
}

interface ImportRow {
  row: number;
  phone: string;
  name?: string | null;
  email?: string | null;
  tags: string[];
  attributes: Record<string, string>;
  optedOut?: boolean;
}

const BATCH = 500;
const MAX_NAME = 256;
const MAX_REPORTED_ERRORS = 1000;

/** Which column feeds what; exactly one phone column, and no field twice. */
function checkMapping(columns: ColumnTarget[]): void {
  const seen = new Set<string>();
  for (const target of columns) {
    if (target === '') continue;
    const known =
      ['phone', 'name', 'email', 'tags', 'opted_out'].includes(target) || /^attribute:\S.{0,63}$/.test(target);
    if (!known) throw errors.validation('columns', `unknown column target "${target}"`);
    if (seen.has(target)) throw errors.validation('columns', `"${target}" is mapped to two columns`);
    seen.add(target);
  }
  if (!seen.has('phone')) throw errors.validation('columns', 'map one column to phone');
}

function parseCsv(text: string): string[][] {
  try {
    const records: string[][] = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
    return records;
  } catch (error) {
    if (error instanceof CsvError) throw errors.validation('csv', error.message);
    throw error;
  }
}

/** Spreadsheets separate a cell's tags with `,`, `;` or `|`; all three are read. */
const TAG_SEPARATORS = /[,;|]/;

/** One CSV record as an import row, or the errors that keep it out. */
function readRow(cells: string[], options: ImportOptions, row: number): ImportRow | RowError[] {
  const { columns, defaultCountry } = options;
  const problems: RowError[] = [];
  const result: ImportRow = { row, phone: '', tags: [], attributes: {} };
  columns.forEach((target, index) => {
    // A cell the export neutralised against formula injection (`'=…`) is read back without the apostrophes.
    const cell = restoreCell(cells[index] ?? '').trim();
    if (target === '' || (cell === '' && target !== 'phone')) return;
    try {
      if (target === 'phone') {
        if (cell === '') throw errors.validation('phone', 'is required');
        const phone = normalizePhone(cell, defaultCountry);
        if (!phone)
          throw errors.validation(
            'phone',
            `"${cell}" is not a valid ${defaultCountry ? '' : 'international '}phone number`,
          );
        result.phone = phone;
      } else if (target === 'name') {
        if (cell.length > MAX_NAME) throw errors.validation('name', `is longer than ${MAX_NAME} characters`);
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
      for (const { message } of error.fieldErrors) problems.push({ row, field: target, message });
    }
  });
  return problems.length > 0 ? problems : result;
}

/** The CSV import: validates every row, then upserts the good ones by phone in batches. */
export function createContactImportService(deps: Deps, tagging: Tagging) {
  const { db, newId, clock } = deps;

  /** Upserts one batch in a transaction; returns how many contacts it created. */
  async function upsertBatch(trx: Kysely<Database>, caller: Caller, batch: ImportRow[]): Promise<number> {
    const contacts = contactRepository(trx);
    const at = toStoredTimestamp(clock.now());
    const phones = batch.map((row) => row.phone);
    const before = new Map((await contacts.findByPhones(caller.workspaceId, phones)).map((r) => [r.phone, r]));
    const fresh = batch.filter((row) => !before.has(row.phone));
    if (fresh.length > 0) {
      await trx
        .insertInto('contacts')
        .values(fresh.map((row) => newContact(caller.workspaceId, row, newId(), at)))
        .onConflict((oc) => oc.columns(['workspace_id', 'phone']).doNothing())
        .execute();
    }
    const after = new Map((await contacts.findByPhones(caller.workspaceId, phones)).map((r) => [r.phone, r]));
    for (const row of batch) {
      const existing = before.get(row.phone);
      if (existing)
        await contacts.update(caller.workspaceId, existing.id, { ...changes(existing, row), updated_at: at });
    }
    const links = batch.flatMap((row) => {
      const contact = after.get(row.phone);
      return contact ? [{ contactId: contact.id, names: row.tags }] : [];
    });
    await tagging.addTags(trx, caller.workspaceId, links);
    for (const row of batch) {
      if (row.optedOut !== undefined)
        await contacts.setOptedOut(caller.workspaceId, after.get(row.phone)!.id, row.optedOut, at);
    }
    return fresh.length;
  }

  return {
    /**
     * Imports a CSV whose columns map to contact fields. Rows with errors and repeats of a phone
     * earlier in the file are skipped and reported; the rest are created or updated (blank cells
     * leave a field as it is; tags are added).
     */
    async importCsv(caller: Caller, csv: string, options: ImportOptions): Promise<ImportResult> {
      checkMapping(options.columns);
      const records = parseCsv(csv).slice(options.hasHeader ? 1 : 0);
      const { good, problems, duplicates } = readRows(records, options);
      const created = options.dryRun ? await countNew(caller, good) : await upsertAll(caller, good);
      return {
        rows: records.length,
        created,
        updated: good.length - created,
        skipped: records.length - good.length,
        duplicates,
        errors: problems.slice(0, MAX_REPORTED_ERRORS),
      };
    },
  };

  /** Writes the rows in batches, one transaction each; returns how many contacts were created. */
  async function upsertAll(caller: Caller, good: ImportRow[]): Promise<number> {
    let created = 0;
    for (let start = 0; start < good.length; start += BATCH) {
      const batch = good.slice(start, start + BATCH);
      created += await db.transaction().execute((trx) => upsertBatch(trx, caller, batch));
    }
    return created;
  }

  /** How many of the rows' phones are not yet contacts (the preview's "would be created"). */
  async function countNew(caller: Caller, good: ImportRow[]): Promise<number> {
    let known = 0;
    for (let start = 0; start < good.length; start += BATCH) {
      const phones = good.slice(start, start + BATCH).map((row) => row.phone);
      known += (await contactRepository(db).findByPhones(caller.workspaceId, phones)).length;
    }
    return good.length - known;
  }
}

/** Every record read as a row; rows with errors and repeats of a phone earlier in the file are kept out. */
function readRows(records: string[][], options: ImportOptions) {
  const firstRow = options.hasHeader ? 2 : 1;
  const problems: RowError[] = [];
  const good: ImportRow[] = [];
  const firstSeen = new Map<string, number>();
  let duplicates = 0;
  records.forEach((cells, index) => {
    const read = readRow(cells, options, firstRow + index);
    if (Array.isArray(read)) return problems.push(...read);
    const earlier = firstSeen.get(read.phone);
    if (earlier !== undefined) {
      duplicates++;
      return problems.push({ row: read.row, field: 'phone', message: `same phone as row ${earlier}; skipped` });
    }
    firstSeen.set(read.phone, read.row);
    good.push(read);
  });
  return { good, problems, duplicates };
}

const YES = /^(true|yes|y|1|opted out)$/i;
const NO = /^(false|no|n|0|subscribed)$/i;

/** An opted-out cell: yes/no in the forms spreadsheets write (our export writes true/false). */
function parseYesNo(cell: string): boolean {
  if (YES.test(cell)) return true;
  if (NO.test(cell)) return false;
  throw errors.validation('opted_out', `"${cell}" is not yes or no (true/false)`);
}

function newContact(workspaceId: string, row: ImportRow, id: string, at: string): ContactRow {
  const { phone } = row;
  const customAttributes = JSON.stringify(row.attributes);
  return newContactRow({
    id,
    workspaceId,
    phone,
    name: row.name ?? null,
    email: row.email ?? null,
    customAttributes,
    at,
  });
}

/** The fields a row changes on an existing contact: only those its cells fill. */
function changes(existing: ContactRow, row: ImportRow) {
  const attributes = JSON.parse(existing.custom_attributes) as Record<string, unknown>;
  return {
    ...(row.name !== undefined && { name: row.name }),
    ...(row.email !== undefined && { email: row.email }),
    ...(Object.keys(row.attributes).length > 0 && {
      custom_attributes: JSON.stringify(mergeAttributes(attributes, row.attributes)),
    }),
  };
}

export type ContactImportService = ReturnType<typeof createContactImportService>;
