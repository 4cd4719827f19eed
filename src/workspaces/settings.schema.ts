import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

// What Settings → API Tokens and Settings → Workspace are answered (docs/dashboard-openapi.yaml).

const Scope = Type.Union([Type.Literal('read'), Type.Literal('full')]);
/** How a token's sends to customers go: at once, or held for a person's approval (decision 0160). */
export const TokenModeSchema = Type.Union([Type.Literal('direct'), Type.Literal('approval')], {
  description: "`direct`: its sends go out at once; `approval`: its sends to customers wait for a person's approval",
});
const ApprovalTimeout = NullableField(
  Type.Integer({ description: "An approval token's: minutes a held send waits before it expires; null: direct" }),
);

/** A token as listed: never its secret. */
export const TokenRow = Type.Object({
  id: Uuid(),
  name: Type.String(),
  scope: Scope,
  mode: TokenModeSchema,
  approval_timeout_minutes: ApprovalTimeout,
  prefix: Type.String({ description: 'The first characters of the token, to recognise it by' }),
  created_by: Type.String({ description: "Its creator's email" }),
  created_at: NullableField(Timestamp()),
  last_used_at: NullableField(Timestamp()),
  revoked_at: NullableField(Timestamp()),
});

/** A new token: the secret is shown this once. */
export const IssuedToken = Type.Object({
  id: Uuid(),
  name: Type.String(),
  scope: Scope,
  mode: TokenModeSchema,
  approval_timeout_minutes: ApprovalTimeout,
  prefix: Type.String(),
  token: Type.String(),
  created_at: Timestamp(),
});

export const RevokedToken = Type.Object({ id: Uuid(), revoked_at: Timestamp() });

export const WorkspaceSettings = Type.Object({
  id: Uuid(),
  name: Type.String(),
  time_zone: Type.String(),
  poll_interval_seconds: Type.Integer(),
  media_retention_days: NullableField(Type.Integer({ description: 'Null: received media is kept for ever' })),
  media_storage: Type.Object(
    { bytes: Type.Integer(), files: Type.Integer(), store: Type.String() },
    { description: 'What the workspace keeps in the media store now' },
  ),
});
