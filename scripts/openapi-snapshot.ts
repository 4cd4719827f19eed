/**
 * Writes the OpenAPI document the server serves to docs/openapi.yaml, so reviewers see API changes
 * in diffs. A test fails while the checked-in file is stale. Run:
 *   node --import tsx scripts/openapi-snapshot.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

/** The checked-in snapshot. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../docs/openapi.yaml', import.meta.url));

/** The fixed base URL the snapshot is generated for, so it does not depend on the local environment. */
const SNAPSHOT_BASE_URL = 'https://127.0.0.1:8443';

/** Builds the app in-process (throwaway SQLite database, not listening) and returns its OpenAPI YAML. */
export async function generateOpenApiYaml(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-'));
  // An explicit environment: neither DATABASE_URL nor anything else from the caller's shell leaks in.
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: SNAPSHOT_BASE_URL, LOG_LEVEL: 'silent' });
  const app = await createApp(config, { logger: false });
  try {
    await app.server.ready();
    return app.server.swagger({ yaml: true });
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const yaml = await generateOpenApiYaml();
  fs.writeFileSync(SNAPSHOT_FILE, yaml);
  console.log(`wrote ${path.relative(process.cwd(), SNAPSHOT_FILE)} (${yaml.length} bytes)`);
}
