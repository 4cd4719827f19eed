import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

const REDACTED = '[redacted]';
/** What a secret in a URL runs up to: the next path segment, parameter, fragment, or the end of a JSON string. */
const VALUE = String.raw`[^/?&#\s"\\]+`;

/**
 * Where secrets travel in URLs, matched anywhere in a log line: each rule matches the secret
 * alone (what precedes it is a lookbehind). A route that puts a secret in its path gets a line here.
 */
const SECRETS_IN_URLS: readonly RegExp[] = [
  // The dashboard's invitation link, and the API call its page makes (`accept` is the route itself).
  new RegExp(String.raw`(?<=/invite/)${VALUE}`, 'g'),
  new RegExp(String.raw`(?<=/api/dashboard/invites/)(?!accept(?!${VALUE}))${VALUE}`, 'g'),
  // A password-reset link.
  new RegExp(String.raw`(?<=/reset-password/)${VALUE}`, 'g'),
  // Query parameters such as Meta's `hub.verify_token`, OAuth's `access_token`, or any `…secret`/`…password`.
  new RegExp(String.raw`(?<=[?&][\w.-]*(?:token|secret|password)=)${VALUE}`, 'gi'),
];

/** `text` with every secret a URL in it may carry replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return SECRETS_IN_URLS.reduce((redacted, rule) => redacted.replace(rule, REDACTED), text);
}

/** Where the server logs: JSON lines at `level` (to `stream`, standard output by default), or nowhere. */
export type LogTarget = { level: string; stream?: DestinationStream } | false;

/** Lines kept while the log cannot be written (a full disk); past this much, new lines are dropped. */
const UNWRITTEN_LOG_BYTES = 16 * 1024 * 1024;

/**
 * Standard output as the log's destination, where a failed write never ends the process: pino's own
 * would re-throw ENOSPC from a log file on a full disk. A line that cannot be written waits in memory
 * (up to 16 MiB, then new lines are dropped) and goes out once the disk has room again; after EPIPE (the
 * reader has gone) lines are dropped. Writes are synchronous, so nothing is left to flush at exit.
 */
export function standardOutput(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, maxLength: UNWRITTEN_LOG_BYTES });
  destination.on('error', () => undefined); // nowhere to report it: the log is what failed
  return destination;
}

/** Every line passes through redactSecrets just before it is written, error stacks included. */
const hooks = { streamWrite: redactSecrets };

/** Fastify's logger for `target`: Fastify's own lines as well as Parley's request line are redacted. */
export function redactingLogger(target: LogTarget): FastifyServerOptions['logger'] {
  return target && { ...target, stream: target.stream ?? standardOutput(), hooks };
}

/** A logger for before the server exists (a start waiting for the database), writing as the server will. */
export function startLogger(target: { level: string; stream: DestinationStream }): Logger {
  return pino({ level: target.level, hooks }, target.stream);
}
