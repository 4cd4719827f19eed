import swagger from '@fastify/swagger';
import { SESSION_COOKIE } from './session-auth.js';
import type { Api } from './types.js';

/** Every route under this prefix is the dashboard's: in its own document, never in the public one. */
export const DASHBOARD_PREFIX = '/api/dashboard/';

/** Whether a route is one of the dashboard's own (session-only) endpoints. */
export const isDashboardRoute = (url: string): boolean => url.startsWith(DASHBOARD_PREFIX);

declare module 'fastify' {
  interface FastifyInstance {
    /** The dashboard's OpenAPI document (docs/dashboard-openapi.yaml), as `swagger` is the public one. */
    dashboardSwagger: FastifyInstance['swagger'];
  }
}

const DESCRIPTION = [
  'The endpoints the Parley dashboard (web/) calls: the session, the inbox, settings, the contacts table…',
  'Internal: they change with the dashboard, in the same release, with no promise to integrations (they use the public API, docs/openapi.yaml).',
  "Every call carries the session cookie; every change also carries the session's CSRF token in `X-CSRF-Token` (GET /api/dashboard/session hands it out). Errors are the public API's problem details.",
].join('\n\n');

/**
 * A second OpenAPI document, of the routes under /api/dashboard/ only, from the same route schemas:
 * the dashboard's types and typed client are generated from it (web/src/api/schema.ts).
 */
export async function registerDashboardOpenApi(app: Api): Promise<void> {
  await app.register(swagger, {
    decorator: 'dashboardSwagger',
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley dashboard API (internal)', version: 'internal', description: DESCRIPTION },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } } },
      security: [{ session: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // The dashboard's routes are hidden from the public document by their prefix; here only they are shown.
    transform: ({ schema, url }) => ({
      schema: isDashboardRoute(url) ? { ...schema, hide: false } : { hide: true },
      url,
    }),
    transformObject: (document) =>
      'openapiObject' in document ? withUsedSchemasOnly(document.openapiObject) : document.swaggerObject,
  });
}

interface Document {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The document with only the shared schemas its operations use, directly or through another schema:
 * every schema the public routes share (`addSchema`) is offered to both documents.
 */
function withUsedSchemasOnly<D extends Document>(document: D): D {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '$ref' && typeof inner === 'string' ? inner.replace(SCHEMA_REF, '') : null;
      if (name !== null && !used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      } else visit(inner);
    }
  };
  visit(document.paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}

const SCHEMA_REF = '#/components/schemas/';
