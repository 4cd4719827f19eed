/** The most submissions one batch takes; the rest wait for the next (bounds a batch's latency). */
const MAX_BATCH = 200;

interface Submission<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: submissions that arrive while a batch is being written wait and are written together
 * in the next one. Under load one transaction (and one commit) serves many callers instead of one each;
 * with no load a submission is written on the next turn of the event loop. When a batch fails, its
 * submissions are written again one by one, so one bad submission fails only its own caller.
 */
export function groupCommit<Item, Result>(
  writeBatch: (items: Item[]) => Promise<Result[]>,
): (item: Item) => Promise<Result> {
  let pending: Submission<Item, Result>[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    try {
      const results = await writeBatch(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const entry of batch) await writeAlone(entry);
    }
    if (pending.length > 0) setImmediate(() => void flush());
    else scheduled = false;
  }

  async function writeAlone(entry: Submission<Item, Result>): Promise<void> {
    try {
      entry.resolve((await writeBatch([entry.item]))[0]!);
    } catch (error) {
      entry.reject(error);
    }
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => void flush());
    });
}
