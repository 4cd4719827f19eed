import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** The most events list-workspace-events returns in one call. */
export const EVENT_LIST_MAX = 100;

export const ListWorkspaceEventsBody = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: EVENT_LIST_MAX, description: 'How many events (default 50)' }),
  ),
});

export const WorkspaceEventSchema = Type.Object(
  {
    id: Uuid(),
    kind: Type.String({
      description:
        "Meta's webhook field: `account_update`, `account_alerts`, `account_review_update`, `business_capability_update`, `phone_number_quality_update`, `phone_number_name_update`, `security`, the group fields (`group_lifecycle_update`, `group_participants_update`, `group_settings_update`, `group_status_update`; also applied to the group), any other field Parley does not model (one Meta adds later), `smb_app_state_sync` (also applied to contacts), `calls` (also kept as calls in the conversations), or `errors` (a messages webhook's `value.errors`)",
    }),
    summary: Type.String({ description: 'One line for people, e.g. `error 130429: Rate limit hit`' }),
    reason: NullableField(Type.String({ description: "For `errors`: what Meta's code means, in plain words" })),
    details: Type.Record(Type.String(), Type.Unknown(), { description: "Meta's object as delivered" }),
    occurred_at: NullableField(Timestamp("When Meta says it happened (the entry's `time`), when it says")),
    created_at: Timestamp('When Parley recorded it'),
  },
  { $id: 'WorkspaceEvent' },
);
export type WorkspaceEvent = Static<typeof WorkspaceEventSchema>;
