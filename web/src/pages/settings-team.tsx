import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { dashboard } from '../api';
import { can, useSession } from '../session';
import { CopyButton, DeleteButton, ErrorNote, Page, Table, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { askAnAdmin, grantableRoles, mayManage, roleLabel, ROLES, type Role } from '../roles';
import { formatDateTime } from '../i18n/format';

interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}

interface Invite {
  email: string;
  role: Role;
  token: string;
  expires_at: string;
  /** SMTP is set up: the invitation went by email too. */
  emailed: boolean;
  /** The email had a pending invitation, which this one replaced. */
  renewed: boolean;
}

interface PendingInvite {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
}

/**
 * Settings → Team: who is in the workspace; owners and admins invite, remove, change roles and
 * withdraw invitations (only an owner makes, changes or removes an owner).
 */
export function TeamSettings() {
  const { user, refresh } = useSession();
  const manages = can(user, 'manage_team');
  const team = useAsync(() => dashboard.get<TeamMember[]>('team'), []);
  const invites = useAsync(
    () => (manages ? dashboard.get<PendingInvite[]>('invites') : Promise.resolve([])),
    [manages],
  );
  const [roleError, setRoleError] = useState<unknown>(null);
  const changeRole = async (member: TeamMember, role: Role) => {
    setRoleError(null);
    try {
      await dashboard.put(`team/${member.id}`, { role });
      if (member.id === user.id) await refresh(); // what this page offers follows the new role
    } catch (error) {
      setRoleError(error);
    }
    team.reload();
  };
  return (
    <Page title="Team">
      <SettingsNav />
      {manages ? (
        <InviteForm onInvited={invites.reload} />
      ) : (
        <p class="muted">{askAnAdmin(user, 'invite teammates')}</p>
      )}
      <ErrorNote error={team.error} />
      <ErrorNote error={roleError} />
      <Table caption="Team members" columns={['Name', 'Email', 'Role', 'Joined']} actions={manages}>
        {team.data?.map((member) => (
          <tr key={member.id}>
            <td>
              {member.name}
              {member.id === user.id && <span class="muted"> (you)</span>}
            </td>
            <td>{member.email}</td>
            <td>
              {mayManage(user, member.role) ? (
                <select
                  class="role-select"
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  onChange={(e) => void changeRole(member, e.currentTarget.value as Role)}
                >
                  <RoleOptions />
                </select>
              ) : (
                roleLabel(member.role)
              )}
            </td>
            <td>{formatDateTime(member.created_at)}</td>
            {manages && (
              <td>
                {member.id !== user.id && mayManage(user, member.role) && (
                  <DeleteButton
                    label="Remove"
                    question={`Remove ${member.email} from the workspace? They are signed out at once and their API tokens stop working.`}
                    confirmLabel="Remove member"
                    path={`team/${member.id}`}
                    onDeleted={team.reload}
                  />
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      {manages && <PendingInvites invites={invites.data ?? []} error={invites.error} onRevoked={invites.reload} />}
      <RoleGuide />
    </Page>
  );
}

/** The roles the user may give, as a select's options. */
function RoleOptions() {
  const { user } = useSession();
  return (
    <>
      {grantableRoles(user).map(({ role, label }) => (
        <option key={role} value={role}>
          {label}
        </option>
      ))}
    </>
  );
}

/** What each role is for, one line each. */
function RoleGuide() {
  return (
    <section aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      <dl class="settings-facts">
        {ROLES.map(({ role, label, description }) => (
          <Fragment key={role}>
            <dt>{label}</dt>
            <dd>{description}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

function PendingInvites(props: { invites: PendingInvite[]; error: unknown; onRevoked: () => void }) {
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title">Pending invitations</h2>
      <ErrorNote error={props.error} />
      {props.invites.length === 0 ? (
        <p class="muted">No invitation is waiting to be accepted.</p>
      ) : (
        <Table caption="Pending invitations" columns={['Email', 'Role', 'Expires']} actions>
          {props.invites.map((invite) => (
            <tr key={invite.id}>
              <td>{invite.email}</td>
              <td>{roleLabel(invite.role)}</td>
              <td>{formatDateTime(invite.expires_at)}</td>
              <td>
                <DeleteButton
                  label="Revoke"
                  question={`Revoke the invitation for ${invite.email}? Its link stops working.`}
                  confirmLabel="Revoke invitation"
                  path={`invites/${invite.id}`}
                  onDeleted={props.onRevoked}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [invite, setInvite] = useState<Invite | null>(null);
  const send = useSubmit(async () => {
    setInvite(null);
    setInvite(await dashboard.post<Invite>('invites', { email, role }));
    setEmail('');
    onInvited();
  });
  const link = invite && `${location.origin}/invite/${invite.token}`;
  const { field, note } = fieldErrors(send.error, { email: 'Email' });

  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a teammate</h2>
      <form class="inline-form" onSubmit={send.onSubmit} aria-labelledby="invite-title">
        <TextField
          label="Email"
          type="email"
          required
          maxLength={254}
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <RoleOptions />
          </select>
        </div>
        <button class="primary" type="submit" disabled={send.busy}>
          Create invite link
        </button>
      </form>
      <ErrorNote error={note} />
      <div role="status">
        {invite && link && (
          <div class="notice">
            <p>
              {invite.emailed ? (
                <>
                  The invitation was emailed to <strong>{invite.email}</strong> ({roleLabel(invite.role).toLowerCase()}
                  ). You can also hand over this link yourself.
                </>
              ) : (
                <>
                  Send this link to <strong>{invite.email}</strong> ({roleLabel(invite.role).toLowerCase()}).
                </>
              )}{' '}
              It works once and expires {formatDateTime(invite.expires_at)}; it is shown only now.
            </p>
            {invite.renewed && <p>It replaces the earlier invitation to this email, whose link no longer works.</p>}
            <p class="secret">
              <code data-testid="invite-link">{link}</code> <CopyButton text={link} label="Copy link" />
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
