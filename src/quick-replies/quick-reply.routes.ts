import { Type } from '@sinclair/typebox';
import { actionFamily } from '../http/action-family.js';
import type { Api } from '../http/types.js';
import {
  CreateQuickReplyBody,
  ListQuickRepliesBody,
  QUICK_REPLIES_MAX,
  QuickReplyIdBody,
  QuickReplySchema,
  UpdateQuickReplyBody,
} from './quick-reply.schema.js';
import type { QuickReplyService } from './quick-reply.service.js';

const quickReply = Type.Ref(QuickReplySchema);
const ABOUT =
  "Quick replies are a workspace's saved answers: typing `/` and the shortcut in the inbox's reply box offers them. A shortcut is unique in the workspace (409 `conflict` otherwise).";

/** list/create/update/delete-quick-reply. */
export function registerQuickReplyRoutes(app: Api, quickReplies: QuickReplyService): void {
  app.addSchema(QuickReplySchema);
  // Saved answers are the inbox's: writing and using them is conversation work.
  const action = actionFamily(app, { tags: ['Quick replies'], permission: 'conversations', about: ABOUT });

  action(
    'list-quick-replies',
    {
      operationId: 'listQuickReplies',
      summary: "List the workspace's quick replies",
      description: `By shortcut, at most ${QUICK_REPLIES_MAX}; \`query\` matches the shortcut or the answer (case-insensitive).`,
      body: ListQuickRepliesBody,
      response: Type.Array(quickReply, { maxItems: QUICK_REPLIES_MAX }),
      errors: [],
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
      response: quickReply,
      errors: [],
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
      response: quickReply,
      errors: [404],
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
      response: quickReply,
      errors: [404],
    },
    'write',
    (caller, body) => quickReplies.delete(caller, body),
  );
}
