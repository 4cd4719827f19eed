// The CSV options of `parley import` and `parley export`, apart from contact-csv.ts so the CLI's
// start-up does not load the CSV and phone libraries for every command.

/** `parley import`'s options for a CSV file (a JSON document takes none of them). */
export const CSV_IMPORT_OPTIONS = {
  columns: { type: 'string' },
  'no-header': { type: 'boolean' },
  'default-country': { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

/** `parley export`'s options for the contacts as CSV. */
export const CSV_EXPORT_OPTIONS = {
  csv: { type: 'boolean' },
  query: { type: 'string' },
  tag: { type: 'string' },
} as const;

/** A file `parley import` reads as a contacts CSV rather than a workspace document. */
export const isCsvFile = (file: string) => /\.csv$/i.test(file);
