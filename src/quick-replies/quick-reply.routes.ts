import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Caller } from '../shared/context.js';
import {
  CreateQuickReplyBody,
  ListQuickRepliesBody,
  QUICK_REPLIES_MAX,
  QuickReplyIdBody,
  QuickReplySchema,
  type QuickReply,
  UpdateQuickReplyBody,
} from './quick-reply.schema.js';
import type { QuickReplyService } from './quick-reply.service.js';

const tags = ['Quick replies'];
const quickReply = Type.Ref(QuickReplySchema);
const ABOUT =
  "Quick replies are a workspace's saved answers: typing `/` and the shortcut in the inbox's reply box offers them. A shortcut is unique in the workspace (409 `conflict` otherwise).";

/** list/create/update/delete-quick-reply. */
export function registerQuickReplyRoutes(app: Api, quickReplies: QuickReplyService): void {
  app.addSchema(QuickReplySchema);
  /** One quick-reply action: its route, documentation and error responses, alike for all four. */
  const action = <B extends TSchema>(
    name: string,
    schema: { operationId: string; summary: string; description: string; body: B; notFound?: boolean },
    access: 'read' | 'write',
    handle: (caller: Caller, body: Static<B>) => Promise<QuickReply | QuickReply[]>,
  ) =>
    app.post(
      `/api/v1/actions/${name}`,
      {
        // Saved answers are the inbox's: writing and using them is conversation work.
        config: { access, permission: 'conversations' },
        schema: {
          operationId: schema.operationId,
          tags,
          summary: schema.summary,
          description: `${schema.description} ${ABOUT}`,
          body: schema.body,
          response: {
            200: name === 'list-quick-replies' ? Type.Array(quickReply, { maxItems: QUICK_REPLIES_MAX }) : quickReply,
            ...actionErrors(...(schema.notFound ? [404] : [])),
          },
        },
      },
      async (request) => handle(principalOf(request), request.body as Static<B>),
    );

  action(
    'list-quick-replies',
    {
      operationId: 'listQuickReplies',
      summary: "List the workspace's quick replies",
      description: `By shortcut, at most ${QUICK_REPLIES_MAX}; \`query\` matches the shortcut or the answer (case-insensitive).`,
      body: ListQuickRepliesBody,
    },
    'read',
    (caller, body) => quickReplies.list(caller, body),
  );
  action(
    'create-quick-reply',
    {
      operationId: 'createQuickReply',
      summary: 'Save an answer under a shortcut',
      description: `The shortcut is stored in lower case, without a leading \`/\`. At most ${QUICK_REPLIES_MAX} per workspace.`,
      body: CreateQuickReplyBody,
    },
    'write',
    (caller, body) => quickReplies.create(caller, body),
  );
  action(
    'update-quick-reply',
    {
      operationId: 'updateQuickReply',
      summary: 'Change a quick reply',
      description: 'Fields not given keep their value.',
      body: UpdateQuickReplyBody,
      notFound: true,
    },
    'write',
    (caller, body) => quickReplies.update(caller, body),
  );
  action(
    'delete-quick-reply',
    {
      operationId: 'deleteQuickReply',
      summary: 'Delete a quick reply',
      description: 'Returns the quick reply as it was.',
      body: QuickReplyIdBody,
      notFound: true,
    },
    'write',
    (caller, body) => quickReplies.delete(caller, body),
  );
}
