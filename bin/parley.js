#!/usr/bin/env node
// The `parley` command. It runs the TypeScript CLI from a JavaScript bundle that esbuild makes on first
// use and again whenever a source file changes. Loading the ~400 modules through tsx's loader hooks took
// most of each command's time; the bundle loads as a few files, its packages natively (docs/decisions.md).
// Should the bundle not be made (a read-only install), the CLI runs through tsx as before.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.join(import.meta.dirname, '..');
const sources = path.join(root, 'src');
// Each build is a folder two levels below the root, like src/cli/, so the code's paths relative to its own
// file (web/dist, package.json) resolve the same from the bundle.
const builds = path.join(root, '.build');

/** A digest of every source file's path, size and modification time: a new one means rebuild. */
function fingerprint() {
  const hash = createHash('sha256');
  for (const entry of fs.readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size, mtimeMs } = fs.statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return `cli-${hash.digest('hex').slice(0, 16)}`;
}

/**
 * The current bundle, built if missing. Split at the code's dynamic imports, so a command still loads
 * only the packages it uses. Built in a temporary folder and renamed, so a concurrent run never reads half.
 */
async function currentBundle() {
  const name = fingerprint();
  const entry = path.join(builds, name, 'main.js');
  if (fs.existsSync(entry)) return entry;
  const { build } = await import('esbuild');
  const temporary = path.join(builds, `${name}.${process.pid}.tmp`);
  await build({
    // Worker threads' modules are entries of their own (src/shared/module-worker.ts finds them by name).
    entryPoints: {
      main: path.join(sources, 'cli', 'main.ts'),
      'contact.import.worker': path.join(sources, 'contacts', 'contact.import.worker.ts'),
    },
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
    fs.renameSync(temporary, path.join(builds, name));
  } catch {
    fs.rmSync(temporary, { recursive: true, force: true }); // another run renamed its copy first
  }
  for (const old of fs.readdirSync(builds)) {
    if (old.startsWith('cli-') && old !== name && !old.endsWith('.tmp')) {
      fs.rmSync(path.join(builds, old), { recursive: true, force: true });
    }
  }
  return entry;
}

let bundle;
try {
  bundle = await currentBundle();
} catch {
  bundle = undefined;
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
