import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { commonProblems } from './common.problems.js';
import { errors } from './errors.js';

/** What a cursor is valid for: one workspace, one listing, one set of filters. */
export interface CursorScope {
  workspaceId: string;
  /** The listing, e.g. `search-contacts`. */
  endpoint: string;
  /** The filters as the listing applies them (normalised); absent ones left out. */
  filters: Record<string, string | undefined>;
}

/** The sort key of the last record served; the next page starts after it. */
export type CursorKey = string[];

/** What a client asks of a paged listing. */
export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

/** A page of a listing as `paginate=cursor` returns it. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The largest `limit` a paged listing accepts. */
export const MAX_PAGE_LIMIT = 500;

/** Issues and checks opaque, tamper-proof cursors. */
export interface CursorCodec {
  encode(scope: CursorScope, key: CursorKey): string;
  /** The key a cursor carries; invalid_cursor when it was altered or issued for another scope. */
  decode(scope: CursorScope, cursor: string): CursorKey;
}

const VERSION = 1;
const MAC_BYTES = 32;
/** A cursor is ~250 characters; anything far longer is not one of ours. */
const MAX_CURSOR_LENGTH = 1024;

/**
 * Cursors are base64url of a JSON payload `[version, workspace, endpoint, filter digest, ...key]`
 * followed by its HMAC-SHA256. The MAC makes them tamper-proof; the scope inside lets a mismatch
 * say what is wrong. The key comes from a getter, read on first use (see SecretBox.deriveKey).
 */
export function createCursorCodec(macKey: () => Buffer): CursorCodec {
  let key: Buffer | undefined;
  const mac = (payload: Buffer) =>
    createHmac('sha256', (key ??= macKey()))
      .update(payload)
      .digest();

  return {
    encode(scope, cursorKey) {
      const payload = Buffer.from(
        JSON.stringify([VERSION, scope.workspaceId, scope.endpoint, filterDigest(scope.filters), ...cursorKey]),
      );
      return Buffer.concat([payload, mac(payload)]).toString('base64url');
    },

    decode(scope, cursor) {
      const fields = verifiedFields(cursor, mac);
      const [version, workspaceId, endpoint, digest, ...cursorKey] = fields;
      if (version !== VERSION || !cursorKey.every((part) => typeof part === 'string')) throw notOurs();
      if (workspaceId !== scope.workspaceId) {
        throw errors.invalidCursor(commonProblems.problem('cursor', 'cursor_other_workspace'));
      }
      if (endpoint !== scope.endpoint) {
        const problem = commonProblems.problem('cursor', 'cursor_other_endpoint', { endpoint: String(endpoint) });
        throw errors.invalidCursor(problem);
      }
      if (digest !== filterDigest(scope.filters)) {
        throw errors.invalidCursor(commonProblems.problem('cursor', 'cursor_other_filters'));
      }
      return cursorKey;
    },
  };
}

/** The payload's fields, once the MAC over it checks out. */
function verifiedFields(cursor: string, mac: (payload: Buffer) => Buffer): unknown[] {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw notOurs();
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= MAC_BYTES) throw notOurs();
  const payload = bytes.subarray(0, -MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(-MAC_BYTES), mac(payload))) throw notOurs();
  const fields: unknown = JSON.parse(payload.toString('utf8'));
  if (!Array.isArray(fields)) throw notOurs();
  return fields;
}

const notOurs = () => errors.invalidCursor(commonProblems.problem('cursor', 'cursor_altered'));

/** A short digest of the filters, independent of key order. */
function filterDigest(filters: CursorScope['filters']): string {
  const entries = Object.entries(filters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 16);
}

/**
 * Cuts the `limit + 1` rows a listing fetched into a page: the first `limit`, and a cursor after
 * the last of them when a further row shows that more follow.
 */
export function cutPage<Row>(
  rows: Row[],
  limit: number,
  cursorAfter: (row: Row) => string,
): { rows: Row[]; next_cursor: string | null } {
  if (rows.length <= limit) return { rows, next_cursor: null };
  const shown = rows.slice(0, limit);
  return { rows: shown, next_cursor: cursorAfter(shown[limit - 1]!) };
}
