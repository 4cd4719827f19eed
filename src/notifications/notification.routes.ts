import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Uuid } from '../http/responses.js';
import { sessionUserOf, type Api } from '../http/types.js';
import { errors } from '../shared/errors.js';
import { NOTIFICATION_KINDS } from './notification.preferences.js';
import { notificationProblems } from './notification.problems.js';
import type { NotificationService, Recipient } from './notification.service.js';
import { MarkedRead, NotificationList, NotificationPreferences, UnreadNotifications } from './notification.schema.js';

const Channels = Type.Object({ in_app: Type.Boolean(), email: Type.Boolean() }, { additionalProperties: false });
const PreferencesBody = Type.Partial(
  Type.Object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Channels])), { additionalProperties: false }),
);

const recipientOf = (request: FastifyRequest): Recipient => {
  const user = sessionUserOf(request);
  return { workspaceId: user.workspaceId, userId: user.userId };
};

/**
 * The signed-in person's notifications (about conversations, so `conversations` is needed to see them)
 * and their notification preferences (their own account's settings, like their password: every role).
 */
export function registerNotificationRoutes(app: Api, notifications: NotificationService): void {
  const config = { access: 'session', permission: 'conversations' } as const;

  app.get(
    '/api/dashboard/notifications',
    { config, schema: { response: { 200: NotificationList } } },
    async (request) => notifications.list(recipientOf(request)),
  );

  app.get(
    '/api/dashboard/notifications/unread',
    { config, schema: { response: { 200: UnreadNotifications } } },
    async (request) => notifications.unread(recipientOf(request)),
  );

  app.post(
    '/api/dashboard/notifications/read',
    {
      config,
      schema: {
        response: { 200: MarkedRead },
        body: Type.Object(
          { ids: Type.Optional(Type.Array(Uuid(), { maxItems: 100 })), all: Type.Optional(Type.Literal(true)) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { ids, all } = request.body;
      if (all === undefined && ids === undefined)
        throw errors.invalid(notificationProblems.problem('ids', 'ids_or_all_required'));
      return notifications.markRead(recipientOf(request), all ? 'all' : ids!);
    },
  );

  app.get(
    '/api/dashboard/notification-preferences',
    { config: { access: 'session' }, schema: { response: { 200: NotificationPreferences } } },
    async (request) => notifications.preferences(recipientOf(request)),
  );

  app.put(
    '/api/dashboard/notification-preferences',
    { config: { access: 'session' }, schema: { body: PreferencesBody, response: { 200: NotificationPreferences } } },
    async (request) => notifications.savePreferences(recipientOf(request), request.body),
  );
}
