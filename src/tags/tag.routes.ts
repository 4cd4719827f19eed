import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { ListTagsBody, TAG_LIST_CAP, TagList, TagSchema } from './tag.schema.js';
import type { TagService } from './tag.service.js';

/** list-tags (spec §4). */
export function registerTagRoutes(app: Api, tags: TagService): void {
  app.addSchema(TagSchema);
  app.post(
    '/api/v1/actions/list-tags',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listTags',
        tags: ['Tags'],
        summary: 'List tags',
        description: `All tags whose name contains \`name\` (case-insensitive; "" = all), alphabetical, at most ${TAG_LIST_CAP}.`,
        body: ListTagsBody,
        response: { 200: TagList, ...actionErrors() },
      },
    },
    async (request) => tags.list(principalOf(request), request.body),
  );
}
