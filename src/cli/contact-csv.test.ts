import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import type { ImportResult } from '../contacts/contact.import.js';
import type { Contact } from '../contacts/contact.schema.js';
import { cliJson, runCli, stderrLines } from '../../test/cli.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-csv-'));

async function csvFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, text);
  return file;
}

async function contact(workspace: TestWorkspace, phone: string): Promise<Contact> {
  const res = await workspace.action<Contact>('get-contact', { phone });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** A file as a spreadsheet would hold it: a header, a bad phone, a repeated phone, tags split by `;`. */
const PEOPLE = [
  'Phone,Name,Email,Tags,Opted_out,City',
  '+14155550101,Ada Lovelace,ada@example.com,vip; london,no,London',
  '+14155550102,Grace Hopper,,navy,yes,Arlington',
  'not a phone,Nobody,,,,',
  '+1 (415) 555-0101,Ada again,,,,',
  '+14155550103,,,,,',
].join('\n');

describe(`parley import / export of contacts as CSV (${ENGINE})`, () => {
  test('import FILE.csv › the header names the columns; counts, per-row errors and every field as the API shows it', async () => {
    const workspace = await createWorkspace(server);
    const existing = await workspace.action('create-contact', { phone: '+14155550103', name: 'Kept', tags: ['old'] });
    assert.equal(existing.status, 201, existing.text);

    const result = await runCli(
      server,
      'import',
      '--workspace',
      workspace.workspaceId,
      await csvFile('people.csv', PEOPLE),
    );
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as ImportResult;
    assert.deepEqual(
      { ...output, errors: output.errors.map((e) => `${e.row} ${e.field}`) },
      { rows: 5, created: 2, updated: 1, skipped: 2, duplicates: 1, errors: ['4 phone', '5 phone'] },
    );
    // Not a terminal: plain progress lines, the last one complete.
    assert.equal(stderrLines(result).at(-1), 'import: 100% (5 rows)');

    const ada = await contact(workspace, '+14155550101');
    assert.deepEqual(
      [ada.name, ada.email, ada.tags, ada.custom_attributes, ada.opted_out],
      ['Ada Lovelace', 'ada@example.com', ['london', 'vip'], { City: 'London' }, false],
    );
    assert.equal((await contact(workspace, '+14155550102')).opted_out, true);
    const kept = await contact(workspace, '+14155550103');
    assert.deepEqual([kept.name, kept.tags], ['Kept', ['old']], 'blank cells leave the contact as it was');
  });

  test('export --csv › streams the contacts; the file imports back into another workspace unchanged', async () => {
    const source = await createWorkspace(server);
    await cliJson(server, 'import', '--workspace', source.workspaceId, await csvFile('source.csv', PEOPLE));
    const exported = await runCli(server, 'export', '--workspace', source.workspaceId, '--csv');
    assert.equal(exported.code, 0, exported.stderr);
    const rows = parse<Record<string, string>>(exported.stdout, { bom: true, columns: true });
    assert.deepEqual(rows.map((row) => row.phone).sort(), ['+14155550101', '+14155550102', '+14155550103']);
    assert.deepEqual(Object.keys(rows[0]!), [
      'phone',
      'name',
      'email',
      'tags',
      'created_at',
      'last_message_at',
      'opted_out',
      'City',
    ]);

    const target = await createWorkspace(server);
    const file = await csvFile('export.csv', exported.stdout);
    const imported = await cliJson<ImportResult>(server, 'import', '--workspace', target.workspaceId, file);
    assert.deepEqual([imported.created, imported.errors], [3, []]);
    for (const { phone } of rows) {
      const [before, after] = await Promise.all([contact(source, phone!), contact(target, phone!)]);
      const fields = (c: Contact) => [c.name, c.email, c.tags, c.custom_attributes, c.opted_out];
      assert.deepEqual(fields(after), fields(before), phone);
    }
    const filtered = await runCli(server, 'export', '--workspace', source.workspaceId, '--csv', '--tag', 'navy');
    assert.deepEqual(
      parse<{ phone: string }>(filtered.stdout, { bom: true, columns: true }).map((row) => row.phone),
      ['+14155550102'],
    );
  });

  test('import › --columns without a header, --default-country, and --dry-run writes nothing', async () => {
    const workspace = await createWorkspace(server);
    const file = await csvFile('national.csv', '020 7946 0958,Ada\n07911 123456,Grace\n');
    const args = ['import', '--workspace', workspace.workspaceId, file, '--columns', 'phone,name', '--no-header'];
    const dry = await cliJson<ImportResult>(server, ...args, '--default-country', 'GB', '--dry-run');
    assert.deepEqual([dry.rows, dry.created, dry.errors], [2, 2, []]);
    assert.equal((await workspace.action('get-contact', { phone: '+442079460958' })).status, 404, 'dry run');
    const done = await cliJson<ImportResult>(server, ...args, '--default-country', 'GB');
    assert.deepEqual([done.created, done.updated], [2, 0]);
    assert.equal((await contact(workspace, '+447911123456')).name, 'Grace');
  });

  test('import › a bad mapping, an unknown country or a malformed file exits 1 with one line naming it', async () => {
    const workspace = await createWorkspace(server);
    const cases: [string[], RegExp][] = [
      [['--columns', 'name'], /^parley: columns: map one column to phone \(validation_failed\)$/],
      [['--default-country', 'XX'], /^parley: default-country: is not a country code/],
      [['--no-header'], /^parley: columns: give --columns for a file without a header row/],
    ];
    const file = await csvFile('plain.csv', 'phone\n+14155550101\n');
    for (const [options, pattern] of cases) {
      const result = await runCli(server, 'import', '--workspace', workspace.workspaceId, file, ...options);
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(stderrLines(result).length, 1, result.stderr);
      assert.match(stderrLines(result)[0]!, pattern);
    }
    const broken = await csvFile('broken.csv', 'phone,name\n+14155550101,"Ada\n');
    const result = await runCli(server, 'import', '--workspace', workspace.workspaceId, broken);
    assert.equal(result.code, 1, result.stderr);
    assert.match(stderrLines(result).at(-1)!, /^parley: csv: .*quote.* \(validation_failed\)$/i);
  });
});
