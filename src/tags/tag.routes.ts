import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  DeletedTag,
  DeleteTagBody,
  ListTagsBody,
  RenameTagBody,
  TAG_LIST_CAP,
  TAG_PAGE_LIMIT,
  TagList,
  TagPage,
  TagSchema,
} from './tag.schema.js';
import type { TagService } from './tag.service.js';

/** list-tags (spec §4); rename-tag and delete-tag. */
export function registerTagRoutes(app: Api, tags: TagService): void {
  app.addSchema(TagSchema);
  app.addSchema(TagPage);
  app.post(
    '/api/v1/actions/list-tags',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listTags',
        tags: ['Tags'],
        summary: 'List tags',
        description: `All tags whose name contains \`name\` (case-insensitive; "" = all), alphabetical, at most ${TAG_LIST_CAP}. With \`paginate=cursor\`, every matching tag page by page, in creation (id) order.`,
        querystring: Type.Object(pageQuery(TAG_PAGE_LIMIT)),
        body: ListTagsBody,
        response: { 200: listingResponse(TagList, TagPage), ...actionErrors() },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.query, TAG_PAGE_LIMIT);
      const caller = principalOf(request);
      const listing = page ? await tags.listPage(caller, request.body, page) : await tags.list(caller, request.body);
      return sendListing(reply, listing, { list: TagList, page: TagPage });
    },
  );

  app.post(
    '/api/v1/actions/rename-tag',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'renameTag',
        tags: ['Tags'],
        summary: 'Rename a tag',
        description:
          'Contacts keep the tag under its new name. Sequences, flows and campaigns that name the old tag are not rewritten. A name another tag already has is a 409 `conflict`.',
        body: RenameTagBody,
        response: { 200: Type.Ref(TagSchema), ...actionErrors(404) },
      },
    },
    async (request) => tags.rename(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/delete-tag',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'deleteTag',
        tags: ['Tags'],
        summary: 'Delete a tag',
        description:
          'Removes the tag from every contact and deletes it. Contacts themselves are not changed otherwise.',
        body: DeleteTagBody,
        response: { 200: DeletedTag, ...actionErrors(404) },
      },
    },
    async (request) => tags.remove(principalOf(request), request.body),
  );
}
