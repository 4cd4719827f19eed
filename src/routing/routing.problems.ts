import { fieldProblems } from '../shared/field-problems.js';

/** Teams and assignment: what a field can break (wordings, see field-problems.ts). */
export const routingProblems = fieldProblems('routing', {
  team_name_taken: 'is the name of another team',
  role_without_conversations: 'is a {{role}}, whose role does not handle conversations',
  not_team_member: 'is not a member of the team: add them to it, or assign without the team',
  not_member_of_kept_team:
    'is not a member of the team {{team}}, which some of these conversations are in: add them to it, or take the conversations out of the team first',
});
