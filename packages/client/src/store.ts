import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where a poller keeps the id of the last record it delivered, one per feed (see `poll`). An empty
 * string is a valid value: "the feed was empty when polling started, every record is new".
 */
export interface CursorStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, id: string): Promise<void>;
}

/** A store that lives as long as the process: for tests, or for pollers that may start over. */
export function memoryStore(): CursorStore {
  const ids = new Map<string, string>();
  return {
    get: (key) => Promise.resolve(ids.get(key)),
    set: (key, id) => {
      ids.set(key, id);
      return Promise.resolve();
    },
  };
}

/**
 * A store in one JSON file (`{ "<key>": "<id>" }`), written to a temporary file, flushed and renamed
 * after each change so a crash leaves either the old or the new content. One process per file.
 */
export function fileStore(file: string): CursorStore {
  let ids: Promise<Record<string, string>> | undefined;
  let writes = Promise.resolve();
  const load = () => (ids ??= readIds(file));
  return {
    get: async (key) => (await load())[key],
    set: async (key, id) => {
      const current = await load();
      current[key] = id;
      // Writes run one after another, so a slower earlier write never overwrites a later one.
      const write = writes.then(() => writeAtomically(file, JSON.stringify(current, null, 2)));
      writes = write.catch(() => undefined);
      await write;
    },
  };
}

async function readIds(file: string): Promise<Record<string, string>> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const handle = await fs.open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
}
