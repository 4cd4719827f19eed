import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * Builds the dashboard (web/) into web/dist: a minified ES module for the first load, one chunk per
 * lazily loaded page group (router.tsx `lazy`), and one stylesheet, plus their gzip'd twins that the server hands to browsers accepting gzip. Runs on `npm ci` (prepare),
 * `npm start` and `npm test`, so a fresh clone never serves a stale or missing front end.
 */
const root = path.join(import.meta.dirname, '..', 'web');
const outdir = path.join(root, 'dist');

fs.rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { app: path.join(root, 'src', 'main.tsx') },
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
