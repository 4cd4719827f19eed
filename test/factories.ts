import { randomUUID } from 'node:crypto';
import type { Services } from '../src/services.js';
import type { TemplateInput } from '../src/templates/template.schema.js';
import type { TokenScope } from '../src/access/principal.js';
import { messageRepository } from '../src/messages/message.repository.js';
import type { HttpClient, HttpResponse, TestServer } from './server.js';

/** A fresh workspace with its owner and a token, and a client that calls the API as that token. */
export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  token: string;
  tokenId: string;
  /** POST /api/v1/actions/<action> as this workspace. */
  action<T = unknown>(name: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  /** GET /api<pathname> as this workspace. */
  get<T = unknown>(pathname: string): Promise<HttpResponse<T>>;
}

/** Creates a workspace (each test gets its own: no truncation, tests run in parallel). */
export async function createWorkspace(
  server: TestServer,
  options: { scope?: TokenScope; pollIntervalSeconds?: number; rateLimitPerMinute?: number } = {},
): Promise<TestWorkspace> {
  const { services } = server.app;
  const { workspace, user } = await services.workspaces.setup({
    name: `Test ${randomUUID().slice(0, 8)}`,
    email: `owner-${randomUUID()}@example.com`,
    password: 'correct horse battery',
  });
  if (options.pollIntervalSeconds !== undefined || options.rateLimitPerMinute !== undefined) {
    await services.workspaces.update(workspace.id, {
      ...(options.pollIntervalSeconds !== undefined && { pollIntervalSeconds: options.pollIntervalSeconds }),
      ...(options.rateLimitPerMinute !== undefined && { rateLimitPerMinute: options.rateLimitPerMinute }),
    });
  }
  const issued = await services.tokens.create({
    workspaceId: workspace.id,
    userId: user.id,
    name: 'test',
    scope: options.scope ?? 'full',
  });
  return asClient(server.http, { workspaceId: workspace.id, userId: user.id, token: issued.token, tokenId: issued.id });
}

/** A client for an existing token. */
export function asClient(
  http: HttpClient,
  ids: { workspaceId: string; userId: string; token: string; tokenId: string },
): TestWorkspace {
  return {
    ...ids,
    action: (name, body = {}, headers = {}) =>
      http.send('POST', `/api/v1/actions/${name}`, { token: ids.token, body, headers }),
    get: (pathname) => http.send('GET', `/api${pathname}`, { token: ids.token }),
  };
}

/** An API client (a full-scope token) for a workspace whose owner also uses the dashboard. */
export async function ownerApi(
  server: TestServer,
  owner: { workspaceId: string; userId: string },
): Promise<TestWorkspace> {
  const { workspaceId, userId } = owner;
  const issued = await server.app.services.tokens.create({ workspaceId, userId, name: 'test', scope: 'full' });
  return asClient(server.http, { workspaceId, userId, token: issued.token, tokenId: issued.id });
}

/** A template with sensible defaults, through the same service the import uses. */
export async function createTemplate(
  services: Services,
  workspaceId: string,
  input: Partial<TemplateInput> & { translations?: TemplateInput['translations'] } = {},
) {
  return services.templates.upsert(
    { workspaceId },
    {
      name: input.name ?? `order_update_${randomUUID().slice(0, 8)}`,
      category: input.category ?? 'UTILITY',
      translations: input.translations ?? [
        { language: 'en_US', status: 'APPROVED', body: 'Hi {{1}}, your order {{2}} has shipped.' },
      ],
    },
  );
}

/**
 * An approved template with an image header whose sample is Meta's upload handle (not a link), as
 * synced templates have: a send must give the image. `body` may hold variables.
 */
export function createImageHeaderTemplate(services: Services, workspaceId: string, body = 'New!') {
  return createTemplate(services, workspaceId, {
    name: `photo_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    translations: [
      { language: 'en_US', status: 'APPROVED', header_type: 'IMAGE', header_content: '4::aW1hZ2U=:ARb', body },
    ],
  });
}

/** Stores a message row directly (feeds need history faster than the API makes it); returns its id and time. */
export async function insertMessage(
  server: TestServer,
  fields: {
    workspaceId: string;
    contactId: string;
    direction: 'inbound' | 'outbound';
    type?: string;
    content: object;
    wamid?: string;
  },
): Promise<{ id: string; at: string }> {
  const { db, newId, clock } = server.app.services.deps;
  const id = newId();
  const at = clock.now().toISOString();
  const message = {
    id,
    workspace_id: fields.workspaceId,
    contact_id: fields.contactId,
    type: fields.type ?? 'text',
    content: JSON.stringify(fields.content),
    status: fields.direction === 'inbound' ? 'received' : 'sent',
    provider_message_id: fields.wamid ?? `wamid.${randomUUID()}`,
    error: null,
    created_at: at,
    updated_at: at,
  };
  const messages = messageRepository(db);
  if (fields.direction === 'outbound') {
    await messages.insertOutbound([message]);
  } else {
    const sender = await db
      .selectFrom('contacts')
      .select(['id', 'phone', 'name', 'email'])
      .where('id', '=', fields.contactId)
      .executeTakeFirstOrThrow();
    await messages.insertInbound([{ message, sender }]);
  }
  return { id, at };
}

/** Records an inbound message the way the webhook will, opening the contact's conversation. */
export async function recordInboundMessage(
  server: TestServer,
  workspaceId: string,
  contactId: string,
  message: { type?: string; content?: Record<string, unknown>; wamid?: string } = {},
): Promise<string> {
  const { id, at } = await insertMessage(server, {
    workspaceId,
    contactId,
    direction: 'inbound',
    content: message.content ?? { body: 'hello' },
    ...(message.type && { type: message.type }),
    ...(message.wamid && { wamid: message.wamid }),
  });
  await server.app.services.deps.db
    .updateTable('contacts')
    .set({ last_message_at: at, last_inbound_at: at })
    .where('id', '=', contactId)
    .execute();
  return id;
}
