import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PAGE_LIMIT, type Page, type PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { NullableField } from './responses.js';
import { requestProblems } from '../shared/request.problems.js';

/** The query parameters of a listing that can be paged (`paginate=cursor`). */
export const pageQuery = (defaultLimit: number) => ({
  paginate: Type.Optional(
    Type.Literal('cursor', {
      description:
        'Opt-in cursor pagination: the response becomes `{ "data": [...], "next_cursor": "…" | null }` and `cursor` and `limit` apply. Without it the response is the plain list, as before.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'The `next_cursor` of the previous page (only with `paginate=cursor`). Opaque and tamper-checked; valid only for the same workspace, endpoint and filters.',
    }),
  ),
  limit: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,6}$',
      description: `Records per page, an integer from 1 to ${MAX_PAGE_LIMIT}; ${defaultLimit} by default (only with \`paginate=cursor\`).`,
      examples: ['100'],
    }),
  ),
});

export interface PageQuery {
  paginate?: 'cursor' | undefined;
  cursor?: string | undefined;
  limit?: string | undefined;
}

/** The page a request asks for, or null for the plain listing; `cursor`/`limit` alone are refused. */
export function pageRequest(query: PageQuery, defaultLimit: number): PageRequest | null {
  if (query.paginate !== 'cursor') {
    const stray = (['cursor', 'limit'] as const).find((name) => query[name] !== undefined);
    if (stray) throw errors.invalid(requestProblems.problem(stray, 'only_with_cursor_paging'));
    return null;
  }
  const limit = query.limit === undefined ? defaultLimit : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw errors.invalid(requestProblems.problem('limit', 'page_limit', { max: MAX_PAGE_LIMIT }));
  }
  return { cursor: query.cursor, limit };
}

/**
 * A request for a page after the first: trigger feeds count it against the token's request budget
 * rather than the polling interval, as it reads records already polled (a cursor leads only to older ones).
 */
export function isFollowUpPage(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query?.paginate === 'cursor' && typeof query.cursor === 'string' && query.cursor !== '';
}

/** The envelope of a paged listing of `item`s. */
export function pageSchema(item: TSchema, $id: string) {
  return Type.Object(
    {
      data: Type.Array(item, { maxItems: MAX_PAGE_LIMIT }),
      next_cursor: NullableField(
        Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' }),
      ),
    },
    { $id, description: 'A page of the listing (with `paginate=cursor`)' },
  );
}

/** A listing's 200 response: the plain list, or with `paginate=cursor` the page envelope. */
export function listingResponse(list: TSchema, page: TSchema) {
  return Type.Union([list, Type.Ref(page)], {
    description: 'The plain list; with `paginate=cursor`, a page: `{ data, next_cursor }`',
  });
}

/**
 * Sends a listing, serialised with the schema of its own shape. The route's 200 schema is their
 * union, which the serialiser would resolve by validating every record against both.
 */
export function sendListing<T>(
  reply: FastifyReply,
  listing: T[] | Page<T> | string,
  schemas: { list: TSchema; page: TSchema },
): FastifyReply {
  void reply.type('application/json; charset=utf-8');
  if (typeof listing === 'string') return reply.send(listing);
  const schema = Array.isArray(listing) ? schemas.list : schemas.page;
  // Typed for objects only, though fast-json-stringify serialises arrays as well.
  return reply.send(reply.serializeInput(listing as unknown as Record<string, unknown>, schema));
}
