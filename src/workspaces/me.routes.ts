import { Type } from '@sinclair/typebox';
import { readErrors, Timestamp, Uuid } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { formatTimestamp } from '../shared/time.js';
import type { WorkspaceService } from './workspace.service.js';

const MeSchema = Type.Object(
  {
    user: Type.Object({ id: Uuid(), email: Type.String(), name: Type.String(), role: Type.String() }),
    workspace: Type.Object({
      id: Uuid(),
      name: Type.String(),
      poll_interval_seconds: Type.Integer({ description: 'Each trigger may be polled once per this many seconds' }),
      rate_limit_per_minute: Type.Integer({ description: 'Requests per minute per token' }),
      created_at: Timestamp(),
    }),
    token: Type.Object({
      id: Uuid(),
      scope: Type.Union([Type.Literal('full'), Type.Literal('read')]),
      mode: Type.Union([Type.Literal('direct'), Type.Literal('approval')], {
        description:
          "`approval`: this token's sends to customers are held (202 `awaiting_approval`) until a person approves them",
      }),
    }),
  },
  { $id: 'Me' },
);

/** GET /v1/me: the token's user and workspace (also the legacy /api/zapier/me credential test). */
export function registerMeRoutes(app: Api, workspaces: WorkspaceService): void {
  app.addSchema(MeSchema);
  for (const [path, legacy] of [
    ['/api/v1/me', false],
    ['/api/zapier/me', true],
  ] as const) {
    app.get(
      path,
      {
        config: { access: 'read' },
        schema: {
          operationId: legacy ? 'getMeLegacy' : 'getMe',
          tags: ['Identity'],
          summary: legacy ? 'The current user and workspace (legacy path)' : 'The current user and workspace',
          ...(legacy && {
            deprecated: true,
            description: 'Same as GET /v1/me; used by older integrations as a credential test.',
          }),
          response: { 200: Type.Ref(MeSchema), ...readErrors() },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const [workspace, user] = await Promise.all([
          workspaces.get(principal.workspaceId),
          workspaces.user(principal.workspaceId, principal.userId),
        ]);
        return {
          user: { id: user.id, email: user.email, name: user.name, role: user.role },
          workspace: {
            id: workspace.id,
            name: workspace.name,
            poll_interval_seconds: workspace.poll_interval_seconds,
            rate_limit_per_minute: workspace.rate_limit_per_minute,
            created_at: formatTimestamp(workspace.created_at),
          },
          token: {
            id: principal.tokenId,
            scope: principal.scope,
            mode: principal.approval ? ('approval' as const) : ('direct' as const),
          },
        };
      },
    );
  }
}
