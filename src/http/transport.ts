import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';
import { AppError, errors, type FieldError } from '../shared/errors.js';
import { unstorableJson, type JsonProblem } from '../shared/storable-json.js';
import type { Api } from './types.js';

/**
 * What every request goes through before routing: JSON-only bodies, HTTPS enforcement behind a
 * proxy, the request id header, one structured log line, and a clean hand-over during shutdown.
 */
export function registerTransport(app: Api, config: Config): void {
  acceptJsonOnly(app);
  refuseUnstorableUrlText(app);
  noSniffing(app);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // The health check is exempt: orchestrators probe the container directly, not through the proxy.
    if (config.trustProxy && request.routeOptions.url !== '/healthz' && !forwardedAsHttps(request.headers)) {
      throw new AppError(403, 'https_required', 'Parley only accepts requests forwarded as https');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const workspace_id = request.principal?.workspaceId;
    // `ip` is the client's address (behind TRUST_PROXY, the one the proxy appended to X-Forwarded-For).
    // The URL may carry a secret (an invitation link, Meta's verify token): the logger redacts it (log-redaction.ts).
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms, ip: request.ip, workspace_id },
      'request',
    );
  });
  closeConnectionsWhenStopping(app);
  answerOversizedBodiesWhole(app);
}

/**
 * The API speaks JSON only (anything else is a 415), and a body must be JSON the database can hold
 * alike on every engine (see unstorableJson): refused here, once, before any route sees it.
 */
function acceptJsonOnly(app: Api): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    void parseJson(request, raw.toString(), (error: Error | null, body?: unknown) => {
      if (error) return done(error, undefined);
      const problems = unstorableJson(body);
      if (problems.length > 0) return done(errors.invalid(...problems.map(asField)), undefined);
      done(null, body);
    });
  });
}

/** The query string and path parameters reach the database as text too, so they follow the body's rule. */
function refuseUnstorableUrlText(app: Api): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const problems = unstorableJson({ ...(request.query as object), ...(request.params as object) });
    done(problems.length > 0 ? errors.invalid(...problems.map(asField)) : undefined);
  });
}

/** A problem named as validation errors name fields (`metadata.note`; `body` for the whole body). */
const asField = ({ path, at }: JsonProblem): FieldError => at(path.join('.') || 'body');

/** The left-most X-Forwarded-Proto is what the client used (proxies append theirs). */
function forwardedAsHttps(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers['x-forwarded-proto'];
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0];
  return first?.trim().toLowerCase() === 'https';
}

/**
 * Graceful shutdown: close() waits for every connection, and a keep-alive connection whose in-flight
 * request finishes after close() began would otherwise idle for keepAliveTimeout (72 s).
 */
function closeConnectionsWhenStopping(app: Api): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
}

/** How much of an oversized body is read and discarded so its sender gets the 413; past this the connection is cut. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;
const MAX_DISCARD_MS = 30_000;

/**
 * A body over the limit is refused before it is read, and the connection is closed after the answer.
 * A client still sending then sees a reset (EPIPE) instead of the 413: the rest of the body is read
 * and discarded first, within bounds, as a web server's lingering close does.
 */
function answerOversizedBodiesWhole(app: Api): void {
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 413) await discardRestOfBody(request.raw);
  });
}

function discardRestOfBody(body: IncomingMessage): Promise<void> {
  if (body.complete || body.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const done = () => {
      clearTimeout(timer);
      body.off('data', count).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BYTES) done();
    };
    const timer = setTimeout(done, MAX_DISCARD_MS);
    body.on('data', count).once('end', done).once('close', done).once('error', done);
    body.resume();
  });
}

/**
 * Every answer is read as the type it declares: a browser never guesses another (a stored file or a
 * JSON string shown as HTML). Routes serving files set the same header with their own.
 */
function noSniffing(app: Api): void {
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
  });
}
