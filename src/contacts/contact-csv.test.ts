import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

/** Names a spreadsheet would run as a formula, read with `,` or (as many European locales do) with `;`. */
const HOSTILE_NAMES = [
  '=1+2',
  '+SUM(A1)',
  '-2+3',
  '@cmd',
  '\tTab',
  'Ada;=HYPERLINK("https://evil.example")',
  'Ada; ok;+cmd|calc;',
  'x;-1;@y',
];

/** Where a cell could start a formula: at its start, or (read with `;`) at any part's start. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_PHONE = /^\+\d{1,15}$/;

async function exportCsv(session: DashboardSession): Promise<string> {
  const res = await session.send<string>('GET', '/api/dashboard/contacts/export.csv');
  assert.equal(res.status, 200, res.text);
  return res.text;
}

async function importCsv(session: DashboardSession, csv: string) {
  return session.send<{ created: number; errors: { field: string }[] }>('POST', '/api/dashboard/contacts/import', {
    csv,
    columns: ['phone', 'name', '', '', '', '', ''],
  });
}

/** A row kept out (with its row), or the field problem that refused the whole import. */
interface ImportProblem {
  row?: number;
  field: string;
  message: string;
  code?: string;
  params?: object;
}

describe(`contacts CSV (${ENGINE})`, () => {
  test('export › no cell starts a formula, read with "," or with ";", and the import reads the names back', async () => {
    const session = await ownerSession(server);
    for (const [i, name] of HOSTILE_NAMES.entries()) {
      const phone = `+1415555${String(i).padStart(4, '0')}`;
      const created = await session.send('POST', '/api/v1/actions/create-contact', { phone, name });
      assert.equal(created.status, 201, created.text);
    }
    const csv = await exportCsv(session);
    const asFormulas = (cells: string[]) => cells.filter((cell) => FORMULA_START.test(cell) && !PLAIN_PHONE.test(cell));
    const byComma: string[][] = parse(csv);
    assert.deepEqual(asFormulas(byComma.flat()), [], 'read with ","');
    const bySemicolon: string[][] = parse(csv, { delimiter: ';', relax_quotes: true, relax_column_count: true });
    assert.deepEqual(asFormulas(bySemicolon.flatMap((row) => row.slice(1))), [], 'read with ";"');
    for (const [first, ...rest] of bySemicolon) {
      // Read with ";", a row's first part starts with its phone: it must stop inside an open quote, no formula.
      if (rest.length > 0) assert.equal(first!.split('"').length % 2, 0, `an open quote ends ${first}`);
    }
    const rows = parse<{ name: string }>(csv, { columns: true });
    const semicolons = rows.filter((row) => row.name.includes(';')).map((row) => row.name);
    assert.equal(semicolons.length, 3, csv);
    for (const name of semicolons) assert.ok(csv.includes(`,"${name.replaceAll('"', '""')}",`), `quoted: ${name}`);

    const other = await ownerSession(server);
    const imported = await importCsv(other, csv);
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual([imported.body.created, imported.body.errors], [HOSTILE_NAMES.length, []]);
    const listed = await other.send<{ contacts: { name: string }[] }>('GET', '/api/dashboard/contacts');
    assert.deepEqual(
      listed.body.contacts.map((contact) => contact.name).sort(),
      HOSTILE_NAMES.map((name) => name.trim()).sort(),
      'the import takes the neutralising apostrophes out again (and trims cells, as always)',
    );
  });

  test('import › a lone UTF-16 surrogate in the CSV is a 400 naming csv, and nothing is imported', async () => {
    const session = await ownerSession(server);
    const res = await importCsv(session, 'phone,name\n+14155550100,Ada \ud800\n');
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(
      res.body.errors.map((e) => e.field),
      ['csv'],
    );
    const contacts = await session.send<{ contacts: unknown[] }>('GET', '/api/dashboard/contacts');
    assert.deepEqual(contacts.body.contacts, []);
  });

  // Text past a quarter of a megabyte is read on a worker thread (contact.import.ts): the same rules hold there.
  const largeCsv = (rows: number, last = '') => {
    const lines = ['phone,name'];
    for (let i = 0; i < rows; i++) lines.push(`+1415${String(2000000 + i)},Customer number ${i} of a long list`);
    return `${lines.join('\n')}\n${last}`;
  };
  const importLarge = (session: DashboardSession, csv: string) =>
    session.send<{ created: number; skipped: number; duplicates: number; errors: ImportProblem[] }>(
      'POST',
      '/api/dashboard/contacts/import',
      { csv, columns: ['phone', 'name'] },
    );

  test('import › a large file creates every good row and names each bad one by its row', async () => {
    const session = await ownerSession(server);
    const csv = largeCsv(12_000, '+1415not-a-number,Bad\n+14152000007,Again\n');
    assert.ok(csv.length > 256 * 1024);
    const res = await importLarge(session, csv);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.created, 12_000);
    assert.equal(res.body.skipped, 2);
    assert.equal(res.body.duplicates, 1);
    assert.deepEqual(
      res.body.errors.map((e) => [e.row, e.field]),
      [
        [12_002, 'phone'],
        [12_003, 'phone'],
      ],
    );
  });

  test('import › a large file with a malformed line is a 400 naming csv, and nothing is imported', async () => {
    const session = await ownerSession(server);
    const res = await importLarge(session, largeCsv(12_000, '+14159999999,"an unclosed quote\n'));
    assert.equal(res.status, 400, res.text);
    const [problem] = res.body.errors;
    assert.deepEqual(
      problem && [problem.field, problem.code, problem.params],
      ['csv', 'contacts.malformed_csv', { reason: problem?.message }],
      "the parser's own words, under the code the dashboard words it by",
    );
    assert.match(problem!.message, /quote/i);
    const contacts = await session.send<{ contacts: unknown[] }>('GET', '/api/dashboard/contacts');
    assert.deepEqual(contacts.body.contacts, []);
  });

  test('import › asked for progress, the rows read come line by line as batches are written, then the result', async () => {
    const session = await ownerSession(server);
    const ndjson = { accept: 'application/x-ndjson, application/json' };
    const res = await session.send<string>(
      'POST',
      '/api/dashboard/contacts/import',
      { csv: largeCsv(25_000), columns: ['phone', 'name'] },
      ndjson,
    );
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { progress?: { rows_read: number }; result?: { created: number } });
    assert.deepEqual(
      lines.slice(0, -1).map((line) => line.progress?.rows_read),
      [10_000, 20_000, 25_000],
    );
    assert.equal(lines.at(-1)?.result?.created, 25_000);

    // A refusal before any row is written is still a plain problem document.
    const refused = await session.send<{ errors: object[] }>(
      'POST',
      '/api/dashboard/contacts/import',
      { csv: 'phone\n+14155550100\n', columns: ['name'] },
      ndjson,
    );
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body.errors, [
      { field: 'columns', message: 'map one column to phone', code: 'contacts.no_phone_column' },
    ]);
  });
});
