import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { ContactService } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { actionErrors, Uuid } from '../http/responses.js';
import { principalOf, sessionUserOf, type Api } from '../http/types.js';
import { ListedMessageSchema, ListMessagesBody, MESSAGE_LIST_MAX } from './message.schema.js';
import { latestMessages, recentMessages } from './recent-messages.js';

const DEFAULT_LIMIT = 50;

/** The Simulator's conversation view: the contact and their latest messages. */
const SimulatorMessages = Type.Object({
  contact: Type.Object({ id: Uuid(), phone: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
  messages: Type.Array(Type.Ref(ListedMessageSchema)),
});

/** list-messages: a contact's conversation, newest first (additive to the spec; agents read history with it). */
export function registerMessageListRoutes(app: Api, deps: { contacts: ContactService; db: Kysely<Database> }): void {
  app.addSchema(ListedMessageSchema);
  app.post(
    '/api/v1/actions/list-messages',
    {
      config: { access: 'read', permission: 'conversations' },
      schema: {
        operationId: 'listMessages',
        tags: ['Messages'],
        summary: "A contact's latest messages, newest first",
        description: `The contact's messages in both directions (inbound \`received\`, outbound with their delivery status), newest first (created_at, then id, descending): the latest \`limit\` (default ${DEFAULT_LIMIT}, at most ${MESSAGE_LIST_MAX}). Each outbound message names its \`sender\`, as the dashboard's conversation does: \`{ "type": "user", "id", "name" }\` for a team member, \`api\` for an API token, \`campaign\`, \`sequence\` or \`flow\` for an automation, \`system\` for Parley's own opt-out confirmation; inbound messages have \`sender: null\`. Private notes are staff-only and never listed.`,
        body: ListMessagesBody,
        response: {
          200: Type.Array(Type.Ref(ListedMessageSchema), { maxItems: MESSAGE_LIST_MAX }),
          ...actionErrors(404),
        },
      },
    },
    async (request) => {
      const caller = principalOf(request);
      const contact = await deps.contacts.recipient(caller, request.body);
      return latestMessages(deps.db, caller.workspaceId, contact, request.body.limit ?? DEFAULT_LIMIT);
    },
  );

  // The simulator page's conversation with one simulated customer.
  app.get(
    '/api/dashboard/simulator/messages',
    {
      config: { access: 'session', permission: 'conversations' },
      schema: { querystring: Type.Object({ contact_id: Uuid() }), response: { 200: SimulatorMessages } },
    },
    async (request) => recentMessages(deps.db, sessionUserOf(request).workspaceId, request.query.contact_id),
  );
}
