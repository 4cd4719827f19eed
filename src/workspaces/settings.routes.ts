import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import { formatTimestamp } from '../shared/time.js';
import type { TokenService } from './token.service.js';
import type { MediaUsage } from '../media/media-file.repository.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';
import { Uuid } from '../http/responses.js';
import { IssuedToken, RevokedToken, TokenModeSchema, TokenRow, WorkspaceSettings } from './settings.schema.js';
import { APPROVAL_TIMEOUT_MAX_MINUTES } from './token.service.js';

const at = (value: string | null) => value && formatTimestamp(value);

/** Settings → API Tokens and Settings → Workspace (with its media retention and storage), for the dashboard (session only). */
export function registerSettingsRoutes(
  app: Api,
  tokens: TokenService,
  workspaces: WorkspaceService,
  mediaUsage: (workspaceId: string) => Promise<MediaUsage & { store: string }>,
): void {
  app.get(
    '/api/dashboard/tokens',
    { config: { access: 'session' }, schema: { response: { 200: Type.Array(TokenRow) } } },
    async (request) => {
      const rows = await tokens.list(sessionUserOf(request).workspaceId);
      return rows.map((row) => ({
        ...row,
        created_at: at(row.created_at),
        last_used_at: at(row.last_used_at),
        revoked_at: at(row.revoked_at),
      }));
    },
  );

  app.post(
    '/api/dashboard/tokens',
    {
      config: { access: 'session', secretResponse: true },
      schema: {
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100 }),
          scope: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('read')])),
          mode: Type.Optional(TokenModeSchema),
          approval_timeout_minutes: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: APPROVAL_TIMEOUT_MAX_MINUTES,
              description: 'With mode approval: how long a held send waits before it expires (default 60)',
            }),
          ),
        }),
        response: { 200: IssuedToken },
      },
    },
    async (request) => {
      const user = sessionUserOf(request);
      const { approval_timeout_minutes, ...body } = request.body;
      const issued = await tokens.create({
        workspaceId: user.workspaceId,
        userId: user.userId,
        ...body,
        approvalTimeoutMinutes: approval_timeout_minutes,
      });
      return { ...issued, created_at: formatTimestamp(issued.created_at) };
    },
  );

  app.delete(
    '/api/dashboard/tokens/:id',
    { config: { access: 'session' }, schema: { params: Type.Object({ id: Uuid() }), response: { 200: RevokedToken } } },
    async (request) => tokens.revoke(request.params.id, sessionUserOf(request)),
  );

  const present = async (workspace: Workspace) => ({
    id: workspace.id,
    name: workspace.name,
    time_zone: workspace.time_zone,
    poll_interval_seconds: workspace.poll_interval_seconds,
    media_retention_days: workspace.media_retention_days,
    // What the workspace keeps in the media store now: read at each request, never cached.
    media_storage: await mediaUsage(workspace.id),
  });

  app.get(
    '/api/dashboard/workspace',
    { config: { access: 'session' }, schema: { response: { 200: WorkspaceSettings } } },
    async (request) => present(await workspaces.get(sessionUserOf(request).workspaceId)),
  );

  app.put(
    '/api/dashboard/workspace',
    {
      config: { access: 'session', permission: 'manage_workspace' },
      schema: {
        response: { 200: WorkspaceSettings },
        body: Type.Object({
          name: Type.Optional(Type.String({ maxLength: 200 })),
          time_zone: Type.Optional(Type.String({ maxLength: 100 })),
          poll_interval_seconds: Type.Optional(Type.Integer()),
          media_retention_days: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
        }),
      },
    },
    async (request) => {
      const user = sessionUserOf(request);
      const { name, time_zone, poll_interval_seconds, media_retention_days } = request.body;
      const workspace = await workspaces.update(user.workspaceId, {
        name,
        timeZone: time_zone,
        pollIntervalSeconds: poll_interval_seconds,
        mediaRetentionDays: media_retention_days,
      });
      return present(workspace);
    },
  );
}
