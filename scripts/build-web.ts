import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * Builds the dashboard (web/) into web/dist: a minified ES module for the first load, one chunk per
 * lazily loaded page group (router.tsx `lazy`), the stylesheet and the flow builder's own (linked when the
 * builder loads), plus their gzip'd twins that the server hands to browsers accepting gzip. Runs on
 * `npm ci` (prepare), `npm start` and `npm test`, so a fresh clone never serves a stale or missing front
 * end — and skips the build (seconds of CPU before `npm start` answers) when nothing it reads has changed
 * since web/dist was built. `--force` builds regardless.
 */
const repo = path.join(import.meta.dirname, '..');
const root = path.join(repo, 'web');
const outdir = path.join(root, 'dist');
/** What the last build read, and a digest of it: web/dist is current while the digest still matches. */
const STAMP = path.join(outdir, '.build-hash');
/** Read by every build besides the sources esbuild reports: how it builds, and which esbuild does it. */
const BUILD_INPUTS = [import.meta.filename, path.join(repo, 'package-lock.json'), path.join(root, 'index.html')];

interface Stamp {
  digest: string;
  inputs: string[];
}

/**
 * A digest of the files' contents. The inputs of the last build suffice: a new import appears only by
 * changing a file that was already an input (web/src or the src/ modules the dashboard shares).
 */
function digestOf(files: string[]): string | null {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    if (!fs.existsSync(file)) return null;
    hash
      .update(`${path.relative(repo, file)}\0`)
      .update(fs.readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex');
}

function isCurrent(): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8')) as Stamp;
  } catch {
    return false; // never built here, or built before stamps existed
  }
  const inputs = stamp.inputs.map((file) => path.join(repo, file));
  return fs.existsSync(path.join(outdir, 'app.js')) && digestOf(inputs) === stamp.digest;
}

if (!process.argv.includes('--force') && isCurrent()) {
  console.log('dashboard up to date (web/dist matches web/src): not rebuilt');
} else {
  await buildDashboard();
}

async function buildDashboard(): Promise<void> {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: {
      app: path.join(root, 'src', 'main.tsx'),
      // Linked by the flow builder when it first loads (web/src/pages/automation/flow-styles.ts).
      'flow-canvas': path.join(root, 'src', 'pages', 'automation', 'flow-canvas.css'),
    },
    outdir,
    bundle: true,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    minify: true,
    sourcemap: false,
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // React libraries (the flow builder's canvas, @xyflow/react) run on Preact's compat layer; only the
    // chunks that import one carry it (docs/decisions/0150).
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(root, 'index.html'), path.join(outdir, 'index.html'));

  const gzipKiB = new Map<string, number>();
  for (const file of Object.keys(result.metafile.outputs)) {
    const gzipped = gzipSync(fs.readFileSync(file), { level: 9 });
    fs.writeFileSync(`${file}.gz`, gzipped);
    gzipKiB.set(path.resolve(file), gzipped.length / 1024);
  }
  const sum = (files: string[]) => files.reduce((total, file) => total + gzipKiB.get(file)!, 0);
  const scripts = [...gzipKiB.keys()].filter((file) => file.endsWith('.js'));
  const firstLoad = firstLoadFiles(result.metafile, path.join(outdir, 'app.js'));
  const sizes = {
    firstLoadJsGzipKiB: sum(firstLoad),
    allJsGzipKiB: sum(scripts),
    cssGzipKiB: sum([...gzipKiB.keys()].filter((file) => file.endsWith('.css'))),
  };
  // Read by `npm run bench:dashboard`; the server serves only .html, .js and .css, so it stays private.
  fs.writeFileSync(path.join(outdir, 'sizes.json'), JSON.stringify(sizes));
  console.log(
    `dashboard built: first load ${sizes.firstLoadJsGzipKiB.toFixed(1)} KiB JavaScript, ` +
      `${scripts.length} scripts ${sizes.allJsGzipKiB.toFixed(1)} KiB, CSS ${sizes.cssGzipKiB.toFixed(1)} KiB (gzip)`,
  );

  const inputs = [...Object.keys(result.metafile.inputs).map((file) => path.resolve(file)), ...BUILD_INPUTS];
  const stamp: Stamp = { digest: digestOf(inputs)!, inputs: inputs.map((file) => path.relative(repo, file)).sort() };
  fs.writeFileSync(STAMP, JSON.stringify(stamp, null, 1));
}

/** The entry and every chunk it imports statically: the JavaScript a first visit fetches. */
function firstLoadFiles(metafile: Metafile, entry: string): string[] {
  const outputs = new Map(Object.entries(metafile.outputs).map(([file, output]) => [path.resolve(file), output]));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs.get(file)?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(path.resolve(imported.path));
    }
  };
  visit(path.resolve(entry));
  return [...seen];
}
