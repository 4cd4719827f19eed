import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { EVENT_LIST_MAX, ListWorkspaceEventsBody, WorkspaceEventSchema } from './event.schema.js';
import type { WorkspaceEventService } from './event.service.js';

/** list-workspace-events: the event log the dashboard's Settings → WhatsApp events page reads too. */
export function registerWorkspaceEventRoutes(app: Api, events: WorkspaceEventService): void {
  app.addSchema(WorkspaceEventSchema);
  app.post(
    '/api/v1/actions/list-workspace-events',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listWorkspaceEvents',
        tags: ['Workspace'],
        summary: 'What Meta reported about the account and number, newest first',
        description: `Meta's account updates (bans, reviews, quality and messaging-limit changes, alerts, display-name decisions, security), every other webhook field Parley does not model (with Meta's value whole: nothing Meta sends is dropped silently) and the \`errors\` a messages webhook carries (e.g. 130429), as Parley recorded them, newest first: the latest \`limit\` (default 50, at most ${EVENT_LIST_MAX}).`,
        body: ListWorkspaceEventsBody,
        response: {
          200: Type.Array(Type.Ref(WorkspaceEventSchema), { maxItems: EVENT_LIST_MAX }),
          ...actionErrors(),
        },
      },
    },
    async (request) => events.list(principalOf(request), request.body.limit),
  );
}
