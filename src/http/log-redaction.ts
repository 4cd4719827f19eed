import type { FastifyServerOptions } from 'fastify';

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

/** Where the server logs: JSON lines at `level` (to `stream`, stdout by default), or nowhere. */
export type LogTarget = { level: string; stream?: NodeJS.WritableStream } | false;

/**
 * Fastify's logger for `target`. Every line passes through redactSecrets just before it is
 * written, so Fastify's own lines and error stacks are covered as well as Parley's request line.
 */
export function redactingLogger(target: LogTarget): FastifyServerOptions['logger'] {
  return target && { ...target, hooks: { streamWrite: redactSecrets } };
}
