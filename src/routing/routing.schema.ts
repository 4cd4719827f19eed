import { Type, type Static } from '@sinclair/typebox';
import { pageSchema } from '../http/pagination.js';
import { Nullable, NullableField, Timestamp, Uuid } from '../http/responses.js';

/** The most teams list-teams returns without paging, and its default page size with `paginate=cursor`. */
export const TEAM_LIST_CAP = 500;
export const TEAM_PAGE_LIMIT = 100;
/** Members a team may have at once, and rules a workspace may keep. */
const TEAM_MEMBERS_MAX = 500;
const RULES_MAX = 100;
const RULE_KINDS = ['number', 'keyword', 'tag'] as const;

const TeamMember = Type.Object({
  id: Uuid(),
  name: Type.String(),
  email: Type.String(),
  available: Type.Boolean({ description: 'Whether the person takes conversations now (available or away)' }),
});

export const TeamSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    members: Type.Array(TeamMember, { maxItems: TEAM_MEMBERS_MAX }),
    created_at: Timestamp(),
  },
  { $id: 'Team' },
);
export type Team = Static<typeof TeamSchema>;

export const TeamList = Type.Array(Type.Ref(TeamSchema), { maxItems: TEAM_LIST_CAP, description: 'Alphabetical' });
export const TeamPage = pageSchema(Type.Ref(TeamSchema), 'TeamPage');

const TeamName = Type.String({ minLength: 1, maxLength: 64, description: 'Unique in the workspace, ignoring case' });
const MemberIds = Type.Array(Uuid(), {
  maxItems: TEAM_MEMBERS_MAX,
  uniqueItems: true,
  description: 'The ids of people of the workspace (user ids, as get-me shows yours)',
});

export const CreateTeamBody = Type.Object({ name: TeamName, member_ids: Type.Optional(MemberIds) });
const TeamId = Uuid('The team, by its id from list-teams');
export const UpdateTeamBody = Type.Object({ team_id: TeamId, name: TeamName });
export const TeamIdBody = Type.Object({ team_id: TeamId });
export const SetTeamMembersBody = Type.Object({ team_id: TeamId, member_ids: MemberIds });
export const DeletedTeam = Type.Object({ id: Uuid(), name: Type.String(), deleted: Type.Literal(true) });

export const AvailabilitySchema = Type.Object({ user_id: Uuid(), available: Type.Boolean() });
export const SetAvailabilityBody = Type.Object({
  available: Type.Boolean({ description: 'true: available for conversations; false: away' }),
});

const Rule = Type.Object({
  kind: Type.Union(
    RULE_KINDS.map((kind) => Type.Literal(kind)),
    {
      description:
        '`number`: the customer wrote to this channel (value: its channel_id from list-channels); `keyword`: the message contains the value (ignoring case); `tag`: the contact carries the tag named by the value',
    },
  ),
  value: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'What the rule matches, by its kind: a channel_id, a keyword or a tag name',
  }),
  team_id: Uuid('The team the conversation goes to'),
});

export const RoutingSettingsSchema = Type.Object({
  auto_assign: Type.Boolean({
    description: 'Whether conversations that open are assigned automatically, round-robin among available people',
  }),
  agent_limit: NullableField(
    Type.Integer({
      minimum: 1,
      description: 'The most open conversations automatic assignment gives one person; null: no limit',
    }),
  ),
  rules: Type.Array(Rule, { maxItems: RULES_MAX, description: 'In order: the first that matches picks the team' }),
});
export type RoutingSettings = Static<typeof RoutingSettingsSchema>;

export const UpdateRoutingSettingsBody = Type.Object({
  auto_assign: Type.Optional(
    Type.Boolean({ description: 'Assign conversations that open automatically, round-robin among available people' }),
  ),
  agent_limit: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: 'The most open conversations automatic assignment gives one person; null: no limit',
      }),
    ),
  ),
  rules: Type.Optional(Type.Array(Rule, { maxItems: RULES_MAX, description: 'Replaces every rule, in order' })),
});
export type RoutingSettingsUpdate = Static<typeof UpdateRoutingSettingsBody>;

export const AssignmentBody = Type.Object({
  team_id: Nullable(Uuid('The team; null: none')),
  assignee_id: Nullable(Uuid('The person (a member of the team when both are given); null: nobody')),
});
export type AssignmentInput = Static<typeof AssignmentBody>;

export const AssignmentSchema = Type.Object({
  contact_id: Uuid(),
  team_id: NullableField(Uuid()),
  assignee_id: NullableField(Uuid()),
});
export type AssignmentResult = Static<typeof AssignmentSchema>;
