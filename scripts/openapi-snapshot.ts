/**
 * Writes the OpenAPI documents the server builds, so reviewers see API changes in diffs: the public
 * API's to docs/openapi.yaml and the dashboard's own to docs/dashboard-openapi.yaml. A test fails
 * while either checked-in file is stale. Run:
 *   npm run openapi
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

/** The checked-in snapshot of the public API. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../docs/openapi.yaml', import.meta.url));
/** The checked-in snapshot of the dashboard's endpoints (internal; web/src/api/schema.ts is generated from it). */
export const DASHBOARD_SNAPSHOT_FILE = fileURLToPath(new URL('../docs/dashboard-openapi.yaml', import.meta.url));

/** The fixed base URL the snapshot is generated for, so it does not depend on the local environment. */
const SNAPSHOT_BASE_URL = 'https://127.0.0.1:8443';

export interface OpenApiYaml {
  public: string;
  dashboard: string;
}

/** Builds the app in-process (throwaway SQLite database, not listening) and returns both OpenAPI documents as YAML. */
export async function generateOpenApiYaml(): Promise<OpenApiYaml> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-'));
  // An explicit environment: neither DATABASE_URL nor anything else from the caller's shell leaks in.
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: SNAPSHOT_BASE_URL, LOG_LEVEL: 'silent' });
  const app = await createApp(config, { logger: false });
  try {
    await app.server.ready();
    return { public: app.server.swagger({ yaml: true }), dashboard: app.server.dashboardSwagger({ yaml: true }) };
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const yaml = await generateOpenApiYaml();
  for (const [file, text] of [
    [SNAPSHOT_FILE, yaml.public],
    [DASHBOARD_SNAPSHOT_FILE, yaml.dashboard],
  ] as const) {
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)} (${text.length} bytes)`);
  }
}
