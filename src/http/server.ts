import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { registerAuth } from './auth.js';
import { registerIdempotency } from './idempotency.js';
import { registerOpenApi } from './openapi.js';
import { registerErrorHandling } from './problem.js';
import type { TlsMaterial } from './tls.js';
import { registerTransport } from './transport.js';
import type { Api } from './types.js';
import { registerRoutes } from '../routes.js';

export interface ServerOptions {
  config: Config;
  services: Services;
  /** Absent only behind a TLS-terminating proxy (TRUST_PROXY). */
  tls: TlsMaterial | null;
  logger: FastifyServerOptions['logger'];
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Assembles the HTTP(S) server: hooks, error mapping, OpenAPI and every route. */
export async function buildServer({ config, services, tls, logger }: ServerOptions): Promise<Api> {
  const app = Fastify({
    ...(tls && { https: { cert: tls.cert, key: tls.key } }),
    logger,
    // One log line per request, written in onResponse with the workspace and latency.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // GET routes would otherwise answer HEAD too, and a HEAD poll would use up the polling interval.
    exposeHeadRoutes: false,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null);
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('sessionUser', null);
  await app.register(fastifyCookie);
  registerErrorHandling(app);
  registerTransport(app, config);
  registerAuth(app, { tokens: services.tokens, accounts: services.accounts, clock: services.deps.clock });
  registerIdempotency(app, services.deps);
  await registerOpenApi(app, config.publicBaseUrl);
  registerRoutes(app, services, config);
  return app;
}
