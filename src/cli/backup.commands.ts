import type { Config } from '../config.js';
import type { Command } from './commands.js';

/**
 * `parley backup FILE` and `parley restore FILE`: the embedded database through SQLite's online
 * backup API, PostgreSQL through pg_dump / pg_restore, and the filesystem media store's files in
 * the folder `FILE.media/` beside FILE. Their modules load only when run.
 */
export const BACKUP_COMMANDS: Command[] = [
  {
    name: 'backup',
    usage: 'FILE',
    options: {},
    positionals: 1,
    // While servers run: what was committed before the copy began is in it.
    async run({ config, positionals: [file] }) {
      const { backupMedia, refuseExistingMediaFolder } = await import('../backup/media-backup.js');
      refuseExistingMediaFolder(file!);
      const database = await backupDatabase(config, file!);
      return { ...database, media: await backupMedia(config.mediaStorage, config.dataDir, file!) };
    },
  },
  {
    name: 'restore',
    usage: 'FILE',
    options: {},
    positionals: 1,
    // Only into an empty DATA_DIR / database: never under a running server.
    async run({ config, positionals: [file] }) {
      const { restoreMedia } = await import('../backup/media-backup.js');
      const database = await restoreDatabase(config, file!);
      return { ...database, media: await restoreMedia(config.mediaStorage, file!, config.dataDir) };
    },
  },
];

/** The database's copy: the media files are copied after it, so every file it records is there. */
async function backupDatabase(config: Config, file: string) {
  if (config.databaseUrl) {
    const { backupPostgres } = await import('../backup/postgres-backup.js');
    return { engine: 'postgres', ...(await backupPostgres(config.databaseUrl, file)) };
  }
  const { backupSqlite } = await import('../backup/sqlite-backup.js');
  return { engine: 'sqlite', ...(await backupSqlite(config.dataDir, file)) };
}

async function restoreDatabase(config: Config, file: string) {
  if (config.databaseUrl) {
    const { restorePostgres } = await import('../backup/postgres-backup.js');
    return { engine: 'postgres', ...(await restorePostgres(file, config.databaseUrl)) };
  }
  const { restoreSqlite } = await import('../backup/sqlite-backup.js');
  return { engine: 'sqlite', ...(await restoreSqlite(file, config.dataDir)) };
}
