import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `name`, a module beside the calling one (pass the caller's `import.meta.url`).
 * From source, the worker registers tsx before importing the TypeScript: Node 20 does not apply the
 * parent's `--import` hooks to a worker's entry. In the bundle the module is an entry point of its own,
 * built as `<name>.js` beside the chunk that calls this (bin/bundle.js).
 */
export function moduleWorker(callerUrl: string, name: string, workerData: unknown): Worker {
  // No flags of the parent's: an inherited `--input-type=module` keeps a worker from starting.
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), { execArgv: [], workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, execArgv: [], workerData });
}
