import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyError, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { AppError } from '../shared/errors.js';
import type { Services } from '../services.js';
import { registerAuth } from './auth.js';
import { registerIdempotency } from './idempotency.js';
import { registerOpenApi } from './openapi.js';
import { sendProblem, toAppError } from './problem.js';
import type { TlsMaterial } from './tls.js';
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
/** Methods a path may be registered with; a wrong one on a known path is a 405, not a 404. */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

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
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The API speaks JSON only: anything else is a 415, not a string body.
  app.removeContentTypeParser(['text/plain']);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotencyKey', null);
  app.setErrorHandler((error, request, reply) =>
    sendProblem(request, reply, toAppError(error as FastifyError, request)),
  );
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = ROUTE_METHODS.filter((method) => app.hasRoute({ method, url: path }));
    if (allowed.length === 0) {
      return sendProblem(request, reply, new AppError(404, 'route_not_found', `No endpoint ${request.method} ${path}`));
    }
    void reply.header('allow', allowed.join(', '));
    const message = `${path} does not accept ${request.method}; use ${allowed.join(' or ')}`;
    return sendProblem(request, reply, new AppError(405, 'method_not_allowed', message));
  });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // The health check is exempt: orchestrators probe the container directly, not through the proxy.
    const isHealthCheck = request.routeOptions.url === '/healthz';
    if (config.trustProxy && !isHealthCheck && request.headers['x-forwarded-proto'] !== 'https') {
      throw new AppError(403, 'https_required', 'Parley only accepts requests forwarded as https');
    }
  });
  // Graceful shutdown: close() waits for every connection, and a keep-alive connection whose
  // in-flight request finishes after close() began would otherwise idle for keepAliveTimeout (72 s).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });

  registerAuth(app, { tokens: services.tokens, clock: services.deps.clock });
  registerIdempotency(app, services.deps);
  await registerOpenApi(app, config.publicBaseUrl);
  registerRoutes(app, services);
  return app;
}
