import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Longer ids are not taken from a client: each log line of the request carries it. */
export const MAX_REQUEST_ID_LENGTH = 200;
/** Printable ASCII (space included): nothing that could break a log line or a response header. */
const PRINTABLE = /^[\x20-\x7e]+$/;
/** W3C Trace Context: version-traceid-parentid-flags (later versions may append fields). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}(?:-|$)/;

/**
 * The request's id: the X-Request-Id a client or proxy sent, else the trace id of its W3C
 * `traceparent`, else a fresh UUID, so one id follows a request through the proxy's log and Parley's.
 * A sent id that is not printable ASCII or longer than MAX_REQUEST_ID_LENGTH is ignored.
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  return sentRequestId(headers['x-request-id']) ?? traceIdOf(headers.traceparent) ?? randomUUID();
}

function sentRequestId(value: string | string[] | undefined): string | null {
  const id = typeof value === 'string' ? value.trim() : null;
  return id && id.length <= MAX_REQUEST_ID_LENGTH && PRINTABLE.test(id) ? id : null;
}

/** The trace id of a valid traceparent; version ff and the all-zero trace id are invalid by the spec. */
function traceIdOf(value: string | string[] | undefined): string | null {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value.trim()) : null;
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]!)) return null;
  return match[2]!;
}
