import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { FastifySchema, HTTPMethods } from 'fastify';
import { rolesWith, type Permission } from '../access/roles.js';
import { ERROR_CODES } from '../shared/errors.js';
import { isDashboardRoute, registerDashboardOpenApi } from './dashboard-openapi.js';
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from './problem.js';
import type { Api } from './types.js';

const API_PREFIX = '/api';

const DESCRIPTION = `The Parley REST API: contacts, tags, templates, messages, sequences, flows and polling
triggers of one workspace. Every request carries \`Authorization: Bearer <token>\`; tokens are minted in
the dashboard (Settings → API Tokens) or with \`parley token create\`.

**Errors** share one shape, RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`:
${Object.entries(ERROR_CODES)
  .map(([code, { status, title }]) => `- \`${code}\` (${status}): ${title}`)
  .join('\n')}

**Roles**: a token acts with its creator's role as it is now (owner, admin, member, agent or marketer); an
action the role does not include answers 403 \`permission_denied\`, naming the permission and the roles that
have it. Reading contacts, tags, templates and channels is open to every role.

**Idempotency**: every POST action accepts an \`Idempotency-Key\` header (1–255 visible ASCII characters).
A retry with the same key and body within 24 hours returns the first response (with header
\`Idempotent-Replayed: true\`) without doing the work again; the same key with another body is a 422.

**Rate limits**: each token may make the workspace's requests-per-minute (default 120); each trigger feed may
be polled once per workspace interval (default 30 s) per token. Responses carry \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 carries \`Retry-After\`.`;

/**
 * The OpenAPI 3.1 document, generated from the route schemas that also validate requests, served
 * as YAML and JSON, with a rendered reference at /api/docs. Paths are written as the spec writes
 * them (`/v1/...`) under a server URL ending in `/api`.
 */
export async function registerOpenApi(app: Api, publicBaseUrl: string): Promise<void> {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: `${publicBaseUrl}${API_PREFIX}` }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_…' } } },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'Identity', description: 'Who the token belongs to' },
        { name: 'Contacts', description: 'Contacts and their tags' },
        { name: 'Tags', description: 'Tags' },
        {
          name: 'Conversations',
          description:
            'The team inbox: conversations (by contact id), their status, labels, priority, snooze and notes',
        },
        { name: 'Routing', description: 'Teams, availability, routing rules and who handles each conversation' },
        { name: 'Templates', description: 'Approved WhatsApp message templates' },
        { name: 'Messages', description: 'Sending through the outbox, and the messages stored' },
        { name: 'Sequences and flows', description: 'Drip sequences and chatbot flows' },
        { name: 'Campaigns', description: 'Broadcasts of an approved template to an audience, now or scheduled' },
        { name: 'Triggers', description: 'Polling feeds, newest first' },
        { name: 'Dropdowns', description: 'Pick-lists for integration tools' },
        { name: 'Webhooks', description: 'Signed push delivery of events to your URLs, with a delivery log' },
        { name: 'Channels', description: "The workspace's business numbers (WhatsApp Cloud or simulated)" },
        { name: 'Quick replies', description: "The workspace's saved answers, offered in the inbox's reply box" },
        {
          name: 'Groups',
          description: "WhatsApp groups on the workspace's numbers (Meta's Groups API) and their conversations",
        },
        {
          name: 'WhatsApp Flows',
          description:
            "Meta's forms (WhatsApp Flows) of the workspace's WhatsApp Business Account, managed through Meta's Flows API",
        },
        {
          name: 'Reports',
          description:
            'Agents and teams, the AI assistant, volume and campaign outcomes over a date range, filtered by number, team and label, as JSON or CSV',
        },
        {
          name: 'AI',
          description:
            "The workspace's own AI model (any OpenAI-compatible endpoint): its settings, a test round trip, this month's usage",
        },
        {
          name: 'Knowledge',
          description:
            'What the workspace’s AI teammate answers from: Q&A pairs, documents, templates and quick replies, searched by words and by meaning',
        },
        {
          name: 'Copilot',
          description:
            'Help for the person answering a conversation, from the workspace’s AI model: a suggested reply, a summary, a rewritten draft; nothing is sent',
        },
        {
          name: 'AI assistant',
          description:
            'The AI teammate that answers customers from the knowledge and hands conversations to people: its settings and what it did on each turn',
        },
        {
          name: 'Workspace',
          description:
            'Business hours and the away reply, the satisfaction survey, and what Meta reported about the account and its numbers',
        },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // The dashboard's own routes are in their own document (dashboard-openapi.ts), never in this one.
    transform: ({ schema, url, route }) => ({
      schema: isDashboardRoute(url)
        ? { ...schema, hide: true }
        : documentRoute(schema, route.method, route.config?.permission),
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url,
    }),
  });
  await registerDashboardOpenApi(app);
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: true } });

  const hidden = { schema: { hide: true }, config: { access: 'public' as const } };
  app.get('/api/v1/openapi.yaml', hidden, (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
  app.get('/api/v1/openapi.json', hidden, () => app.swagger());
}

/** The permission a route needs, for its description and as `x-permission`. */
function rolePermission(schema: FastifySchema, permission: Permission) {
  const needs = `Needs the role permission \`${permission}\` (${rolesWith(permission).join(', ')}).`;
  const description = typeof schema.description === 'string' ? `${schema.description}\n\n${needs}` : needs;
  return { description, 'x-permission': permission };
}

const IdempotencyHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Makes a retry safe: the same key and body within 24 hours returns the first response',
    }),
  ),
});

/**
 * Documents what the hooks add to every route (a copy; the route's own schema is untouched):
 * errors are served as `application/problem+json`, 429s carry Retry-After, POST actions accept
 * `Idempotency-Key`, and the role permission it needs is named (`x-permission` and a sentence).
 */
function documentRoute(
  schema: FastifySchema,
  method: HTTPMethods | HTTPMethods[],
  permission: Permission | undefined,
): FastifySchema {
  if (!schema || schema.hide) return schema;
  const responses = Object.entries((schema.response ?? {}) as Record<string, { description?: string }>).map(
    ([status, response]) => {
      if (Number(status) < 400) return [status, response];
      const headers = status === '429' && {
        headers: { 'Retry-After': Type.Integer({ description: 'Seconds to wait before retrying' }) },
      };
      const content = { [PROBLEM_CONTENT_TYPE]: { schema: response } };
      return [status, { description: response.description, content, ...headers }];
    },
  );
  const isPost = method === 'POST' || (Array.isArray(method) && method.includes('POST'));
  return {
    ...schema,
    ...(Array.isArray(schema.tags) && { tags: [...(schema.tags as string[])] }),
    ...(isPost && !schema.headers && { headers: IdempotencyHeaders }),
    ...(permission && rolePermission(schema, permission)),
    response: Object.fromEntries(responses),
  };
}
