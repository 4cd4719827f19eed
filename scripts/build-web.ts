import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * Builds the dashboard (web/) into web/dist: one minified ES module and one stylesheet, plus their
 * gzip'd twins that the server hands to browsers accepting gzip. Runs on `npm ci` (prepare),
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

const sizes: string[] = [];
for (const file of Object.keys(result.metafile.outputs)) {
  const bytes = fs.readFileSync(file);
  const gzipped = gzipSync(bytes, { level: 9 });
  fs.writeFileSync(`${file}.gz`, gzipped);
  sizes.push(
    `${path.basename(file)} ${(bytes.length / 1024).toFixed(1)} KiB (${(gzipped.length / 1024).toFixed(1)} KiB gzip)`,
  );
}
console.log(`dashboard built: ${sizes.join(', ')}`);
