import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { dashboard } from '../api/client';
import { can, useSession } from '../session';
import { CopyButton, DeleteButton, ErrorNote, Page, Table, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { Rich } from '../i18n/rich';
import { SettingsNav } from './settings-nav';
import { askAnAdmin, grantableRoles, mayManage, roleInSentence, roleLabel, roles, type Role } from '../roles';
import { t } from '../i18n/i18n';
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
  const team = useAsync(() => dashboard.get('/api/dashboard/team'), []);
  const invites = useAsync(() => (manages ? dashboard.get('/api/dashboard/invites') : Promise.resolve([])), [manages]);
  const [roleError, setRoleError] = useState<unknown>(null);
  const changeRole = async (member: TeamMember, role: Role) => {
    setRoleError(null);
    // Shown at once, so no render while saving puts the old role back in the select.
    team.update((members) => members.map((m) => (m.id === member.id ? { ...m, role } : m)));
    try {
      await dashboard.put('/api/dashboard/team/{id}', { path: { id: member.id }, body: { role } });
      if (member.id === user.id) await refresh(); // what this page offers follows the new role
    } catch (error) {
      setRoleError(error);
    }
    team.reload();
  };
  return (
    <Page title={t('settings:team.title')}>
      <SettingsNav />
      {manages ? (
        <InviteForm onInvited={invites.reload} />
      ) : (
        <p class="muted">{askAnAdmin(user, t('settings:team.inviteTeammates'))}</p>
      )}
      <ErrorNote error={team.error} />
      <ErrorNote error={roleError} />
      <Table
        caption={t('settings:team.membersCaption')}
        columns={[
          t('settings:team.name'),
          t('settings:team.email'),
          t('settings:team.role'),
          t('settings:team.joined'),
        ]}
        actions={manages}
      >
        {team.data?.map((member) => (
          <tr key={member.id}>
            <td>
              {member.name}
              {member.id === user.id && <span class="muted"> {t('settings:team.you')}</span>}
            </td>
            <td>{member.email}</td>
            <td>
              {mayManage(user, member.role) ? (
                <select
                  class="role-select"
                  aria-label={t('settings:team.roleOf', { email: member.email })}
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
                    label={t('settings:team.remove')}
                    question={t('settings:team.removeQuestion', { email: member.email })}
                    confirmLabel={t('settings:team.removeConfirm')}
                    path="/api/dashboard/team/{id}"
                    id={member.id}
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
      <h2 id="roles-title">{t('settings:team.rolesTitle')}</h2>
      <dl class="settings-facts">
        {roles().map(({ role, label, description }) => (
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
      <h2 id="pending-title">{t('settings:team.pendingTitle')}</h2>
      <ErrorNote error={props.error} />
      {props.invites.length === 0 ? (
        <p class="muted">{t('settings:team.noPending')}</p>
      ) : (
        <Table
          caption={t('settings:team.pendingTitle')}
          columns={[t('settings:team.email'), t('settings:team.role'), t('settings:team.expires')]}
          actions
        >
          {props.invites.map((invite) => (
            <tr key={invite.id}>
              <td>{invite.email}</td>
              <td>{roleLabel(invite.role)}</td>
              <td>{formatDateTime(invite.expires_at)}</td>
              <td>
                <DeleteButton
                  label={t('settings:team.revoke')}
                  question={t('settings:team.revokeQuestion', { email: invite.email })}
                  confirmLabel={t('settings:team.revokeConfirm')}
                  path="/api/dashboard/invites/{id}"
                  id={invite.id}
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
    setInvite(await dashboard.post('/api/dashboard/invites', { body: { email, role } }));
    setEmail('');
    onInvited();
  });
  const link = invite && `${location.origin}/invite/${invite.token}`;
  const { field, note } = fieldErrors(send.error, { email: t('settings:team.email') });

  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">{t('settings:team.inviteTitle')}</h2>
      <form class="inline-form" onSubmit={send.onSubmit} aria-labelledby="invite-title">
        <TextField
          label={t('settings:team.email')}
          type="email"
          required
          maxLength={254}
          value={email}
          onValue={setEmail}
          error={field('email')}
        />
        <div class="field">
          <label for="invite-role">{t('settings:team.role')}</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <RoleOptions />
          </select>
        </div>
        <button class="primary" type="submit" disabled={send.busy}>
          {t('settings:team.createInvite')}
        </button>
      </form>
      <ErrorNote error={note} />
      <div role="status">
        {invite && link && (
          <div class="notice">
            <p>
              <Rich
                text={t(invite.emailed ? 'settings:team.emailed' : 'settings:team.sendLink', {
                  email: invite.email,
                  role: roleInSentence(invite.role),
                })}
              />{' '}
              {t('settings:team.worksOnce', { expires: formatDateTime(invite.expires_at) })}
            </p>
            {invite.renewed && <p>{t('settings:team.replaces')}</p>}
            <p class="secret">
              <code data-testid="invite-link">{link}</code>{' '}
              <CopyButton text={link} label={t('settings:team.copyLink')} />
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
