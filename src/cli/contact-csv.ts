import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { contactsCsv, type ImportResult } from '../contacts/index.js';
import type { Services } from '../services.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { isPhoneCountry } from '../shared/phone.js';
import { progressOn } from './progress.js';

type Options = Record<string, string | boolean | undefined>;

function columnsOption(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((column) => column.trim());
}

function countryOption(value: string | undefined) {
  if (value === undefined) return undefined;
  if (!isPhoneCountry(value)) throw errors.validation('default-country', 'is not a country code such as GB or IN');
  return value;
}

/**
 * Imports a contacts CSV, streamed (the file is never held whole), with a progress bar on stderr.
 * Without --columns the header row names the columns, as the CSV export writes them.
 */
export async function importCsvFile(
  services: Services,
  caller: Caller,
  file: string,
  options: Options,
): Promise<ImportResult> {
  const columns = columnsOption(options.columns as string | undefined);
  const hasHeader = options['no-header'] === undefined;
  if (!columns && !hasHeader) throw errors.validation('columns', 'give --columns for a file without a header row');
  const defaultCountry = countryOption(options['default-country'] as string | undefined);
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch (error) {
    throw errors.validation(file, `cannot be read (${(error as Error).message})`);
  }
  const source = fs.createReadStream(file);
  const progress = progressOn(process.stderr, 'import', size);
  const result = await services.contactViews.imports.importCsv(
    caller,
    source,
    { columns, hasHeader, defaultCountry, dryRun: options['dry-run'] !== undefined },
    (rows) => progress.update(source.bytesRead, rows),
  );
  progress.finish(result.rows);
  return result;
}

/** Writes the workspace's contacts (those matching --query/--tag) to stdout as the dashboard's CSV export. */
export async function exportCsv(services: Services, caller: Caller, options: Options): Promise<void> {
  const filter = { query: options.query as string | undefined, tag: options.tag as string | undefined };
  const { dashboard } = services.contactViews;
  const attributeKeys = await dashboard.attributeKeys(caller, filter);
  try {
    await pipeline(contactsCsv(dashboard.all(caller, filter), attributeKeys), process.stdout);
  } catch (error) {
    // A reader that stops early (`| head`) has what it wanted: not a failed export.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}
