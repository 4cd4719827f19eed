import { createRequire } from 'node:module';

/**
 * This release's version: package.json's, the one place it is written. Read relative to this file, which
 * resolves the same from src/shared/ and from the bundle in .build/<name>/ (bin/bundle.js).
 */
export const PARLEY_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
