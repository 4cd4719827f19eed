/**
 * `npm run bench:import`: a contacts CSV (names, emails, tags, two attributes) through the real
 * `parley import` and `parley export --csv`, against a fresh data directory (and a fresh PostgreSQL
 * cluster), with the engine's own bulk load of the same file as the same-run floor:
 * `sqlite3 .import` into a plain table, PostgreSQL's `\copy`. Peak memory is GNU time's maximum RSS.
 *
 *   BENCH_IMPORT_CONTACTS=1000000 BENCH_ENGINES=sqlite,postgres npm run bench:import
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Engine } from './config.js';
import { WorkspaceDataset } from './dataset.js';
import { parleyCli, startPostgres } from './processes.js';
import { writeMarkdown } from './report.js';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const CONTACTS = Number(process.env.BENCH_IMPORT_CONTACTS ?? 1_000_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
const PG_PORT = Number(process.env.BENCH_IMPORT_PG_PORT ?? 54390);
const TARGETS: Record<Engine, number> = { sqlite: 60, postgres: 90 };
const EXPORT_TARGET_SECONDS = 30;
const MEMORY_TARGET_MIB = 500;

const SEGMENTS = ['spring-sale', 'newsletter', 'vip', 'wholesale', 'returning', 'trial', 'b2b', 'event-2026'];
const CITIES = ['London', 'Lisbon', 'Berlin', 'Lagos', 'Mumbai', 'São Paulo', 'Toronto', 'Osaka', 'Kraków', 'Nairobi'];

/** The file a user would export from a CRM: a header, names, emails, two tags and two attributes per row. */
async function writeCsv(file: string): Promise<number> {
  const dataset = new WorkspaceDataset({ seed: 22, area: 415, contacts: CONTACTS, messages: 0, endMs: Date.now() });
  const out = fs.createWriteStream(file);
  out.write('phone,name,email,tags,city,plan\n');
  let chunk = '';
  for (let i = 0; i < CONTACTS; i++) {
    const contact = dataset.contact(i);
    const tags = `customer;${SEGMENTS[i % SEGMENTS.length]}`;
    const plan = i % 3 === 0 ? 'free' : 'pro';
    chunk += `${contact.phone},${contact.name ?? ''},${contact.email ?? ''},${tags},${CITIES[i % CITIES.length]},${plan}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  await new Promise<void>((resolve, reject) => out.end(chunk, () => resolve()).once('error', reject));
  return fs.statSync(file).size;
}

interface Timed {
  seconds: number;
  /** User + system CPU seconds: on a shared machine, the figure that the other loads do not inflate. */
  cpuSeconds: number;
  peakMiB: number;
  stdout: string;
}

/** Runs the real CLI under GNU time: wall seconds, peak RSS, and stdout (kept in a file, not in memory). */
function timedParley(args: string[], env: NodeJS.ProcessEnv, stdoutFile: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const out = fs.openSync(stdoutFile, 'w');
    const child = spawn('/usr/bin/time', ['-v', process.execPath, 'bin/parley.js', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', out, 'pipe'],
    }) as ChildProcessByStdio<null, null, Readable>;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      fs.closeSync(out);
      if (code !== 0) return reject(new Error(`parley ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const stdout = fs.statSync(stdoutFile).size < 1 << 20 ? fs.readFileSync(stdoutFile, 'utf8') : '';
      const cpu = ['User', 'System'].map((kind) =>
        Number(new RegExp(`${kind} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1]),
      );
      resolve({ seconds, cpuSeconds: cpu[0]! + cpu[1]!, peakMiB: Number(peak?.[1] ?? 0) / 1024, stdout });
    });
  });
}

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** The engine's own load of the same file into a table without indexes: the floor no import can beat. */
async function floorSeconds(engine: Engine, file: string, dir: string, databaseUrl: string | undefined) {
  if (engine === 'sqlite') {
    const db = path.join(dir, 'floor.db');
    const args = [db, '-cmd', 'PRAGMA journal_mode=WAL', '-cmd', '.mode csv', `.import ${file} people`];
    return seconds(() => run('sqlite3', args));
  }
  const create = 'CREATE TABLE people (phone text, name text, email text, tags text, city text, plan text)';
  await run('psql', [databaseUrl!, '-qc', create]);
  return seconds(() => run('psql', [databaseUrl!, '-qc', `\\copy people FROM '${file}' CSV HEADER`]));
}

interface EngineFigures {
  engine: Engine;
  importSeconds: number;
  importCpuSeconds: number;
  importPeakMiB: number;
  created: number;
  exportSeconds: number;
  exportCpuSeconds: number;
  exportPeakMiB: number;
  exportedRows: number;
  floorSeconds: number;
}

async function measure(engine: Engine, file: string): Promise<EngineFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-import-${engine}-`));
  const postgres = engine === 'postgres' ? await startPostgres(PG_PORT) : null;
  try {
    const env = {
      ...process.env,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    } as NodeJS.ProcessEnv;
    if (!postgres) delete env.DATABASE_URL;
    const setup = await parleyCli(
      ['setup', '--workspace', 'Import bench', '--email', 'bench@example.com', '--password', 'correct horse battery'],
      env,
    );
    const workspace = (setup.workspace as { id: string }).id;
    const imported = await timedParley(['import', '--workspace', workspace, file], env, path.join(dir, 'import.json'));
    const result = JSON.parse(imported.stdout) as { created: number; errors: unknown[] };
    const exportFile = path.join(dir, 'export.csv');
    const exported = await timedParley(['export', '--workspace', workspace, '--csv'], env, exportFile);
    const exportedRows = fs.readFileSync(exportFile, 'utf8').split('\n').length - 2; // header, final newline
    const floor = await floorSeconds(engine, file, dir, postgres?.url);
    const figures = {
      engine,
      importSeconds: imported.seconds,
      importCpuSeconds: imported.cpuSeconds,
      importPeakMiB: imported.peakMiB,
      created: result.created,
      exportSeconds: exported.seconds,
      exportCpuSeconds: exported.cpuSeconds,
      exportPeakMiB: exported.peakMiB,
      exportedRows,
      floorSeconds: floor,
    };
    console.log(figures);
    return figures;
  } finally {
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** The targets are for 1,000,000 contacts: a smaller run gets no verdict. */
const mark = (pass: boolean) => (CONTACTS < 1_000_000 ? '' : pass ? '✅' : '❌');

/** One engine's block (each engine's is written on its own, so a run of one engine keeps the other's). */
function markdown(f: EngineFigures, fileMiB: number): string {
  const rate = f.created / f.importSeconds;
  const row =
    `| ${f.engine} | ${n(f.importSeconds, 1)} s (${n(rate)}/s) ${mark(f.importSeconds <= TARGETS[f.engine])} ≤ ${TARGETS[f.engine]} s, CPU ${n(f.importCpuSeconds, 1)} s ` +
    `| ${n(f.importPeakMiB)} MiB ${mark(f.importPeakMiB < MEMORY_TARGET_MIB)} ` +
    `| ${n(f.exportSeconds, 1)} s ${mark(f.exportSeconds <= EXPORT_TARGET_SECONDS)}, CPU ${n(f.exportCpuSeconds, 1)} s (${n(f.exportPeakMiB)} MiB) ` +
    `| ${n(f.floorSeconds, 1)} s |`;
  return [
    `**${f.engine}** run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`BENCH_IMPORT_CONTACTS=${CONTACTS} npm run bench:import\`, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average at the end ${n(os.loadavg()[0]!, 1)} (the machine is shared).`,
    '',
    `${n(CONTACTS)} contacts in a ${n(fileMiB, 1)} MiB CSV (name, email, two tags, two attributes), into a new workspace ` +
      'through `parley import FILE.csv`, then `parley export --csv` of the same workspace; wall time of the real CLI, ' +
      "CPU (user + system, of the CLI process alone: the PostgreSQL server's work is not counted) and peak RSS from `/usr/bin/time -v`. Floor: the engine loading the same file into a table with no index " +
      '(`sqlite3 .import`, PostgreSQL `\\copy`), same run.',
    '',
    '| engine | `parley import` | import peak RSS (< 500 MiB) | `parley export --csv` (≤ 30 s) | floor: bare load of the file |',
    '|---|---|---|---|---|',
    row,
  ].join('\n');
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-import-'));
try {
  const file = path.join(dir, 'contacts.csv');
  const bytes = await writeCsv(file);
  console.log(`wrote ${n(CONTACTS)} contacts, ${n(bytes / 2 ** 20, 1)} MiB`);
  for (const engine of ENGINES) {
    const figures = await measure(engine, file);
    const block = `bench-import-${engine}`;
    writeMarkdown(path.join(ROOT, 'BENCHMARKS.md'), markdown(figures, bytes / 2 ** 20), block, 'npm run bench:import');
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
