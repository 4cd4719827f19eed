import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { NOTIFICATION_KINDS, type NotificationKind } from './notification.preferences.js';

// What the dashboard's notification endpoints answer (docs/dashboard-openapi.yaml).

const Named = Type.Object({ id: Uuid(), name: Type.String() });
const Channels = Type.Object({ in_app: Type.Boolean(), email: Type.Boolean() });

export const NotificationList = Type.Object({
  notifications: Type.Array(
    Type.Object({
      id: Uuid(),
      kind: Type.Union(NOTIFICATION_KINDS.map((kind) => Type.Literal(kind))),
      contact: Named,
      actor: Type.Union([Named, Type.Null()], { description: 'Who did it; null: the customer or Parley' }),
      created_at: Timestamp(),
      read_at: NullableField(Timestamp()),
    }),
  ),
  unread: Type.Integer(),
});

export const UnreadNotifications = Type.Object({ unread: Type.Integer() });
export const MarkedRead = Type.Object({ marked: Type.Integer(), unread: Type.Integer() });

/** Each kind of notification, in the app and by email. */
export const NotificationPreferences = Type.Object({
  preferences: Type.Object(
    Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Channels])) as Record<NotificationKind, typeof Channels>,
  ),
  email_enabled: Type.Boolean(),
});
