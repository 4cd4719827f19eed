import { can, useSession, type SessionUser } from './session';
import { Page } from './ui';

/** A workspace role (src/accounts/roles.ts holds what each grants). */
export type Role = SessionUser['role'];

/** Each role's name and one line on what it is for, in the order Settings → Team offers them. */
export const ROLES: { role: Role; label: string; description: string }[] = [
  { role: 'owner', label: 'Owner', description: 'Everything, including making, changing and removing owners' },
  {
    role: 'admin',
    label: 'Admin',
    description: 'Everything but owners: the team, workspace, channel and all the work',
  },
  {
    role: 'member',
    label: 'Member',
    description: 'All the work (inbox, contacts, templates, campaigns, automation, reports), no settings',
  },
  { role: 'agent', label: 'Agent', description: 'The inbox and contacts: answers customers' },
  {
    role: 'marketer',
    label: 'Marketer',
    description: 'Contacts, templates, campaigns, sequences, flows and reports; no conversations',
  },
];

/** A role's display name. */
export const roleLabel = (role: Role): string => ROLES.find((entry) => entry.role === role)?.label ?? role;

/** The roles the user may give someone (only an owner makes owners). */
export const grantableRoles = (user: SessionUser) =>
  ROLES.filter((entry) => entry.role !== 'owner' || can(user, 'manage_owners'));

/** Whether the user may change or remove someone with this role (only an owner touches owners). */
export const mayManage = (user: SessionUser, role: Role): boolean =>
  can(user, 'manage_team') && (role !== 'owner' || can(user, 'manage_owners'));

/** The sentence a page shows someone whose role lacks what it changes. */
export const askAnAdmin = (user: SessionUser, doing: string): string =>
  `Your role (${user.role}) cannot ${doing}; ask an owner or admin.`;

/** The page of something the user's role does not include, opened from a link or typed in. */
export function NotInYourRole({ what }: { what: string }) {
  const { user } = useSession();
  return (
    <Page title="Not in your role">
      <p>
        Your role ({user.role}) does not include {what}; ask an owner or admin.
      </p>
    </Page>
  );
}
