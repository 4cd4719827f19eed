import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Services } from './services.js';
import { registerAuth } from './http/auth.js';
import { lowercaseKeyword } from './http/responses.js';
import { registerIdempotency } from './http/idempotency.js';
import { redactingLogger, type LogTarget } from './http/log-redaction.js';
import { buildLazySerializer } from './http/lazy-serializers.js';
import { checkedSerializers } from './http/response-check.js';
import { serviceCheckedValidators } from './http/service-checked.js';
import { isDashboardRoute } from './http/dashboard-openapi.js';
import { requestIdOf } from './http/request-id.js';
import { registerOpenApi } from './http/openapi.js';
import { frameworkErrorProblem, registerErrorHandling } from './http/problem.js';
import type { TlsMaterial } from './http/tls.js';
import { registerTransport } from './http/transport.js';
import type { Api } from './http/types.js';
import { registerRoutes } from './routes.js';
import { recordRouteRules } from './http/route-rules.js';

export interface ServerOptions {
  config: Config;
  services: Services;
  /** Absent only behind a TLS-terminating proxy (TRUST_PROXY). */
  tls: TlsMaterial | null;
  logger: LogTarget;
  /** Tests: a dashboard answer its response schema would drop a value of is a 500 (response-check.ts). */
  checkResponses?: boolean;
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Assembles the HTTP(S) server: hooks, error mapping, OpenAPI and every route. */
export async function buildServer({ config, services, tls, logger, checkResponses }: ServerOptions): Promise<Api> {
  const buildSerializer = checkResponses
    ? checkedSerializers(buildLazySerializer, isDashboardRoute)
    : buildLazySerializer;
  const app = Fastify({
    ...(tls && { https: { cert: tls.cert, key: tls.key } }),
    logger: redactingLogger(logger),
    // One log line per request, written in onResponse with the workspace and latency.
    logController: new LogController({ disableRequestLogging: true }),
    // One proxy hop: the client address is the one that proxy appended to X-Forwarded-For, not a
    // left-most entry the client wrote itself (which would let it dodge the per-address sign-in limit).
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // A client's or proxy's X-Request-Id (or traceparent) when valid, so its id reaches our logs.
    genReqId: (raw) => requestIdOf(raw.headers),
    requestIdHeader: false,
    return503OnClosing: true,
    // GET routes would otherwise answer HEAD too, and a HEAD poll would use up the polling interval.
    exposeHeadRoutes: false,
    ajv: {
      customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false },
      plugins: [(ajv) => ajv.addKeyword(lowercaseKeyword)],
    },
    frameworkErrors: frameworkErrorProblem,
    schemaController: { compilersFactory: { buildSerializer, buildValidator: serviceCheckedValidators() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null);
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('sessionUser', null);
  await app.register(fastifyCookie);
  registerErrorHandling(app);
  registerTransport(app, config);
  recordRouteRules(app);
  registerAuth(app, { tokens: services.tokens, accounts: services.accounts, ...services.deps });
  registerIdempotency(app, services.deps);
  await registerOpenApi(app, config.publicBaseUrl);
  registerRoutes(app, services, config);
  return app;
}
