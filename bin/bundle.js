// Parley's code as a JavaScript bundle that esbuild makes on first use and again whenever a source file
// changes: the CLI (bin/parley.js) and the container's server (bin/server.js) load it instead of the
// ~400 TypeScript modules through tsx's loader hooks, which took most of a command's time and, on a slow
// machine, held a starting server deaf to signals for seconds (docs/decisions/0129-container-image.md). Should the bundle not
// be made (a read-only install), the entry runs through tsx as before.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.join(import.meta.dirname, '..');
const sources = path.join(root, 'src');
// Each build is a folder two levels below the root, like src/cli/, so the code's paths relative to its own
// file (web/dist, package.json) resolve the same from the bundle.
const builds = path.join(root, '.build');
const PREFIX = 'bundle-';

/** The bundle's entries, by the name of their file in a build. */
const ENTRIES = {
  cli: 'cli/main.ts',
  server: 'main.ts',
  // Worker threads' modules are entries of their own (src/shared/module-worker.ts finds them by name).
  'contact.import.worker': 'contacts/contact.import.worker.ts',
};

/** A digest of every source file's path, size and modification time: a new one means rebuild. */
function fingerprint() {
  const hash = createHash('sha256');
  for (const entry of fs.readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size, mtimeMs } = fs.statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return `${PREFIX}${hash.digest('hex').slice(0, 16)}`;
}

/**
 * The current build's folder, built if missing. Split at the code's dynamic imports, so a command still
 * loads only the packages it uses. Built in a temporary folder and renamed, so a concurrent run never
 * reads half.
 */
async function currentBuild() {
  const name = fingerprint();
  const folder = path.join(builds, name);
  if (fs.existsSync(folder)) return folder;
  const { build } = await import('esbuild');
  const temporary = path.join(builds, `${name}.${process.pid}.tmp`);
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, file]) => [out, path.join(sources, file)])),
    outdir: temporary,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  try {
    fs.renameSync(temporary, folder);
  } catch {
    fs.rmSync(temporary, { recursive: true, force: true }); // another run renamed its copy first
  }
  for (const old of fs.readdirSync(builds)) {
    if (old !== name && !old.endsWith('.tmp')) fs.rmSync(path.join(builds, old), { recursive: true, force: true });
  }
  return folder;
}

/** Runs entry `name` of ENTRIES: from the current bundle, or through tsx when none can be made. */
export async function runEntry(name) {
  let folder;
  try {
    folder = await currentBuild();
  } catch {
    folder = undefined;
  }
  if (folder) {
    await import(pathToFileURL(path.join(folder, `${name}.js`)).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(path.join(sources, ENTRIES[name])).href);
  }
}
