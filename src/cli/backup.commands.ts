import type { Command } from './commands.js';

/**
 * `parley backup FILE` and `parley restore FILE`: the embedded database through SQLite's online
 * backup API, PostgreSQL through pg_dump / pg_restore. Their modules load only when run.
 */
export const BACKUP_COMMANDS: Command[] = [
  {
    name: 'backup',
    usage: 'FILE',
    options: {},
    positionals: 1,
    // While servers run: what was committed before the copy began is in it.
    async run({ config, positionals: [file] }) {
      if (config.databaseUrl) {
        const { backupPostgres } = await import('../backup/postgres-backup.js');
        return { engine: 'postgres', ...(await backupPostgres(config.databaseUrl, file!)) };
      }
      const { backupSqlite } = await import('../backup/sqlite-backup.js');
      return { engine: 'sqlite', ...(await backupSqlite(config.dataDir, file!)) };
    },
  },
  {
    name: 'restore',
    usage: 'FILE',
    options: {},
    positionals: 1,
    // Only into an empty DATA_DIR / database: never under a running server.
    async run({ config, positionals: [file] }) {
      if (config.databaseUrl) {
        const { restorePostgres } = await import('../backup/postgres-backup.js');
        return { engine: 'postgres', ...(await restorePostgres(file!, config.databaseUrl)) };
      }
      const { restoreSqlite } = await import('../backup/sqlite-backup.js');
      return { engine: 'sqlite', ...(await restoreSqlite(file!, config.dataDir)) };
    },
  },
];
