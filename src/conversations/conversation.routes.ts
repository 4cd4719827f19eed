import { Type } from '@sinclair/typebox';
import { listingResponse, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors, readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { type LabelService, BulkResult, LabelSchema } from '../inbox/index.js';
import {
  BulkBody,
  ContactParams,
  CONVERSATION_PAGE_LIMIT,
  ConversationList,
  ConversationPage,
  ConversationSchema,
  CreateLabelBody,
  DeletedLabel,
  LabelList,
  LabelParams,
  LabelsBody,
  ListQuery,
  NoteBody,
  NoteCreated,
  PriorityBody,
  SnoozeBody,
  UpdateLabelBody,
} from './conversation.schema.js';
import { snoozeUntil, type ConversationApi } from './conversation.service.js';

const tags = ['Conversations'];
const conversations = { access: 'read', permission: 'conversations' } as const;
const changes = { access: 'write', permission: 'conversations' } as const;
/** The label set is the workspace's vocabulary: agents apply labels, owners and admins define them. */
const labelSettings = { access: 'write', permission: 'routing' } as const;
const One = Type.Ref(ConversationSchema);

/** The public API's conversations (`/api/v1/conversations`) and their labels (`/api/v1/conversation-labels`). */
export function registerConversationRoutes(app: Api, api: ConversationApi, labels: LabelService): void {
  app.addSchema(ConversationSchema);
  app.addSchema(ConversationPage);
  app.addSchema(LabelSchema);

  app.get(
    '/api/v1/conversations',
    {
      config: conversations,
      schema: {
        operationId: 'listConversations',
        tags,
        summary: 'List conversations',
        description:
          'Conversations newest first (by latest message). `status` open (the default: the customer wrote and no one closed or snoozed it), closed or snoozed; `assignee_id`, `label` and `priority` narrow it. Without `paginate=cursor`, the first page.',
        querystring: ListQuery,
        response: { 200: listingResponse(ConversationList, ConversationPage), ...readErrors(403, 422) },
      },
    },
    async (request, reply) => {
      const { paginate, cursor, limit, ...filters } = request.query;
      const page = pageRequest({ paginate, cursor, limit }, CONVERSATION_PAGE_LIMIT);
      const listing = await api.list(principalOf(request), filters, page);
      return sendListing(reply, listing, { list: ConversationList, page: ConversationPage });
    },
  );

  app.get(
    '/api/v1/conversations/:contact_id',
    {
      config: conversations,
      schema: {
        operationId: 'getConversation',
        tags,
        summary: 'Get a conversation',
        description: 'One conversation, addressed by its contact’s id: status, priority, labels, assignee, snooze.',
        params: ContactParams,
        response: { 200: One, ...readErrors(403, 404) },
      },
    },
    async (request) => api.get(principalOf(request), request.params.contact_id),
  );

  app.post(
    '/api/v1/conversations/:contact_id/notes',
    {
      config: changes,
      schema: {
        operationId: 'addConversationNote',
        tags,
        summary: 'Add a private note',
        description: 'A note staff see in the thread; it is never sent to the customer.',
        params: ContactParams,
        body: NoteBody,
        response: { 200: NoteCreated, ...actionErrors(404) },
      },
    },
    async (request) => api.note(principalOf(request), request.params.contact_id, request.body.body),
  );

  app.put(
    '/api/v1/conversations/:contact_id/labels',
    {
      config: changes,
      schema: {
        operationId: 'setConversationLabels',
        tags,
        summary: 'Set a conversation’s labels',
        description:
          'Replaces the conversation’s labels with those named (labels of the workspace; an unknown name is a 400). `[]` takes them all off.',
        params: ContactParams,
        body: LabelsBody,
        response: { 200: One, ...actionErrors(404) },
      },
    },
    async (request) => api.setLabels(principalOf(request), request.params.contact_id, request.body.labels),
  );

  app.put(
    '/api/v1/conversations/:contact_id/priority',
    {
      config: changes,
      schema: {
        operationId: 'setConversationPriority',
        tags,
        summary: 'Set a conversation’s priority',
        params: ContactParams,
        body: PriorityBody,
        response: { 200: One, ...actionErrors(404) },
      },
    },
    async (request) =>
      api.act(principalOf(request), request.params.contact_id, { type: 'priority', priority: request.body.priority }),
  );

  const statusAction = (
    verb: 'close' | 'reopen' | 'unsnooze',
    operationId: string,
    summary: string,
    description: string,
  ) =>
    app.post(
      `/api/v1/conversations/:contact_id/${verb}`,
      {
        config: changes,
        schema: {
          operationId,
          tags,
          summary,
          description,
          params: ContactParams,
          response: { 200: One, ...actionErrors(404) },
        },
      },
      async (request) => api.act(principalOf(request), request.params.contact_id, { type: verb }),
    );
  statusAction(
    'close',
    'closeConversation',
    'Close a conversation',
    'Closes it (settling a flow’s hand-off); the customer’s next message reopens it. Closing a closed conversation changes nothing.',
  );
  statusAction(
    'reopen',
    'reopenConversation',
    'Reopen a conversation',
    'Opens a closed or snoozed conversation again; an open one is left as it is.',
  );
  statusAction(
    'unsnooze',
    'unsnoozeConversation',
    'End a snooze',
    'A snoozed conversation is open again at once; one that is not snoozed is left as it is.',
  );

  app.post(
    '/api/v1/conversations/:contact_id/snooze',
    {
      config: changes,
      schema: {
        operationId: 'snoozeConversation',
        tags,
        summary: 'Snooze a conversation',
        description:
          'Takes the conversation out of the open list until `until` (at most a year ahead) or, with `until` null, until the customer next writes; the customer’s message always ends a snooze. Snoozing again moves the time.',
        params: ContactParams,
        body: SnoozeBody,
        response: { 200: One, ...actionErrors(404) },
      },
    },
    async (request) =>
      api.act(principalOf(request), request.params.contact_id, {
        type: 'snooze',
        until: snoozeUntil(request.body.until),
      }),
  );

  app.post(
    '/api/v1/conversations/bulk',
    {
      config: changes,
      schema: {
        operationId: 'bulkConversations',
        tags,
        summary: 'Act on many conversations',
        description:
          'One action (close, reopen, assign with `user_id`, label with `labels` to add, priority with `priority`, snooze with `until`, unsnooze) on the conversations in `contact_ids`, or on every conversation `filter` matches (all pages, at most 10,000), or on the ids among those the filter matches. The same rules as the single actions; send an Idempotency-Key to retry safely.',
        body: BulkBody,
        response: { 200: BulkResult, ...actionErrors(404) },
      },
    },
    async (request) => api.bulk(principalOf(request), request.body),
  );

  registerLabelRoutes(app, labels);
}

function registerLabelRoutes(app: Api, labels: LabelService): void {
  const labelTags = ['Conversations'];
  app.get(
    '/api/v1/conversation-labels',
    {
      config: conversations,
      schema: {
        operationId: 'listConversationLabels',
        tags: labelTags,
        summary: 'List conversation labels',
        description: 'The workspace’s conversation labels (not contacts’ tags), alphabetical.',
        response: { 200: LabelList, ...readErrors(403) },
      },
    },
    async (request) => labels.list(principalOf(request).workspaceId),
  );

  app.post(
    '/api/v1/conversation-labels',
    {
      config: labelSettings,
      schema: {
        operationId: 'createConversationLabel',
        tags: labelTags,
        summary: 'Create a conversation label',
        description: 'A name (unique in the workspace, case-insensitive) and a colour (`#rrggbb`, grey by default).',
        body: CreateLabelBody,
        response: { 201: Type.Ref(LabelSchema), ...actionErrors() },
      },
    },
    async (request, reply) => reply.code(201).send(await labels.create(principalOf(request).workspaceId, request.body)),
  );

  app.patch(
    '/api/v1/conversation-labels/:label_id',
    {
      config: labelSettings,
      schema: {
        operationId: 'updateConversationLabel',
        tags: labelTags,
        summary: 'Rename or recolour a conversation label',
        description: 'Conversations keep the label under its new name.',
        params: LabelParams,
        body: UpdateLabelBody,
        response: { 200: Type.Ref(LabelSchema), ...actionErrors(404) },
      },
    },
    async (request) => labels.update(principalOf(request).workspaceId, request.params.label_id, request.body),
  );

  app.delete(
    '/api/v1/conversation-labels/:label_id',
    {
      config: labelSettings,
      schema: {
        operationId: 'deleteConversationLabel',
        tags: labelTags,
        summary: 'Delete a conversation label',
        description: 'Removes the label from every conversation and deletes it.',
        params: LabelParams,
        response: { 200: DeletedLabel, ...actionErrors(404) },
      },
    },
    async (request) => labels.remove(principalOf(request).workspaceId, request.params.label_id),
  );
}
