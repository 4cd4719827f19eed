import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { Api } from '../http/types.js';
import type { Metrics } from './metrics.js';

/**
 * GET /metrics (Prometheus text format) for a scraper holding METRICS_TOKEN, and the per-route
 * latency of every request. Without the token configured there is no endpoint and no timing.
 * The token is the deployment's, not a workspace's: the figures span every workspace.
 */
export function registerMetricsRoutes(
  app: Api,
  metrics: Metrics | null,
  token: string | null,
  deps: Pick<Deps, 'db' | 'reads' | 'clock'>,
): void {
  if (!metrics || !token) return;
  const expected = digest(token);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestServed(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    // Digests of equal length, compared in constant time: the answer's timing tells nothing of the token.
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw errors.unauthorized('Send METRICS_TOKEN as "Authorization: Bearer <token>"');
    }
    const text = await metrics.scrape(deps);
    return reply.type(metrics.contentType).send(text);
  });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
