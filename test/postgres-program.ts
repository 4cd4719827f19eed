import fs from 'node:fs';
import path from 'node:path';

/**
 * A PostgreSQL client program (psql, pg_dump): the newest in Debian's /usr/lib/postgresql/<n>/bin, where
 * the server binaries the tests use live, else the one on PATH.
 */
export function postgresProgram(program: string): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(base, v, 'bin', program)).find((file) => fs.existsSync(file));
  return found ?? program;
}
