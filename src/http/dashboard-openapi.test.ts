import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parseYaml } from '@redocly/openapi-core';
import { DASHBOARD_SCHEMA_FILE, renderDashboardSchema } from '../../scripts/generate-client.js';
import { DASHBOARD_SNAPSHOT_FILE, generateOpenApiYaml } from '../../scripts/openapi-snapshot.js';
import { ENGINE, startServer } from '../../test/server.js';
import { isDashboardRoute } from './dashboard-openapi.js';
import { routeRulesOf } from './route-rules.js';

const server = await startServer();
const documents = await generateOpenApiYaml();

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Paths = Record<string, Record<string, Operation>>;

const pathsOf = (yaml: string) => (parseYaml(yaml) as { paths: Paths }).paths;
/** `/api/dashboard/team/:id` as OpenAPI writes it, `/api/dashboard/team/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** Dashboard routes that answer with something other than one JSON document, and what instead. */
const NOT_JSON: Record<string, string> = {
  'GET /api/dashboard/events': 'Server-Sent Events',
  'GET /api/dashboard/media/:messageId': 'the stored file',
  'GET /api/dashboard/contacts/export.csv': 'CSV',
  'GET /api/dashboard/whatsapp-flows/:id/answers.csv': 'CSV',
};

const dashboardRoutes = () =>
  routeRulesOf(server.app.server)
    .filter((route) => isDashboardRoute(route.url))
    .map((route) => ({ ...route, key: `${route.method} ${route.url}` }));

describe(`The dashboard's OpenAPI document (${ENGINE})`, () => {
  test('snapshot › docs/dashboard-openapi.yaml is up to date', () => {
    const checkedIn = fs.existsSync(DASHBOARD_SNAPSHOT_FILE) ? fs.readFileSync(DASHBOARD_SNAPSHOT_FILE, 'utf8') : '';
    assert.ok(checkedIn === documents.dashboard, 'docs/dashboard-openapi.yaml is stale: run `npm run openapi`');
  });

  test('web types › web/src/api/schema.ts is what docs/dashboard-openapi.yaml generates now', async () => {
    const checkedIn = fs.readFileSync(DASHBOARD_SCHEMA_FILE, 'utf8');
    assert.ok(checkedIn === (await renderDashboardSchema()), 'web/src/api/schema.ts is stale: run `npm run client`');
  });

  test('routes › every dashboard route is in it, and only there (never in the public document)', () => {
    const dashboard = pathsOf(documents.dashboard);
    const missing = dashboardRoutes().filter(
      (route) => !dashboard[openApiPath(route.url)]?.[route.method.toLowerCase()],
    );
    assert.deepEqual(
      missing.map((route) => route.key),
      [],
    );
    assert.ok(Object.keys(dashboard).every(isDashboardRoute), 'only dashboard routes');
    const leaked = Object.keys(pathsOf(documents.public)).filter((path) => path.includes('/dashboard/'));
    assert.deepEqual(leaked, []);
  });

  test('responses › every JSON route describes its success answer (a schema is also what serialises it)', () => {
    const dashboard = pathsOf(documents.dashboard);
    const undescribed = dashboardRoutes().filter((route) => {
      const { responses = {} } = dashboard[openApiPath(route.url)]?.[route.method.toLowerCase()] ?? {};
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'))?.[1];
      return !NOT_JSON[route.key] && !success?.content?.['application/json']?.schema;
    });
    assert.deepEqual(
      undescribed.map((route) => route.key),
      [],
    );
  });
});
