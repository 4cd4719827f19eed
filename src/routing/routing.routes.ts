import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors, Uuid } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  AssignmentBody,
  AssignmentSchema,
  AvailabilitySchema,
  CreateTeamBody,
  DeletedTeam,
  RoutingSettingsSchema,
  SetAvailabilityBody,
  SetTeamMembersBody,
  TEAM_PAGE_LIMIT,
  TeamIdBody,
  TeamList,
  TeamPage,
  TeamSchema,
  UpdateRoutingSettingsBody,
  UpdateTeamBody,
} from './routing.schema.js';
import type { RoutingService } from './routing.service.js';

const tags = ['Routing'];
const team = Type.Ref(TeamSchema);
const write = { access: 'write', permission: 'routing' } as const;

/** Teams, availability, routing settings and a conversation's assignment, in the public API (the dashboard uses them too). */
export function registerRoutingRoutes(app: Api, routing: RoutingService): void {
  app.addSchema(TeamSchema);
  app.addSchema(TeamPage);
  registerTeamRoutes(app, routing);

  app.post(
    '/api/v1/actions/get-availability',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getAvailability',
        tags,
        summary: 'Whether you are available for conversations',
        body: Type.Object({}),
        response: { 200: AvailabilitySchema, ...actionErrors() },
      },
    },
    async (request) => routing.availability(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/set-availability',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'setAvailability',
        tags,
        summary: 'Set yourself available or away',
        description:
          'For the token’s user. Away: automatic assignment passes you over, and your open conversations go back to their queue (and to the next available person). Available: you take conversations again, from the queue at once.',
        body: SetAvailabilityBody,
        response: { 200: AvailabilitySchema, ...actionErrors() },
      },
    },
    async (request) => routing.setAvailability(principalOf(request), request.body.available),
  );

  app.post(
    '/api/v1/actions/get-routing-settings',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getRoutingSettings',
        tags,
        summary: 'How conversations are routed',
        description:
          'Whether conversations are assigned automatically, the per-person limit and the team rules, in order.',
        body: Type.Object({}),
        response: { 200: RoutingSettingsSchema, ...actionErrors() },
      },
    },
    async (request) => routing.settings(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-routing-settings',
    {
      config: write,
      schema: {
        operationId: 'updateRoutingSettings',
        tags,
        summary: 'Change how conversations are routed',
        description:
          'Fields not given keep their value; `rules` replaces every rule. When a conversation opens (its first message, or a message after it was done), the first matching rule picks its team; with `auto_assign` it then goes round-robin to an available member of the team (anyone available without a team) who has fewer than `agent_limit` open conversations, or waits in the team’s queue until someone has room.',
        body: UpdateRoutingSettingsBody,
        response: { 200: RoutingSettingsSchema, ...actionErrors(404) },
      },
    },
    async (request) => routing.updateSettings(principalOf(request), request.body),
  );

  app.put(
    '/api/v1/conversations/:contact_id/assignment',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'assignConversation',
        tags,
        summary: 'Assign a conversation to a team and/or a person',
        description:
          'The conversation is the contact’s (by contact id). `assignee_id` must be a member of `team_id` when both are given; null clears either. A team without a person puts the conversation in that team’s queue: with automatic assignment on, the next available member gets it at once if one has room. Emits the `conversation-assigned` webhook event.',
        params: Type.Object({ contact_id: Uuid('The contact whose conversation it is') }),
        body: AssignmentBody,
        response: { 200: AssignmentSchema, ...actionErrors(404) },
      },
    },
    async (request) => routing.assign(principalOf(request), request.params.contact_id, request.body),
  );
}

function registerTeamRoutes(app: Api, routing: RoutingService): void {
  app.post(
    '/api/v1/actions/list-teams',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listTeams',
        tags,
        summary: 'List teams',
        description:
          'Every team with its members (and whether each is available), alphabetical. With `paginate=cursor`, page by page in creation (id) order.',
        querystring: Type.Object(pageQuery(TEAM_PAGE_LIMIT)),
        body: Type.Object({}),
        response: { 200: listingResponse(TeamList, TeamPage), ...actionErrors() },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.query, TEAM_PAGE_LIMIT);
      const caller = principalOf(request);
      const listing = page ? await routing.listPage(caller, page) : await routing.list(caller);
      return sendListing(reply, listing, { list: TeamList, page: TeamPage });
    },
  );

  app.post(
    '/api/v1/actions/create-team',
    {
      config: write,
      schema: {
        operationId: 'createTeam',
        tags,
        summary: 'Create a team',
        description: 'A name no other team has (ignoring case: 409 `conflict` otherwise) and, optionally, its members.',
        body: CreateTeamBody,
        response: { 200: team, ...actionErrors(404) },
      },
    },
    async (request) => routing.create(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/update-team',
    {
      config: write,
      schema: {
        operationId: 'updateTeam',
        tags,
        summary: 'Rename a team',
        description: 'Its conversations and rules follow. A name another team has is a 409 `conflict`.',
        body: UpdateTeamBody,
        response: { 200: team, ...actionErrors(404) },
      },
    },
    async (request) => routing.rename(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/set-team-members',
    {
      config: write,
      schema: {
        operationId: 'setTeamMembers',
        tags,
        summary: "Set a team's members",
        description:
          'Replaces the members. Someone who leaves the team gives back its open conversations they were assigned: they return to the team’s queue.',
        body: SetTeamMembersBody,
        response: { 200: team, ...actionErrors(404) },
      },
    },
    async (request) => routing.setMembers(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/delete-team',
    {
      config: write,
      schema: {
        operationId: 'deleteTeam',
        tags,
        summary: 'Delete a team',
        description: 'Its rules are deleted; its conversations keep their person and no longer belong to a team.',
        body: TeamIdBody,
        response: { 200: DeletedTeam, ...actionErrors(404) },
      },
    },
    async (request) => routing.remove(principalOf(request), request.body),
  );
}
