import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionUserOf, type Api } from '../http/types.js';
import type { MediaService } from '../messages/index.js';
import type { EventHub, InboxEvent } from './event-hub.js';
import { HEARTBEAT_MS, type EventStreams } from './event-streams.js';
import { runBulk } from './bulk.js';
import { INBOX_FILTERS, type PRIORITIES } from './inbox.repository.js';
import {
  Changed,
  ConversationListPage,
  Done,
  InboxSettings,
  LabelNames,
  Labels,
  Members,
  NoteAdded,
  Priority,
  ReadAt,
  Thread,
  UnreadConversations,
  BulkResult,
} from './inbox.schema.js';
import { decodeCursor, type InboxService, type Viewer } from './inbox.service.js';
import { Uuid } from '../http/responses.js';
import { errors } from '../shared/errors.js';
import { inboxProblems } from './inbox.problems.js';

const access = 'session' as const;
/** Every inbox endpoint, the live event stream included, is conversation work. */
const permission = 'conversations' as const;
/** Media a browser may show inline; anything else (SVG, HTML, PDF…) downloads as a file. */
const INLINE_TYPES = /^(image\/(jpeg|png|gif|webp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

const ContactParams = Type.Object({ contactId: Uuid() });
/** The conversation tools' routes: what an agent may do to conversations. */
const tools = { access, permission: 'conversations' } as const;
/** The list's filters, as GET /api/dashboard/conversations takes them and a bulk action repeats them. */
const ListFilters = {
  filter: Type.Optional(Type.Union(INBOX_FILTERS.map((filter) => Type.Literal(filter)))),
  channel_id: Type.Optional(Uuid()),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  label_id: Type.Optional(Uuid()),
  priority: Type.Optional(Priority),
};
type ListFilterInput = { filter?: (typeof INBOX_FILTERS)[number] } & Partial<
  Record<'channel_id' | 'q' | 'label_id', string>
> & { priority?: (typeof PRIORITIES)[number] };
const listQueryOf = (input: ListFilterInput) => ({
  filter: input.filter ?? 'open',
  channelId: input.channel_id,
  search: input.q?.trim() || undefined,
  labelId: input.label_id,
  priority: input.priority,
});
const viewerOf = (request: FastifyRequest): Viewer => {
  const user = sessionUserOf(request);
  return { workspaceId: user.workspaceId, userId: user.userId };
};

/** The inbox's dashboard endpoints: conversations, threads, their state, received media, and live events. */
export function registerInboxRoutes(
  app: Api,
  inbox: InboxService,
  live: { hub: EventHub; streams: EventStreams },
  media: MediaService,
): void {
  app.get(
    '/api/dashboard/conversations',
    {
      config: { access, permission },
      schema: {
        querystring: Type.Object({ ...ListFilters, before: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: { 200: ConversationListPage },
      },
    },
    async (request) =>
      inbox.list(viewerOf(request), listQueryOf(request.query), decodeCursor(request.query.before, 'before')),
  );

  registerToolRoutes(app, inbox);

  app.get(
    '/api/dashboard/inbox/unread',
    { config: { access, permission }, schema: { response: { 200: UnreadConversations } } },
    async (request) => inbox.unread(viewerOf(request)),
  );

  app.get(
    '/api/dashboard/conversations/:contactId',
    {
      config: { access, permission },
      schema: {
        params: ContactParams,
        querystring: Type.Object({ before: Type.Optional(Type.String()) }),
        response: { 200: Thread },
      },
    },
    async (request) =>
      inbox.thread(viewerOf(request), request.params.contactId, decodeCursor(request.query.before, 'before')),
  );

  app.post(
    '/api/dashboard/conversations/:contactId/read',
    { config: { access, permission }, schema: { params: ContactParams, response: { 200: ReadAt } } },
    async (request) => inbox.markRead(viewerOf(request), request.params.contactId, request.log),
  );

  app.post(
    '/api/dashboard/conversations/:contactId/notes',
    {
      config: { access, permission },
      schema: {
        params: ContactParams,
        body: Type.Object({ body: Type.String({ maxLength: 4096 }) }),
        response: { 200: NoteAdded },
      },
    },
    async (request) => inbox.addNote(viewerOf(request), request.params.contactId, request.body.body),
  );

  app.get(
    '/api/dashboard/inbox/settings',
    { config: { access, permission }, schema: { response: { 200: InboxSettings } } },
    async (request) => inbox.settings(viewerOf(request)),
  );

  app.put(
    '/api/dashboard/inbox/settings',
    // Workspace-wide (it changes what every agent's opening of a conversation does): Settings → Workspace.
    {
      config: { access, permission: 'manage_workspace' },
      schema: { body: Type.Object({ typing_indicator: Type.Boolean() }), response: { 200: InboxSettings } },
    },
    async (request) => inbox.updateSettings(viewerOf(request), request.body),
  );

  app.post(
    '/api/dashboard/conversations/:contactId/done',
    {
      config: { access, permission },
      schema: { params: ContactParams, body: Type.Object({ done: Type.Boolean() }), response: { 200: Done } },
    },
    async (request) => inbox.setDone(viewerOf(request), request.params.contactId, request.body.done),
  );

  app.get(
    '/api/dashboard/media/:messageId',
    { config: { access, permission }, schema: { params: Type.Object({ messageId: Uuid() }) } },
    async (request, reply) => {
      const { file, body } = await media.open(viewerOf(request), request.params.messageId);
      const inline = INLINE_TYPES.test(file.mime_type);
      return reply
        .headers({
          // The stored type always (nosniff: the browser believes it); what it may not show inline downloads.
          'content-type': file.mime_type,
          'content-length': String(file.size),
          'content-disposition': inline ? 'inline' : `attachment; filename="${file.media_id}"`,
          'content-security-policy': "default-src 'none'; sandbox",
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, max-age=86400',
        })
        .send(body);
    },
  );

  registerEventStream(app, live.hub, live.streams);
}

/** The conversation tools: labels, priority, snooze, and bulk actions on the ticked or all matching conversations. */
function registerToolRoutes(app: Api, inbox: InboxService): void {
  app.get(
    '/api/dashboard/conversation-labels',
    { config: tools, schema: { response: { 200: Labels } } },
    async (request) => inbox.labels.list(viewerOf(request).workspaceId),
  );

  // Whom a bulk action may assign to: the workspace's members.
  app.get('/api/dashboard/inbox/members', { config: tools, schema: { response: { 200: Members } } }, async (request) =>
    inbox.members(viewerOf(request)),
  );

  app.post(
    '/api/dashboard/conversations/:contactId/labels',
    {
      config: tools,
      schema: {
        params: ContactParams,
        body: Type.Object({ labels: Type.Array(Type.String({ maxLength: 64 })) }),
        response: { 200: LabelNames },
      },
    },
    async (request) => {
      await inbox.setLabels(viewerOf(request), request.params.contactId, request.body.labels);
      return { labels: request.body.labels };
    },
  );

  app.post(
    '/api/dashboard/conversations/:contactId/priority',
    {
      config: tools,
      schema: { params: ContactParams, body: Type.Object({ priority: Priority }), response: { 200: Changed } },
    },
    async (request) => inbox.setPriority(viewerOf(request), [request.params.contactId], request.body.priority),
  );

  app.post(
    '/api/dashboard/conversations/:contactId/snooze',
    {
      config: tools,
      schema: {
        params: ContactParams,
        body: Type.Object({ until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) }),
        response: { 200: Changed },
      },
    },
    async (request) => {
      const { until } = request.body;
      return inbox.snooze(viewerOf(request), [request.params.contactId], until === null ? null : new Date(until));
    },
  );

  app.post(
    '/api/dashboard/conversations/:contactId/unsnooze',
    { config: tools, schema: { params: ContactParams, response: { 200: Changed } } },
    async (request) => inbox.unsnooze(viewerOf(request), [request.params.contactId]),
  );

  app.post(
    '/api/dashboard/conversations/bulk',
    {
      config: tools,
      schema: {
        response: { 200: BulkResult },
        body: Type.Object({
          action: Type.Union([
            Type.Literal('close'),
            Type.Literal('reopen'),
            Type.Literal('assign'),
            Type.Literal('label'),
          ]),
          contact_ids: Type.Optional(Type.Array(Uuid(), { minItems: 1, maxItems: 1000 })),
          filter: Type.Optional(Type.Object(ListFilters)),
          user_id: Type.Optional(Type.Union([Uuid(), Type.Null()])),
          label: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        }),
      },
    },
    async (request) => {
      const { action, contact_ids: contactIds, filter, user_id: userId, label } = request.body;
      const target = { contactIds, filter: filter && listQueryOf(filter) };
      if (action === 'assign' && userId === undefined)
        throw errors.invalid(inboxProblems.problem('user_id', 'person_required'));
      if (action === 'label' && !label) throw errors.invalid(inboxProblems.problem('label', 'label_required'));
      const chosen =
        action === 'assign'
          ? { type: action, user_id: userId ?? null }
          : action === 'label'
            ? { type: action, labels: [label!] }
            : { type: action };
      return runBulk(inbox, viewerOf(request), target, chosen);
    },
  );
}

/**
 * GET /api/dashboard/events: Server-Sent Events of the session's workspace (new messages, status
 * changes, conversation changes), with a heartbeat comment every 15 s. At most STREAMS_PER_SESSION
 * per session (429 past them); a stream ends when its session does (logout, removal, expiry) and
 * when the server closes, so shutdown never waits on an open browser tab; EventSource reconnects by
 * itself after a restart.
 */
function registerEventStream(app: Api, hub: EventHub, streams: EventStreams): void {
  const open = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of open) end();
    done();
  });

  app.get('/api/dashboard/events', { config: { access, permission } }, async (request, reply: FastifyReply) => {
    const { workspaceId, sessionId } = sessionUserOf(request);
    const streamId = await streams.open(sessionId);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
      // An ended stream's connection is not reused (EventSource opens a new one), so it never idles on.
      connection: 'close',
    });
    // Tells EventSource how soon to reconnect after the stream ends (a restart, a deploy).
    raw.write('retry: 2000\n\n');
    const send = (events: InboxEvent[]) => {
      for (const event of events) raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const unsubscribe = hub.subscribe(workspaceId, send);
    // The heartbeat's comment keeps proxies from closing an idle stream; its touch notices an ended session.
    const beat = async () => {
      const alive = await streams.touch(streamId).catch(() => false);
      if (!open.has(end)) return;
      if (alive) raw.write(': heartbeat\n\n');
      else end();
    };
    const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    heartbeat.unref();
    const forget = streams.onSessionEnd(sessionId, () => end());
    const end = () => {
      if (!open.delete(end)) return;
      clearInterval(heartbeat);
      unsubscribe();
      forget();
      if (!raw.writableEnded) raw.end();
      streams.close(streamId).catch((error: unknown) => request.log.warn({ err: error }, 'event stream not forgotten'));
    };
    open.add(end);
    request.raw.on('close', end);
    // A closed tab half-closes the connection, which the server keeps open (allowHalfOpen) until a write fails.
    request.raw.socket.once('end', end);
    // The tab may have gone while the stream was being counted.
    if (request.raw.socket.destroyed) end();
  });
}
