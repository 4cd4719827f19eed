/**
 * `npm run bench:backup`: `parley backup` and `parley restore` of a SQLite database holding
 * BENCH_BACKUP_MESSAGES messages (default 1,000,000), through the real CLI, beside the same-run
 * baselines `sqlite3 .backup` (when on PATH) and a plain `cp` of the file (the floor).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLITE_FILE } from '../src/db/connection.js';
import { registerDigitGrams } from '../src/db/digit-grams.js';
import { SQLiteDatabase } from '../src/db/sqlite-driver.js';
import { machine, writeMarkdown } from './report.js';

const MESSAGES = Number(process.env.BENCH_BACKUP_MESSAGES ?? 1_000_000);
const BIN = path.resolve('bin/parley.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-backup-'));
const dataDir = path.join(dir, 'data');
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };

function parley(args: string[], environment: NodeJS.ProcessEnv = env): void {
  execFileSync(process.execPath, [BIN, ...args], { env: environment, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Seconds `run` took, wall clock. */
function timed(run: () => void): number {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
}

/** One contact and MESSAGES messages written straight into the table (the backup copies pages, not rows). */
function seed(): void {
  parley(['setup', '--workspace', 'Bench', '--email', 'bench@example.com', '--password', 'correct horse battery']);
  const db = new SQLiteDatabase(path.join(dataDir, SQLITE_FILE));
  registerDigitGrams(db);
  const { id } = db.prepare('select id from workspaces limit 1').get() as { id: string };
  const at = new Date().toISOString();
  db.prepare(
    `insert into contacts (id, workspace_id, phone, custom_attributes, created_at, updated_at) values ('c1', ?, '+14155550100', '{}', ?, ?)`,
  ).run(id, at, at);
  db.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     insert into messages (id, workspace_id, contact_id, direction, type, content, status, created_at, updated_at)
     select 'm' || i, ?, 'c1', 'outbound', 'text',
            '{"body":"message ' || i || ', a line of text as customers write them","preview_url":false}', 'sent', ?, ? from n`,
  ).run(MESSAGES, id, at, at);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const startedAt = new Date();
seed();
const source = path.join(dataDir, SQLITE_FILE);
const megabytes = fs.statSync(source).size / 1024 ** 2;
const rows: [string, number][] = [
  ['`parley backup FILE`', timed(() => parley(['backup', path.join(dir, 'parley.backup')]))],
  [
    '`parley restore FILE` (into an empty DATA_DIR, with its integrity check)',
    timed(() => parley(['restore', path.join(dir, 'parley.backup')], { ...env, DATA_DIR: path.join(dir, 'restored') })),
  ],
  [
    'baseline: `cp` of the database file (the floor, not safe while a server writes)',
    timed(() => fs.copyFileSync(source, path.join(dir, 'copy.db'))),
  ],
];
try {
  rows.push([
    'baseline: `sqlite3 parley.db ".backup FILE"` (stepwise online backup)',
    timed(() => execFileSync('sqlite3', [source, `.backup ${path.join(dir, 'sqlite3.backup')}`])),
  ]);
} catch {
  // sqlite3's shell is not installed: the cp floor remains the baseline.
}
fs.rmSync(dir, { recursive: true, force: true });

const table = [
  `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`BENCH_BACKUP_MESSAGES=${MESSAGES} npm run bench:backup\``,
  '',
  `Machine: ${machine()}. Database: ${MESSAGES.toLocaleString('en')} messages, ${megabytes.toFixed(0)} MB, no server running.`,
  '',
  '| operation | seconds |',
  '| --- | --- |',
  ...rows.map(([name, seconds]) => `| ${name} | ${seconds.toFixed(2)} |`),
].join('\n');
console.log(table);
writeMarkdown('BENCHMARKS.md', table, 'bench-backup', 'npm run bench:backup');
