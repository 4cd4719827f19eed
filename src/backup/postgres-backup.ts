import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { errors } from '../shared/errors.js';
import type { Copied } from './sqlite-backup.js';

/** What an operator runs by hand where the client tools are not on PATH (docs/deployment.md "Backups"). */
const BY_HAND: Record<string, string> = {
  pg_dump: 'pg_dump --format=custom --no-owner --file FILE "$DATABASE_URL"',
  pg_restore: 'pg_restore --no-owner --exit-on-error --single-transaction --dbname "$DATABASE_URL" FILE',
};

/**
 * pg_dump of DATABASE_URL in its custom format (one consistent snapshot while servers write),
 * written beside `file` and renamed once complete. The password travels in PGPASSWORD, not argv.
 */
export async function backupPostgres(databaseUrl: string, file: string): Promise<Copied> {
  if (fs.existsSync(file)) throw errors.validation(file, 'already exists; name a new file');
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'wx', 0o600));
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${partial}`], databaseUrl);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { file: path.resolve(file), bytes: fs.statSync(file).size };
}

/**
 * pg_restore of a `parley backup` file into DATABASE_URL, which must hold no Parley schema yet
 * (a new, empty database): never over a database a server may be using.
 */
export async function restorePostgres(file: string, databaseUrl: string): Promise<Copied> {
  if (!fs.existsSync(file)) throw errors.validation(file, 'does not exist');
  // Read its table of contents first, so a wrong file is named as such before the database is touched.
  await run('pg_restore', ['--list', file], null).catch((error: unknown) => {
    if (error instanceof MissingProgram) throw error;
    throw errors.validation(file, 'is not a Parley PostgreSQL backup (made by `parley backup`)');
  });
  if (await holdsParley(databaseUrl)) {
    throw errors.conflict(
      'DATABASE_URL already holds a Parley database: restore into a new, empty database (createdb), then point the servers at it',
    );
  }
  await run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', file], databaseUrl);
  return { file: path.resolve(file), bytes: fs.statSync(file).size };
}

async function holdsParley(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`select to_regclass('kysely_migration') is not null as found`);
    return (rows[0] as { found: boolean }).found;
  } finally {
    await client.end();
  }
}

/** PostgreSQL's client tools are not installed here: the operator is told the command to run elsewhere. */
class MissingProgram extends Error {
  constructor(program: string) {
    super(`${program} is not on PATH: install PostgreSQL's client tools, or run ${BY_HAND[program]} where they are`);
  }
}

/** Runs a PostgreSQL client program (against `databaseUrl`, if given); its stderr becomes the error. */
function run(program: string, args: string[], databaseUrl: string | null): Promise<void> {
  const url = databaseUrl ? new URL(databaseUrl) : null;
  const password = url ? decodeURIComponent(url.password) : '';
  if (url) url.password = '';
  const env = { ...process.env, ...(password && { PGPASSWORD: password }) };
  const target = url ? [`--dbname=${url.toString()}`] : [];
  return new Promise((resolve, reject) => {
    execFile(program, [...args, ...target], { env, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new MissingProgram(program));
      }
      reject(new Error(`${program} failed: ${stderr.trim() || error.message}`));
    });
  });
}
